package io.sparkrca.cli;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.eventlog.replay.NotAnEventLogException;
import io.sparkrca.core.redaction.Redactor;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The one way every command that reads many inputs says what it could not read: one line, "skipped
 * 3 of 40 logs in DIR: 2 empty, 1 corrupt compressed data (run again with --debug for each log's
 * reason)", and with {@code --debug} one line per input. A command's contract is one error line,
 * not one per bad file in a directory.
 */
final class SkippedInputs {

  /** An input that could not be read, with what went wrong (a failure when one is known). */
  record Skip(String source, String reason, Optional<SparkRcaException> failure) {
    static Skip of(String source, SparkRcaException failure) {
      return new Skip(source, SparkRcaCommand.describe(failure), Optional.of(failure));
    }

    /** A skip known only by its text (the listing of a directory keeps no exception). */
    static Skip described(String text) {
      return new Skip("", text, Optional.empty());
    }
  }

  private SkippedInputs() {}

  /** Prints the summary line (and each skip under {@code --debug}); nothing when none was skipped. */
  static void report(CommandSpec spec, String location, int total, List<Skip> skips) {
    if (skips.isEmpty()) {
      return;
    }
    boolean debug = debug(spec);
    PrintWriter err = spec.commandLine().getErr();
    err.println("sparkrca: " + line(location, total, skips, debug));
    if (debug) {
      for (Skip s : skips) {
        err.println("sparkrca: skipped " + (s.source().isEmpty() ? "" : s.source() + ": ") + s.reason());
      }
    }
    err.flush();
  }

  /** "skipped N of M logs in LOCATION: reasons grouped by kind". */
  static String line(String location, int total, List<Skip> skips, boolean debug) {
    Map<String, Integer> reasons = new TreeMap<>();
    for (Skip s : skips) {
      reasons.merge(s.failure().map(SkippedInputs::kind).orElse("unreadable"), 1, Integer::sum);
    }
    StringBuilder line = new StringBuilder("skipped ").append(skips.size()).append(" of ").append(total)
        .append(total == 1 ? " log" : " logs").append(location.isEmpty() ? "" : " in " + Redactor.redactUri(location))
        .append(": ");
    String sep = "";
    for (Map.Entry<String, Integer> r : reasons.entrySet()) {
      line.append(sep).append(r.getValue()).append(' ').append(r.getKey());
      sep = ", ";
    }
    return line.append(debug ? "" : " (run again with --debug for each log's reason)").toString();
  }

  /** Whether {@code --debug} was given, before or after the command's name. */
  static boolean debug(CommandSpec spec) {
    for (ParseResult p = spec.root().commandLine().getParseResult(); p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--debug")) {
        return true;
      }
    }
    return false;
  }

  /** A short, countable kind of failure. */
  static String kind(SparkRcaException e) {
    String m = String.valueOf(e.getMessage());
    if (e instanceof InputNotFoundException) {
      return "not found";
    }
    if (e instanceof AccessDeniedException) {
      return "not readable (permissions)";
    }
    if (m.contains(" is empty")) {
      return "empty";
    }
    if (m.contains("named pipe") || m.contains("not a regular file")) {
      return "not regular files";
    }
    if (m.contains("cut off") || m.contains("truncated")) {
      return "cut off";
    }
    if (m.contains("cannot decode") || m.contains("magic bytes")) {
      return "corrupt compressed data";
    }
    if (e instanceof NotAnEventLogException || m.contains("not a Spark event log") || m.contains("holds no Spark events")) {
      return "not Spark event logs";
    }
    if (e instanceof UnsupportedInputException) {
      return "in an unsupported format";
    }
    return "unreadable";
  }
}
