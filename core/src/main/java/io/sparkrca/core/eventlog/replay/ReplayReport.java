package io.sparkrca.core.eventlog.replay;

import java.util.List;
import java.util.Map;

/**
 * How reading an event log went: what was read, what was skipped and why. A report with bad lines
 * or truncation still comes with an application; callers decide whether that is good enough (the
 * strict mode of {@link io.sparkrca.core.eventlog.EventLogs} makes any bad line fatal instead).
 *
 * <pre>{@code
 * ReplayReport r = app.report();
 * if (r.badLineCount() > 0) System.err.println(r.badLineCount() + " lines skipped, first: " + r.badLines().get(0));
 * }</pre>
 *
 * @param sources the files read, in order, with the codec each was decoded with
 * @param lines physical lines read (blank ones included)
 * @param events lines applied as events (known or not)
 * @param eventCounts events by type, in order of first appearance
 * @param badLineCount lines that were not valid events; {@code badLines} keeps the first 100
 * @param overlongLines lines longer than the line cap, skipped
 * @param truncated whether the log ended mid-line or mid-stream (normal for a running app)
 * @param completed whether the application's end event was seen
 * @param droppedTaskRows task rows not retained because of the per-stage cap (aggregates exact)
 * @param notes anything else worth knowing (a name that disagreed with the content, ...)
 * @param inconsistencies events that contradict the rest of the log, one sentence per kind (task
 *     ends without a start, a job ended twice, tasks that never ended in an application that did):
 *     lines lost, repeated or reordered on the way, which the numbers then do not cover exactly
 */
public record ReplayReport(
    List<SourceFile> sources,
    long lines,
    long events,
    Map<String, Long> eventCounts,
    long badLineCount,
    List<BadLine> badLines,
    long overlongLines,
    boolean truncated,
    boolean completed,
    long droppedTaskRows,
    List<String> notes,
    List<String> inconsistencies) {
  public ReplayReport {
    inconsistencies = List.copyOf(inconsistencies);
    sources = List.copyOf(sources);
    eventCounts = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(eventCounts));
    badLines = List.copyOf(badLines);
    notes = List.copyOf(notes);
  }

  /** A report with no contradictions found. */
  public ReplayReport(List<SourceFile> sources, long lines, long events, Map<String, Long> eventCounts, long badLineCount,
      List<BadLine> badLines, long overlongLines, boolean truncated, boolean completed, long droppedTaskRows,
      List<String> notes) {
    this(sources, lines, events, eventCounts, badLineCount, badLines, overlongLines, truncated, completed,
        droppedTaskRows, notes, List.of());
  }

  /** One file of the log and how it was decoded. */
  public record SourceFile(String name, String codec, long bytes, boolean inProgress) {}
}
