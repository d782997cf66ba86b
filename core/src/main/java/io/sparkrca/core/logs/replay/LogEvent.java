package io.sparkrca.core.logs.replay;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Something a log said happened to the application outside its jobs, stages and tasks: an
 * executor added, lost or exited (with the cluster manager's reason and exit code), a heartbeat
 * timeout, a decommission, spill, a fetch failure, stages resubmitted, executors never granted.
 *
 * <pre>{@code
 * app.events().stream().filter(e -> e.kind() == LogEvent.Kind.EXECUTOR_EXITED)
 *     .forEach(e -> System.out.println(e.executorId().orElse("?") + " exit " + e.exitCode() + " at " + e.at().display()));
 * }</pre>
 *
 * @param executorId the executor it concerns, when it concerns one
 * @param message the line's message, e.g. {@code Container killed by YARN for exceeding physical memory limits ...}
 * @param exitCode the exit code the line gives, if any
 * @param bytes a size the line gives (spilled bytes, rounded as the line rounds them), if any
 * @param stageId the stage it concerns, when known
 */
public record LogEvent(
    Kind kind,
    Optional<String> executorId,
    Optional<Instant> time,
    String message,
    OptionalInt exitCode,
    OptionalLong bytes,
    OptionalInt stageId,
    LogProvenance at) {
  /**
   * The kinds of events.
   *
   * <pre>{@code
   * long lost = app.events().stream().filter(e -> e.kind() == LogEvent.Kind.EXECUTOR_REMOVED).count();
   * }</pre>
   */
  public enum Kind {
    /** An executor registered with the driver (or was granted by the cluster manager). */
    EXECUTOR_ADDED,
    /** The driver lost or removed an executor ({@code Lost executor 1 on host: reason}). */
    EXECUTOR_REMOVED,
    /**
     * The cluster manager reported an executor's process ended: a standalone worker's {@code is
     * now EXITED}, a YARN container completed, failed or was killed, a Kubernetes pod exited.
     */
    EXECUTOR_EXITED,
    /** The driver heard no heartbeat from an executor within the timeout. */
    HEARTBEAT_TIMEOUT,
    /** An executor was asked to decommission, or was decommissioned. */
    DECOMMISSIONED,
    /** An executor was told to shut down, or received a signal. */
    EXECUTOR_SHUTDOWN,
    /** A task spilled to disk ({@code spilling sort data of 1.2 GiB to disk}). */
    SPILL,
    /** A shuffle fetch failed, or blocks could not be fetched. */
    FETCH_FAILURE,
    /** Stages were resubmitted (after a fetch failure or a lost executor). */
    STAGES_RESUBMITTED,
    /** {@code Initial job has not accepted any resources}: no executor was granted in time. */
    RESOURCES_NOT_ACCEPTED,
    /** A job or stage was cancelled. */
    CANCELLED,
    /** A write job was aborted, or a task's commit was denied. */
    WRITE_ABORTED,
    /** Adaptive query execution changed a plan (coalesced partitions, split a skewed join). */
    ADAPTIVE_EXECUTION
  }

  public LogEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(bytes, "bytes");
    Objects.requireNonNull(stageId, "stageId");
    Objects.requireNonNull(at, "at");
  }
}
