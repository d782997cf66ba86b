package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A bounded excerpt of a log where a failure signature matched: the matching line, the lines that
 * continue it (a stack trace with its {@code Caused by:} chain, a Python traceback), where it is,
 * its time, and the signatures it matched. Text is redacted.
 *
 * <pre>{@code
 * for (LogExcerpt e : evidence.excerpts("JAVA_HEAP_OOM")) {
 *   System.out.println(e.log() + ":" + e.line() + " " + e.text());
 * }
 * }</pre>
 *
 * @param log the log's URI (credentials removed)
 * @param line the 1-based line number of {@link #text()}
 * @param time the time the line carries, when it has one
 * @param signatures the ids of the {@link LogSignature}s that matched anywhere in the excerpt
 * @param text the matching line
 * @param continuation the lines after it that belong to it (at most {@value #MAX_CONTINUATION})
 * @param cut whether continuation lines were left out at the cap
 */
public record LogExcerpt(
    String log,
    long line,
    Optional<LogTime> time,
    List<String> signatures,
    String text,
    List<String> continuation,
    boolean cut) {
  /** The most continuation lines kept. */
  public static final int MAX_CONTINUATION = 150;

  public LogExcerpt {
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(text, "text");
    signatures = List.copyOf(signatures);
    continuation = List.copyOf(continuation);
  }

  /** The excerpt as one text: the line and its continuation, joined by newlines. */
  public String block() {
    if (continuation.isEmpty()) {
      return text;
    }
    return text + "\n" + String.join("\n", continuation);
  }

  /** Whether signature {@code id} matched in this excerpt. */
  public boolean matched(String id) {
    return signatures.contains(id);
  }

  /** {@code log:line}, for references. */
  public String location() {
    return log + ":" + line;
  }
}
