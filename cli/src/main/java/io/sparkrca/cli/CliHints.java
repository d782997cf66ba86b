package io.sparkrca.cli;

import static java.util.Map.entry;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.logs.SearchQuery;
import io.sparkrca.core.logs.SearchResult;
import io.sparkrca.inspector.InspectorRemedies;
import io.sparkrca.rules.NoRulesException;
import java.util.Map;
import java.util.function.Function;

/**
 * The command line's words for the library's advice. The library says what to do in library
 * terms (a builder setting, a query kind) and carries it as a {@link Remedy}; where one of this
 * command's options is the better advice, the CLI maps the remedy's id to its own words here.
 * Remedies it has no words for are printed as the library wrote them.
 *
 * <pre>{@code
 * err.println("sparkrca: " + CliHints.error(e));     // "... (strict mode: drop --strict to ...)"
 * out.print(result.toText(CliHints::words));          // "... pass --entry (e.g. ..."
 * }</pre>
 */
final class CliHints {
  private CliHints() {}

  /** This command line's words for the library's remedies, by remedy id. */
  private static final Map<String, Function<Remedy, String>> WORDS = Map.ofEntries(
      entry(Replayer.LENIENT.id(), r -> "strict mode: drop --strict to skip bad lines and report them"),
      entry(SearchQuery.LITERAL.id(), r -> "use --literal"),
      entry(DecodedStream.TRUNCATED.id(), r -> "copy the file again, or drop --strict to read it up to the cut"),
      entry(LineReader.RAISE_LINE_CAP.id(), r -> "raise --max-line-bytes to read it whole"),
      entry(NoRulesException.ADD_RULES.id(), r -> "Pass rules (--rules FILE, --rule JSON) or opt in to the recommended"
          + " catalog (--recommended)."),
      entry(SearchResult.RETRY_IGNORING_CASE.id(), r -> "Hint: no matches. Spark messages vary in casing and wording --"
          + " retry with --ignore-case, or with a broader --regex."),
      entry(SearchResult.RETRY_BROADER.id(), r -> "Hint: no matches. Spark messages vary in wording -- retry with a"
          + " broader --regex (for example only the exception's class name)."),
      entry(InspectorRemedies.NAME_THE_ENTRY.id(), r -> "pass --entry with an archive path ('com/example/Main.class') or"
          + " class name ('com.example.Main'), or omit --entry for an overview of the archive"),
      entry(InspectorRemedies.LIST_THE_ARCHIVE.id(), r -> "list the archive without --entry to see its contents"),
      entry(InspectorRemedies.START_LINE, r -> "pass a --start-line from 1 to " + r.values().get(0)),
      entry(InspectorRemedies.JSON_LISTS_THEM.id(), r -> "--format json lists them"),
      entry(InspectorRemedies.NAME_A_COMPANION.id(), r -> "Pass --entry with the specific inner class name to inspect it."),
      entry(InspectorRemedies.LINE_BUDGET.id(), r -> "Raise --max-lines, pass --no-follow, or --entry a single inner class."),
      entry(InspectorRemedies.MANIFEST_ENTRY.id(), r -> "pass --entry META-INF/MANIFEST.MF"),
      entry(InspectorRemedies.DRILL_IN, r -> "To inspect a class or file, pass --entry (e.g. '" + r.values().get(0)
          + "' or '" + r.values().get(1) + "') or append '!/" + r.values().get(1) + "' to the URI; nested jars open the"
          + " same way (!/BOOT-INF/lib/x.jar); --findings scans the application classes for Spark anti-patterns."));

  /** The command line's words for {@code remedy}: its own where it has them, the library's otherwise. */
  static String words(Remedy remedy) {
    return WORDS.getOrDefault(remedy.id(), Remedy::words).apply(remedy);
  }

  /** The message of a library exception as this command line prints it. */
  static String error(Throwable e) {
    String m = e instanceof SparkRcaException s ? s.message(CliHints::words) : String.valueOf(e.getMessage());
    return m + transportHint(e, m);
  }

  /**
   * The options that send credentials or trust a CA, added after the whole printed message, wherever
   * the HTTP transport's words ended up in it: its own exception, a gap's detail, a message that
   * quotes it. So they are recognized by the transport's words rather than mapped from a remedy,
   * which would reach only the transport's own exception and put the options mid-message.
   */
  private static String transportHint(Throwable e, String message) {
    String hint = "";
    if (e instanceof AccessDeniedException && message.contains("the server requires credentials")) {
      hint += "; on the command line, pass --header 'Authorization: Bearer TOKEN' or --bearer-token-env VAR";
    }
    if (message.contains("TLS certificate verification failed")) {
      hint += "; on the command line, add the CA certificate with --ca-file PEM";
    }
    return hint;
  }

  /**
   * A gap that ends the command, as one sentence: where (unless the detail already names it), the
   * detail, and what to do. The detail often ends with a short hint of its own ("... not found:
   * check the path"); where the gap's advice starts with that hint, the advice replaces it rather
   * than repeating it.
   */
  static String gapError(EvidenceGap g) {
    String detail = g.detail(CliHints::words);
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
}
