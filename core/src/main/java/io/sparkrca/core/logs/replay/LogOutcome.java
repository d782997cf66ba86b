package io.sparkrca.core.logs.replay;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How the application ended, as its logs tell it: the status, the exit code when a line gives
 * one, and the line that decided it.
 *
 * <pre>{@code
 * LogOutcome o = app.outcome();
 * if (o.status() == LogOutcome.Status.FAILED) System.out.println(o.reason() + " (" + o.at().map(LogProvenance::display).orElse("") + ")");
 * }</pre>
 *
 * @param exitCode the exit code a cluster manager's final status gives ({@code Final app status:
 *     FAILED, exitCode: 15}, a driver pod's {@code exit code: 1}), or, for an application that
 *     succeeded, the one SparkContext stopped with; empty otherwise (SparkContext says 0 when a
 *     shutdown hook stopped it after the main thread threw)
 * @param reason what decided the status, e.g. {@code Exception in thread "main" ...}
 * @param ended when the driver stopped, when a line says so
 * @param at the line that decided the status, when one did
 */
public record LogOutcome(Status status, Optional<Integer> exitCode, String reason, Optional<Instant> ended,
    Optional<LogProvenance> at) {
  /**
   * What the logs say of the application's end.
   *
   * <pre>{@code
   * boolean failed = app.outcome().status() == LogOutcome.Status.FAILED;
   * }</pre>
   */
  public enum Status {
    /** It stopped normally, or its cluster manager reported success. */
    SUCCEEDED,
    /**
     * It ended with an uncaught exception, a traceback, an error starting its context, or its
     * cluster manager reported failure.
     */
    FAILED,
    /** It was killed (a signal, a kill request). */
    KILLED,
    /** The logs end while it runs: still running, cut off, or killed without a trace. */
    UNKNOWN
  }

  public LogOutcome {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(ended, "ended");
    Objects.requireNonNull(at, "at");
  }
}
