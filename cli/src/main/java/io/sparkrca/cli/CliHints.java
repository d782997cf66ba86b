package io.sparkrca.cli;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.rules.NoRulesException;
import java.util.Map;

/**
 * The command line's words for the library's advice. The library says what to do in library
 * terms (a builder setting, a query kind); where one of this command's options is the better
 * advice, the CLI says that instead, when it prints the message. Only these phrases are
 * rephrased; everything else is printed as the library wrote it.
 *
 * <pre>{@code
 * err.println("sparkrca: " + CliHints.error(e));   // "... (strict mode: drop --strict to ...)"
 * out.print(CliHints.inspectText(result.toText())); // "... pass --entry (e.g. ..."
 * }</pre>
 */
final class CliHints {
  private CliHints() {}

  /** The command line's version of {@link NoRulesException#MESSAGE}. */
  static final String NO_RULES =
      "no diagnostic rules supplied. The engine applies no rules or thresholds of its own, because"
          + " what counts as unhealthy depends on the workload. Pass rules (--rules FILE, --rule"
          + " JSON) or opt in to the recommended catalog (--recommended).";

  /** Library phrases in error messages, and what this command line says instead. */
  private static final Map<String, String> ERROR_PHRASES =
      Map.of(
          Replayer.STRICT_MODE_HINT, "strict mode: drop --strict to skip bad lines and report them",
          "use a literal query (SearchQuery.literal)", "use --literal",
          "name the entry by its archive path", "pass --entry with an archive path",
          "or inspect the archive without one for its overview", "or omit --entry for an overview of the archive",
          "inspect the archive without an entry to list its contents", "list the archive without --entry to see its contents",
          "start at a line from 1 to", "pass a --start-line from 1 to",
          "or if the application is still running read it as in progress", "or drop --strict to read it up to the cut",
          "raise the line cap to read it whole", "raise --max-line-bytes to read it whole");

  /** Library phrases in the inspector's text output, and what this command line says instead. */
  private static final Map<String, String> INSPECT_PHRASES =
      Map.of(
          "the JSON form lists them", "--format json lists them",
          "name it as the entry (e.g.", "pass --entry (e.g.",
          "a findings-only inspection scans", "--findings scans",
          "Inspect one of them by naming it as the entry.",
          "Pass --entry with the specific inner class name to inspect it.",
          "Raise the line budget (maxLines), stop following inner classes, or inspect a single inner class.",
          "Raise --max-lines, pass --no-follow, or --entry a single inner class.",
          "or inspect the entry META-INF/MANIFEST.MF", "or pass --entry META-INF/MANIFEST.MF");

  /** The message of a library exception as this command line prints it. */
  static String error(Throwable e) {
    if (e instanceof NoRulesException) {
      return NO_RULES;
    }
    String m = replaceAll(String.valueOf(e.getMessage()), ERROR_PHRASES);
    if (e instanceof AccessDeniedException && m.contains("the server requires credentials")) {
      m += "; on the command line, pass --header 'Authorization: Bearer TOKEN' or --bearer-token-env VAR";
    }
    if (m.contains("TLS certificate verification failed")) {
      m += "; on the command line, add the CA certificate with --ca-file PEM";
    }
    return m;
  }

  /**
   * A gap that ends the command, as one sentence: where (unless the detail already names it), the
   * detail, and what to do. The detail often ends with a short hint of its own ("... not found:
   * check the path"); where the gap's advice starts with that hint, the advice replaces it rather
   * than repeating it.
   */
  static String gapError(EvidenceGap g) {
    String detail = g.detail();
    String out = g.uri().isEmpty() || detail.contains(g.uri()) ? detail : g.uri() + ": " + detail;
    String advice = g.whatToDo();
    if (advice.isEmpty() || out.contains(advice)) {
      return out;
    }
    int lastClause = out.lastIndexOf(": ");
    if (lastClause >= 0 && advice.startsWith(out.substring(lastClause + 2))) {
      return out.substring(0, lastClause + 2) + advice;
    }
    return out + " (" + advice + ")";
  }

  /** A search's text or JSON with the zero-match hint naming this command's options. */
  static String search(String output) {
    return output
        .replace(
            SearchResult.ZERO_MATCH_HINT,
            "Hint: no matches. Spark messages vary in casing and wording -- retry with --ignore-case,"
                + " or with a broader --regex.")
        .replace(
            SearchResult.IGNORE_CASE_ZERO_MATCH_HINT,
            "Hint: no matches. Spark messages vary in wording -- retry with a broader --regex (for"
                + " example only the exception's class name).");
  }

  /** The inspector's text output with its drill-in advice naming this command's options. */
  static String inspectText(String text) {
    return replaceAll(text, INSPECT_PHRASES);
  }

  private static String replaceAll(String s, Map<String, String> phrases) {
    String out = s;
    for (Map.Entry<String, String> p : phrases.entrySet()) {
      out = out.replace(p.getKey(), p.getValue());
    }
    return out;
  }
}
