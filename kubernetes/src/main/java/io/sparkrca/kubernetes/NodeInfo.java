package io.sparkrca.kubernetes;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A node an application's pods ran on: its conditions now (memory, disk and PID pressure,
 * readiness), its memory, whether it is cordoned, and the labels that say what it is (instance
 * type, zone, spot or on-demand).
 *
 * <pre>{@code
 * node.conditions().stream().filter(NodeInfo.Condition::abnormal)
 *     .forEach(c -> System.out.println(node.name() + ": " + c.type() + " since " + c.since().orElse(null)));
 * }</pre>
 *
 * @param name the node's name
 * @param conditions its conditions
 * @param memoryCapacityBytes its memory
 * @param memoryAllocatableBytes the memory pods may use
 * @param unschedulable whether it is cordoned
 * @param labels its instance type, zone and capacity labels
 * @param created when it joined the cluster
 */
public record NodeInfo(String name, List<Condition> conditions, Optional<Long> memoryCapacityBytes,
    Optional<Long> memoryAllocatableBytes, boolean unschedulable, Map<String, String> labels, Optional<Instant> created) {

  /**
   * One node condition.
   *
   * @param type {@code Ready}, {@code MemoryPressure}, {@code DiskPressure}, {@code PIDPressure}, ...
   * @param status {@code True}, {@code False} or {@code Unknown}
   * @param reason the kubelet's reason, e.g. {@code KubeletHasInsufficientMemory}
   * @param message the kubelet's message
   * @param since when it last changed status
   */
  public record Condition(String type, String status, String reason, String message, Optional<Instant> since) {
    public Condition {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(since, "since");
    }

    /** Whether it says the node is in trouble: a pressure true, or not ready. */
    public boolean abnormal() {
      return type.equals("Ready") ? !status.equals("True") : status.equals("True");
    }

    /** The condition as people say it: {@code NotReady} for a Ready condition that is not true. */
    public String name() {
      return type.equals("Ready") && !status.equals("True") ? "NotReady" : type;
    }
  }

  public NodeInfo {
    Objects.requireNonNull(name, "name");
    conditions = List.copyOf(conditions);
    Objects.requireNonNull(memoryCapacityBytes, "memoryCapacityBytes");
    Objects.requireNonNull(memoryAllocatableBytes, "memoryAllocatableBytes");
    labels = Map.copyOf(labels);
    Objects.requireNonNull(created, "created");
  }
}
