package io.sparkrca.kubernetes;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A Spark pod as the API server describes it: whose it is (driver or executor, which executor),
 * its phase and reason ({@code Evicted}, ...), the node it ran on, its disruption (preemption,
 * eviction, node shutdown), and its containers.
 *
 * <pre>{@code
 * pods.pods().stream().filter(p -> p.reason().equals("Evicted"))
 *     .forEach(p -> System.out.println(p.name() + " evicted from " + p.node().orElse("?")));
 * }</pre>
 *
 * @param namespace its namespace
 * @param name its name
 * @param role {@code driver}, {@code executor}, or {@code other}
 * @param executorId the Spark executor id ({@code spark-exec-id}), {@code driver} for the driver
 * @param phase {@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed}, {@code Unknown}
 * @param reason the pod's reason ({@code Evicted}, {@code Preempting}, {@code NodeLost}, ...), or ""
 * @param message the pod's message (the kubelet's eviction message), redacted, or ""
 * @param node the node it ran on
 * @param startTime when the kubelet accepted it
 * @param deletedAt when it was asked to be deleted, while it is still there
 * @param disruption why it is being disrupted, from its {@code DisruptionTarget} condition
 *     ({@code PreemptionByScheduler: ...}), or ""
 * @param disruptedAt when that condition became true
 * @param qosClass {@code Guaranteed}, {@code Burstable} or {@code BestEffort}, or ""
 * @param restartPolicy {@code Never} for Spark's pods, or what the pod says
 * @param labels its Spark and Spark Operator labels
 * @param containers its containers
 */
public record PodInfo(String namespace, String name, String role, Optional<String> executorId, String phase,
    String reason, String message, Optional<String> node, Optional<Instant> startTime, Optional<Instant> deletedAt,
    String disruption, Optional<Instant> disruptedAt, String qosClass, String restartPolicy,
    Map<String, String> labels, List<ContainerInfo> containers) {
  /** Spark's executor container name. */
  public static final String EXECUTOR_CONTAINER = "spark-kubernetes-executor";
  /** Spark's driver container name. */
  public static final String DRIVER_CONTAINER = "spark-kubernetes-driver";

  public PodInfo {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(executorId, "executorId");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(deletedAt, "deletedAt");
    Objects.requireNonNull(disruption, "disruption");
    Objects.requireNonNull(disruptedAt, "disruptedAt");
    Objects.requireNonNull(qosClass, "qosClass");
    Objects.requireNonNull(restartPolicy, "restartPolicy");
    labels = Map.copyOf(labels);
    containers = List.copyOf(containers);
  }

  /** Spark's container: {@link #EXECUTOR_CONTAINER} or {@link #DRIVER_CONTAINER}, else the first. */
  public Optional<ContainerInfo> sparkContainer() {
    for (ContainerInfo c : containers) {
      if (c.name().equals(EXECUTOR_CONTAINER) || c.name().equals(DRIVER_CONTAINER)) {
        return Optional.of(c);
      }
    }
    return containers.stream().findFirst();
  }

  /** Whether it is the driver's pod. */
  public boolean isDriver() {
    return role.equals("driver");
  }

  /** Whether the pod or any of its containers ended in failure, or it was evicted or disrupted. */
  public boolean failed() {
    return phase.equals("Failed") || !reason.isEmpty() || !disruption.isEmpty()
        || containers.stream().anyMatch(c -> c.terminated().map(Termination::failed).orElse(false)
            || c.lastTerminated().map(Termination::failed).orElse(false));
  }
}
