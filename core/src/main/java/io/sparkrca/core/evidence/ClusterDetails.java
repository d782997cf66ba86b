package io.sparkrca.core.evidence;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What more a cluster manager told about one {@link ClusterEvent}: what sort of record it is, the
 * pod (or YARN container) and container it concerns, the node it ran on, when the process started
 * and ended, its signal and restarts, and its memory request and limit. Everything but the type is
 * optional: a provider fills in what its manager records.
 *
 * <pre>{@code
 * ClusterDetails d = ClusterDetails.builder(ClusterDetails.Type.TERMINATION)
 *     .pod("etl-7f3a-exec-1").container("spark-kubernetes-executor").node("pool-a-3")
 *     .finishedAt(Instant.parse("2026-11-29T15:05:24Z")).memoryLimitBytes(896L << 20)
 *     .build();
 * }</pre>
 *
 * @param type what sort of record it is
 * @param pod the pod, or the container id on YARN
 * @param container the container within the pod
 * @param node the node (host) it ran on
 * @param startedAt when the process started
 * @param finishedAt when it ended (a termination), or when the condition began (a node condition)
 * @param signal the signal that ended it, when the manager says
 * @param restartCount how often the container restarted before this record
 * @param memoryRequestBytes the memory the container requested
 * @param memoryLimitBytes the memory limit the container was held to
 * @param attributes anything else worth showing, e.g. {@code phase=Failed}, {@code qosClass=Burstable}
 */
public record ClusterDetails(
    Type type,
    Optional<String> pod,
    Optional<String> container,
    Optional<String> node,
    Optional<Instant> startedAt,
    Optional<Instant> finishedAt,
    Optional<Integer> signal,
    Optional<Integer> restartCount,
    Optional<Long> memoryRequestBytes,
    Optional<Long> memoryLimitBytes,
    Map<String, String> attributes) {
  private static final ClusterDetails NONE = builder(Type.OTHER).build();

  /** What sort of record a {@link ClusterEvent} is. */
  public enum Type {
    /** A process or container ended: its exit code and the manager's reason ({@code OOMKilled}, {@code Error}). */
    TERMINATION,
    /** A pod's own status: its phase and reason ({@code Evicted}, {@code Preempted}, a node shutdown). */
    POD_STATUS,
    /** A node's condition ({@code MemoryPressure}, {@code DiskPressure}, not ready). */
    NODE_CONDITION,
    /** An event the manager recorded ({@code Killing}, {@code OOMKilling}, {@code FailedScheduling}). */
    EVENT,
    /** The state of the application as its controller records it (a Spark Operator SparkApplication). */
    APPLICATION,
    /** Anything else. */
    OTHER
  }

  public ClusterDetails {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(restartCount, "restartCount");
    Objects.requireNonNull(memoryRequestBytes, "memoryRequestBytes");
    Objects.requireNonNull(memoryLimitBytes, "memoryLimitBytes");
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }

  /** No details: a record that says only what {@link ClusterEvent} itself holds. */
  public static ClusterDetails none() {
    return NONE;
  }

  public static Builder builder(Type type) {
    return new Builder(type);
  }

  /** Builder for {@link ClusterDetails}; only the type is required. */
  public static final class Builder {
    private final Type type;
    private Optional<String> pod = Optional.empty();
    private Optional<String> container = Optional.empty();
    private Optional<String> node = Optional.empty();
    private Optional<Instant> startedAt = Optional.empty();
    private Optional<Instant> finishedAt = Optional.empty();
    private Optional<Integer> signal = Optional.empty();
    private Optional<Integer> restartCount = Optional.empty();
    private Optional<Long> memoryRequestBytes = Optional.empty();
    private Optional<Long> memoryLimitBytes = Optional.empty();
    private final Map<String, String> attributes = new LinkedHashMap<>();

    private Builder(Type type) {
      this.type = Objects.requireNonNull(type, "type");
    }

    public Builder pod(String name) {
      this.pod = Optional.of(name);
      return this;
    }

    public Builder container(String name) {
      this.container = Optional.of(name);
      return this;
    }

    public Builder node(String name) {
      this.node = Optional.of(name);
      return this;
    }

    public Builder startedAt(Instant t) {
      this.startedAt = Optional.of(t);
      return this;
    }

    public Builder finishedAt(Instant t) {
      this.finishedAt = Optional.of(t);
      return this;
    }

    public Builder signal(int s) {
      this.signal = Optional.of(s);
      return this;
    }

    public Builder restartCount(int n) {
      this.restartCount = Optional.of(n);
      return this;
    }

    public Builder memoryRequestBytes(long bytes) {
      this.memoryRequestBytes = Optional.of(bytes);
      return this;
    }

    public Builder memoryLimitBytes(long bytes) {
      this.memoryLimitBytes = Optional.of(bytes);
      return this;
    }

    /** Adds one attribute; an empty value is left out. */
    public Builder attribute(String key, String value) {
      if (value != null && !value.isEmpty()) {
        attributes.put(Objects.requireNonNull(key, "key"), value);
      }
      return this;
    }

    public ClusterDetails build() {
      return new ClusterDetails(type, pod, container, node, startedAt, finishedAt, signal, restartCount,
          memoryRequestBytes, memoryLimitBytes, attributes);
    }
  }
}
