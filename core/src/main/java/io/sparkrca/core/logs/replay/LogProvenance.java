package io.sparkrca.core.logs.replay;

import java.util.Objects;
import java.util.Optional;

/**
 * Where a fact of a log-rebuilt application was read: the log (a path or URI, credentials
 * removed) and the line in it, so that a report can cite the line a job, stage, task, executor
 * event or exception came from.
 *
 * <pre>{@code
 * app.stageProvenance(3, 0).flatMap(LogProvenance.Span::end).ifPresent(p -> System.out.println("stage 3 failed at " + p.display()));
 * }</pre>
 *
 * @param log the log as it was named, credentials removed; for a section of a YARN aggregated log
 *     or an entry of a Cloud Logging export, the file that holds it
 * @param line the 1-based line in {@code log} (for a JSON array export, the line its entry starts on)
 */
public record LogProvenance(String log, long line) {
  public LogProvenance {
    Objects.requireNonNull(log, "log");
  }

  /** {@code log:line}, as editors and reports cite a line. */
  public String display() {
    return log + ":" + line;
  }

  /**
   * Where something starts and ends in the logs: a job's {@code Got job} and {@code Job N
   * finished} lines, a stage attempt's submission and its {@code finished in}/{@code failed in}
   * line, a task's launch and end, an executor's registration and removal. Either may be absent
   * (the line is not in the logs read, or it has not happened).
   *
   * <pre>{@code
   * app.stageProvenance(2, 0).flatMap(LogProvenance.Span::end).ifPresent(p -> cite(p.display()));
   * }</pre>
   */
  public record Span(Optional<LogProvenance> start, Optional<LogProvenance> end) {
    public Span {
      Objects.requireNonNull(start, "start");
      Objects.requireNonNull(end, "end");
    }
  }
}
