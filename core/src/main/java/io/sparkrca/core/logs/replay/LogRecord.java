package io.sparkrca.core.logs.replay;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One record of a log, whatever its layout: the time, level and emitter its header carried, its
 * message, and the lines that continue it (a stack trace and its causes, a Python traceback, the
 * rest of a multi-line message), joined.
 *
 * <pre>{@code
 * LogReplay.builder().build().forEachRecord("driver.log", r -> {
 *   if (r.level().equals("ERROR")) System.out.println(r.at().display() + " " + r.message());
 *   return true;
 * });
 * }</pre>
 *
 * @param at the log and the line the record starts on
 * @param section the section of the log it belongs to ({@link LogSection#name()})
 * @param time when the header says it was written; empty when the layout has no date
 * @param level the level as written, upper case: INFO, WARN, ERROR, ...
 * @param emitter the logger's simple name, e.g. {@code DAGScheduler}; {@code stderr} for lines a
 *     JVM or Python prints without a header ({@code Exception in thread "main"}, a traceback)
 * @param message the message: the header's line after the emitter
 * @param continuation the lines after the first, joined with {@code \n}; empty when there are
 *     none (at most {@value #MAX_CONTINUATION_CHARS} characters are kept)
 */
public record LogRecord(
    LogProvenance at,
    String section,
    Optional<Instant> time,
    String level,
    String emitter,
    String message,
    String continuation) {
  /** The most characters of continuation lines kept per record. */
  public static final int MAX_CONTINUATION_CHARS = 16 * 1024;

  public LogRecord {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(emitter, "emitter");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(continuation, "continuation");
  }

  /** The message and its continuation lines, as the log shows them. */
  public String text() {
    return continuation.isEmpty() ? message : message + "\n" + continuation;
  }
}
