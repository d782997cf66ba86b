package io.sparkrca.core.evidence;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A record from the cluster manager about the application's processes: a container or pod that
 * was OOM-killed or evicted, a node under memory pressure, a preemption. These hold the decisive
 * record for kills the JVM never sees (exit 137).
 *
 * <pre>{@code
 * evidence.clusterEvents().stream().filter(e -> e.reason().equals(ClusterEventReasons.OOM_KILLED)).forEach(...);
 * }</pre>
 *
 * @param source where it came from, e.g. {@code kubernetes: pods/spark-exec-3} or a YARN log
 * @param time when, when known
 * @param object what it concerns, e.g. {@code pod spark-app-exec-3} or {@code node n1}
 * @param executorId the Spark executor it concerns, when known ({@code "driver"} for the driver)
 * @param reason the manager's reason, e.g. {@code OOMKilled}, {@code Evicted}, {@code MemoryPressure}
 * @param message the manager's message
 * @param exitCode the container's exit code, when it has one
 * @param details what more the manager told (the kind of record, pod, node, times, memory limit);
 *     {@link ClusterDetails#none()} when nothing
 */
public record ClusterEvent(
    String source, Optional<Instant> time, String object, Optional<String> executorId, String reason,
    String message, Optional<Integer> exitCode, ClusterDetails details) {

  /** A record with no details beyond these. */
  public ClusterEvent(String source, Optional<Instant> time, String object, Optional<String> executorId,
      String reason, String message, Optional<Integer> exitCode) {
    this(source, time, object, executorId, reason, message, exitCode, ClusterDetails.none());
  }

  public ClusterEvent {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(details, "details");
  }

  /** What sort of record this is ({@link ClusterDetails.Type#OTHER} when the provider did not say). */
  public ClusterDetails.Type type() {
    return details.type();
  }
}
