package io.sparkrca.core.logs;

import io.sparkrca.core.error.Remedy;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Renders {@link LogStream} results in the plain-text format of spark_gcs_log_reader.py: {@code
 * {n:6d} | line} rows, {@code >} on matching rows, the same headers and footers. Log text is
 * untrusted, so control characters (terminal escapes, bidi overrides, line separators) are shown
 * as {@code \}{@code xNN} / {@code \}{@code uNNNN} instead of being printed raw. Notes are not
 * included: print them separately (the CLI writes them to stderr), nor are a {@link LogSet}
 * result's errors. Many logs are shown like {@code grep -r}: each line prefixed by its log.
 *
 * <pre>{@code
 * System.out.print(LogText.search(LogStream.open("driver.log").search(SearchQuery.literal("ERROR"))));
 * }</pre>
 */
public final class LogText {
  private LogText() {}

  /** The info block. */
  public static String info(LogInfo info) {
    StringBuilder sb = new StringBuilder();
    sb.append("=== File Metadata for: ").append(safe(info.source())).append(" ===\n");
    if (info.size().isEmpty()) {
      sb.append("Size: UNKNOWN (could not read object metadata)\n");
      sb.append("Compressed: ").append(py(info.compressed())).append('\n');
      codec(sb, info);
      sb.append("Recommendation: ").append(info.recommendation()).append('\n');
      return sb.toString();
    }
    long size = info.size().getAsLong();
    String mb = new BigDecimal(size / 1048576.0).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    sb.append("Size: ").append(size).append(" bytes (").append(mb).append(" MB)\n");
    sb.append("Compressed: ").append(py(info.compressed())).append('\n');
    codec(sb, info);
    sb.append("Is Large File (>20MB): ").append(py(info.large())).append('\n');
    sb.append("Recommendation: ").append(info.recommendation()).append('\n');
    return sb.toString();
  }

  private static void codec(StringBuilder sb, LogInfo info) {
    if (info.compressed()) {
      sb.append("Codec: ").append(info.compression().codecName()).append('\n');
    }
  }

  /** Lines as they are, one per output line (head and tail). */
  public static String lines(LogLines lines) {
    StringBuilder sb = new StringBuilder();
    for (LogLine l : lines.lines()) {
      sb.append(safe(l.display())).append('\n');
    }
    return sb.toString();
  }

  /** Numbered lines, {@code {n:6d} | line} (range). */
  public static String numberedLines(LogLines lines) {
    StringBuilder sb = new StringBuilder();
    for (LogLine l : lines.lines()) {
      sb.append(number(l)).append(" | ").append(safe(l.display())).append('\n');
    }
    return sb.toString();
  }

  /** A search: header, one block per match, limit notice, footer and zero-match hint. */
  public static String search(SearchResult r) {
    return search(r, Remedy::words);
  }

  /** As {@link #search(SearchResult)}, with the zero-match hint in {@code words}' words. */
  public static String search(SearchResult r, Function<? super Remedy, String> words) {
    StringBuilder sb = new StringBuilder();
    sb.append("=== Searching '").append(safe(r.query().pattern())).append("' in ")
        .append(safe(r.source())).append(" ===\n");
    for (SearchMatch m : r.matches()) {
      sb.append('\n');
      sb.append("--- Match #").append(m.index()).append(" at line ").append(m.line().number())
          .append(" (byte ").append(m.line().byteOffset()).append(") ---\n");
      for (LogLine l : m.before()) {
        sb.append("  ").append(number(l)).append(" | ").append(safe(l.display())).append('\n');
      }
      sb.append("> ").append(number(m.line())).append(" | ").append(safe(m.line().display())).append('\n');
      for (LogLine l : m.after()) {
        sb.append("  ").append(number(l)).append(" | ").append(safe(l.display())).append('\n');
      }
    }
    if (r.limitReached()) {
      sb.append('\n').append("[Reached maximum match limit of ").append(r.query().maxMatches())
          .append(". Stopping search.]\n");
    }
    sb.append('\n').append("=== Search complete. Total matches found: ").append(r.matches().size())
        .append(" (scanned ").append(r.linesScanned()).append(" lines) ===\n");
    r.hintRemedy().ifPresent(h -> sb.append(words.apply(h)).append('\n'));
    return sb.toString();
  }

  /** A line count, and the matching count when a query was given. */
  public static String count(CountResult c) {
    StringBuilder sb = new StringBuilder();
    sb.append("=== Line count for: ").append(safe(c.source())).append(" ===\n");
    sb.append("Lines: ").append(c.lines()).append('\n');
    c.query().ifPresent(q -> sb.append("Matching lines (").append(describe(q)).append("): ").append(c.matchingLines()).append('\n'));
    return sb.toString();
  }

  // --- many logs -------------------------------------------------------------------------------

  /**
   * A search over many logs, like {@code grep -r}: each match prefixed by its log ({@code :} for a
   * match, {@code -} for context, {@code --} between matches with context), a notice where a log
   * reached its match limit, a footer with the totals and the zero-match hint.
   */
  public static String search(SearchSetResult r) {
    return search(r, Remedy::words);
  }

  /** As {@link #search(SearchSetResult)}, with the zero-match hint in {@code words}' words. */
  public static String search(SearchSetResult r, Function<? super Remedy, String> words) {
    StringBuilder sb = new StringBuilder();
    List<SearchResult> all = r.logs();
    sb.append("=== Searching '").append(safe(r.query().pattern())).append("' in ").append(logs(all.size())).append(" ===\n");
    long matches = 0;
    for (SearchResult s : all) {
      String name = safe(s.source());
      for (SearchMatch m : s.matches()) {
        boolean context = !m.before().isEmpty() || !m.after().isEmpty();
        sb.append(matches == 0 ? "\n" : context ? "--\n" : "");
        matches++;
        prefixed(sb, name, '-', m.before());
        prefixed(sb, name, ':', List.of(m.line()));
        prefixed(sb, name, '-', m.after());
      }
      if (s.limitReached()) {
        sb.append("[").append(name).append(": reached the limit of ").append(r.query().maxMatches()).append(" matches]\n");
      }
    }
    sb.append('\n').append("=== Search complete. Total matches found: ").append(matches).append(" in ")
        .append(r.logsWithMatches()).append(" of ").append(all.size()).append(" logs (scanned ").append(r.linesScanned())
        .append(" lines) ===\n");
    if (matches == 0 && !all.isEmpty()) {
      all.get(0).hintRemedy().ifPresent(h -> sb.append(words.apply(h)).append('\n'));
    }
    return sb.toString();
  }

  private static void prefixed(StringBuilder sb, String name, char mark, List<LogLine> lines) {
    for (LogLine l : lines) {
      sb.append(name).append(mark).append(number(l)).append(" | ").append(safe(l.display())).append('\n');
    }
  }

  /** A count over many logs: each log's lines (and matching lines), then the totals. */
  public static String count(CountSetResult r) {
    StringBuilder sb = new StringBuilder();
    Optional<SearchQuery> q = r.request().search();
    sb.append("=== Line count for ").append(logs(r.logs().size())).append(" ===\n");
    for (CountResult c : r.logs()) {
      sb.append(safe(c.source())).append(": ").append(c.lines()).append(" lines");
      if (q.isPresent()) {
        sb.append(", ").append(c.matchingLines()).append(" matching");
      }
      sb.append('\n');
    }
    sb.append("Total: ").append(r.lines()).append(" lines");
    q.ifPresent(query -> sb.append("; matching lines (").append(describe(query)).append("): ").append(r.matchingLines()));
    return sb.append('\n').toString();
  }

  private static String logs(int n) {
    return n + (n == 1 ? " log" : " logs");
  }

  /** {@code regex 'p'} or {@code literal 'p'}, and whether case is ignored. */
  private static String describe(SearchQuery q) {
    return (q.regex() ? "regex" : "literal") + " '" + safe(q.pattern()) + "'" + (q.ignoreCase() ? ", ignoring case" : "");
  }

  private static String number(LogLine l) {
    return l.numbered() ? String.format(Locale.ROOT, "%6d", l.number()) : "     ?";
  }

  private static String py(boolean b) {
    return b ? "True" : "False";
  }

  /**
   * The text with control and invisible formatting characters escaped: C0 controls except tab,
   * DEL, C1 controls, line and paragraph separators, and bidi embedding/override/isolate marks.
   */
  public static String safe(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean escape =
          (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
              || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
      if (escape) {
        if (sb == null) {
          sb = new StringBuilder(s.length() + 16);
          sb.append(s, 0, i);
        }
        sb.append(c <= 0xff ? String.format(Locale.ROOT, "\\x%02x", (int) c) : String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? s : sb.toString();
  }
}
