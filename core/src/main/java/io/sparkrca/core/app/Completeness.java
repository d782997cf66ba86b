package io.sparkrca.core.app;

import java.util.List;

/**
 * How complete the data behind an application is: whether its source was cut off, how many
 * records could not be read, whether task rows were capped. Analysis states these as gaps in its
 * evidence instead of treating what is missing as "nothing wrong".
 *
 * <pre>{@code
 * Completeness c = app.completeness();
 * if (!c.isComplete()) System.err.println("partial data: " + c.describe());
 * }</pre>
 *
 * @param cutOff the source ends early: a log cut mid-line or mid-stream (normal for a running app)
 * @param unreadableRecords records skipped because they could not be read (bad or over-long lines)
 * @param droppedTaskRows task rows not kept because of a per-stage cap (aggregates stay exact)
 * @param notes anything else worth knowing about how the data was read
 * @param inconsistencies records that contradict the others, one sentence per kind (a task's end
 *     without its start, a job ended twice, tasks still running in an application that ended):
 *     damage, or records lost or repeated on the way; the numbers then do not cover the run exactly
 */
public record Completeness(boolean cutOff, long unreadableRecords, long droppedTaskRows, List<String> notes,
    List<String> inconsistencies) {
  private static final Completeness COMPLETE = new Completeness(false, 0, 0, List.of());

  public Completeness {
    notes = List.copyOf(notes);
    inconsistencies = List.copyOf(inconsistencies);
  }

  /** Completeness with no contradicting records found. */
  public Completeness(boolean cutOff, long unreadableRecords, long droppedTaskRows, List<String> notes) {
    this(cutOff, unreadableRecords, droppedTaskRows, notes, List.of());
  }

  /** Nothing missing. */
  public static Completeness complete() {
    return COMPLETE;
  }

  /** Whether nothing was cut, skipped, capped or contradicted (notes aside). */
  public boolean isComplete() {
    return !cutOff && unreadableRecords == 0 && droppedTaskRows == 0 && inconsistencies.isEmpty();
  }

  /** One sentence naming what is missing, or "complete". */
  public String describe() {
    if (isComplete()) {
      return "complete";
    }
    StringBuilder sb = new StringBuilder();
    if (cutOff) {
      sb.append("the source ends early (cut off, or still being written)");
    }
    if (unreadableRecords > 0) {
      sb.append(sb.length() > 0 ? "; " : "").append(unreadableRecords).append(" records could not be read");
    }
    if (droppedTaskRows > 0) {
      sb.append(sb.length() > 0 ? "; " : "").append(droppedTaskRows).append(" task rows were not kept (per-stage cap)");
    }
    if (!inconsistencies.isEmpty()) {
      sb.append(sb.length() > 0 ? "; " : "").append("records contradict each other: ")
          .append(String.join("; ", inconsistencies));
    }
    return sb.toString();
  }
}
