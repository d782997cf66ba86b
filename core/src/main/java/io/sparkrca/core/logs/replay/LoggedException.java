package io.sparkrca.core.logs.replay;

import io.sparkrca.core.evidence.StackTrace;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An error a log recorded outside a task's failure: a record at ERROR (or a WARN with a stack
 * trace), or what a JVM or Python printed on its own ({@code Exception in thread "main"}, a
 * traceback). Records that repeat the same text fold into one, with a count and the first line.
 * Task failures are on the tasks themselves ({@link LogApplication#tasks}).
 *
 * <pre>{@code
 * app.exceptions().forEach(e -> System.out.println(e.count() + "x " + e.headline() + " at " + e.at().display()));
 * }</pre>
 *
 * @param emitter the logger's simple name, or {@code stderr}
 * @param executorId the executor whose log it is; empty in the driver's log
 * @param headline the record's message (its first line)
 * @param trace the exception chain read from the record's text (empty when it has no trace)
 * @param text the record's whole text, redacted, at most {@value LogRecord#MAX_CONTINUATION_CHARS} characters
 * @param count how many records had this headline and trace
 * @param at where the first one is
 */
public record LoggedException(
    String level,
    String emitter,
    Optional<String> executorId,
    Optional<Instant> time,
    String headline,
    StackTrace trace,
    String text,
    long count,
    LogProvenance at) {
  public LoggedException {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(emitter, "emitter");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(headline, "headline");
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(at, "at");
  }
}
