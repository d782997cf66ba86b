package io.sparkrca.kubernetes.internal;

import io.sparkrca.core.evidence.ClusterDetails;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.format.Formats;
import io.sparkrca.kubernetes.ContainerInfo;
import io.sparkrca.kubernetes.EventInfo;
import io.sparkrca.kubernetes.NodeInfo;
import io.sparkrca.kubernetes.PodInfo;
import io.sparkrca.kubernetes.SparkApplicationInfo;
import io.sparkrca.kubernetes.Termination;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns what the API server holds into {@link ClusterEvent}s for the analysis: each container's
 * end (current and previous run), a pod's own reason (eviction, preemption), a node's abnormal
 * conditions and its disappearance, the notable events, and the SparkApplication's state.
 */
public final class Records {
  /** Normal events worth a record; every warning is one. */
  private static final Set<String> NOTABLE = Set.of(ClusterEventReasons.KILLING, ClusterEventReasons.PREEMPTING,
      ClusterEventReasons.PREEMPTED, ClusterEventReasons.EVICTED, ClusterEventReasons.NODE_NOT_READY,
      "EvictionThresholdMet", "NodeHasInsufficientMemory", "NodeHasDiskPressure", "NodeHasInsufficientPID",
      "Rebooted", "OOMKilling", "SystemOOM", "NodeNotSchedulable", "RemovingNode", "DeletingNode",
      "TerminatingEvictedPod", "ScaleDown", ClusterEventReasons.SHUTDOWN, "SparkApplicationFailed", "SparkDriverFailed",
      "SparkExecutorFailed");
  private static final Set<String> WAITING = Set.of("CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull",
      "CreateContainerConfigError", "CreateContainerError", "InvalidImageName", "RunContainerError");

  private Records() {}

  /** Every record, pods first, then nodes, events and the SparkApplication. */
  public static List<ClusterEvent> of(String namespace, List<PodInfo> pods, List<NodeInfo> nodes,
      Set<String> missingNodes, List<EventInfo> events, List<SparkApplicationInfo> apps, Map<String, String> podNames) {
    List<ClusterEvent> out = new ArrayList<>();
    for (PodInfo p : pods) {
      out.addAll(pod(namespace, p));
    }
    for (NodeInfo n : nodes) {
      for (NodeInfo.Condition c : n.conditions()) {
        if (c.abnormal()) {
          out.add(new ClusterEvent("kubernetes: nodes/" + n.name(), c.since(), "node " + n.name(), Optional.empty(),
              c.name(), "node " + n.name() + " is " + c.name() + " (" + c.type() + "=" + c.status() + ")"
                  + c.since().map(t -> " since " + t).orElse("") + (c.reason().isEmpty() ? "" : ": " + c.reason())
                  + (c.message().isEmpty() ? "" : ", " + c.message()),
              Optional.empty(), ClusterDetails.builder(ClusterDetails.Type.NODE_CONDITION).node(n.name())
                  .attribute("condition", c.type()).attribute("status", c.status()).attribute("reason", c.reason())
                  .build()));
        }
      }
    }
    for (String n : missingNodes) {
      out.add(new ClusterEvent("kubernetes: nodes/" + n, Optional.empty(), "node " + n, Optional.empty(), "NodeNotFound",
          "node " + n + " no longer exists: it was removed after the application's pods ran on it (scaled down, "
              + "replaced or reclaimed)", Optional.empty(),
          ClusterDetails.builder(ClusterDetails.Type.NODE_CONDITION).node(n).build()));
    }
    Map<String, String> nodeOfPod = new java.util.HashMap<>();
    pods.forEach(p -> p.node().ifPresent(n -> nodeOfPod.put(p.name(), n)));
    for (EventInfo e : events) {
      if (!e.warning() && !NOTABLE.contains(e.reason())) {
        continue;
      }
      Optional<String> exec = e.involvedKind().equals("Pod")
          ? Optional.ofNullable(podNames.get(e.involvedName())).filter(x -> !x.isEmpty()) : Optional.empty();
      ClusterDetails.Builder d = ClusterDetails.builder(ClusterDetails.Type.EVENT)
          .attribute("type", e.type()).attribute("count", Integer.toString(e.count())).attribute("source", e.source());
      if (e.involvedKind().equals("Pod")) {
        d.pod(e.involvedName());
        Optional.ofNullable(nodeOfPod.get(e.involvedName())).ifPresent(d::node);
      } else if (e.involvedKind().equals("Node")) {
        d.node(e.involvedName());
      }
      e.first().ifPresent(d::startedAt);
      out.add(new ClusterEvent("kubernetes: namespaces/" + e.namespace() + "/events/" + e.name(), e.time(),
          e.involvedKind().toLowerCase(java.util.Locale.ROOT) + " " + e.involvedName(), exec, e.reason(),
          e.message() + (e.count() > 1 ? " (" + e.count() + " times)" : ""), Optional.empty(), d.build()));
    }
    for (SparkApplicationInfo a : apps) {
      List<String> failed = a.executorStates().entrySet().stream().filter(x -> x.getValue().equals("FAILED"))
          .map(Map.Entry::getKey).toList();
      out.add(new ClusterEvent("kubernetes: namespaces/" + a.namespace() + "/sparkapplications/" + a.name(),
          a.terminationTime(), "sparkapplication " + a.name(), Optional.empty(), a.state(),
          "SparkApplication " + a.name() + " is " + a.state() + (a.errorMessage().isEmpty() ? "" : ": " + a.errorMessage())
              + (failed.isEmpty() ? "" : "; failed executor pods: " + String.join(", ", failed)),
          Optional.empty(), ClusterDetails.builder(ClusterDetails.Type.APPLICATION)
              .attribute("sparkApplicationId", a.sparkApplicationId().orElse(""))
              .attribute("driverPod", a.driverPod().orElse(""))
              .attribute("submissionAttempts", Integer.toString(a.submissionAttempts())).build()));
    }
    return out;
  }

  /** A pod's records: each container's end, then the pod's own reason or disruption, then a waiting container. */
  static List<ClusterEvent> pod(String namespace, PodInfo p) {
    List<ClusterEvent> out = new ArrayList<>();
    String source = "kubernetes: namespaces/" + namespace + "/pods/" + p.name();
    Optional<ContainerInfo> spark = p.sparkContainer();
    for (ContainerInfo c : p.containers()) {
      boolean sparkContainer = spark.map(s -> s.name().equals(c.name())).orElse(false);
      c.terminated().ifPresent(t -> out.add(termination(source, p, c, t, false, sparkContainer)));
      c.lastTerminated().ifPresent(t -> out.add(termination(source, p, c, t, true, sparkContainer)));
    }
    String reason = p.reason().isEmpty() && !p.disruption().isEmpty()
        ? p.disruption().split(":", 2)[0].strip() : p.reason();
    if (!reason.isEmpty()) {
      Optional<Instant> when = p.disruptedAt().or(() -> spark.flatMap(ContainerInfo::terminated)
          .flatMap(Termination::finishedAt));
      String message = !p.message().isEmpty() ? p.message() : p.disruption();
      out.add(new ClusterEvent(source, when, "pod " + p.name(), p.executorId(), reason,
          "pod " + p.name() + p.node().map(n -> " on node " + n).orElse("") + " is " + p.phase() + " (" + reason + ")"
              + (message.isEmpty() ? "" : ": " + message), Optional.empty(), base(ClusterDetails.Type.POD_STATUS, p, spark)
              .attribute("disruption", p.disruption()).build()));
    }
    for (ContainerInfo c : p.containers()) {
      if (c.state().equals("waiting") && WAITING.contains(c.stateReason())) {
        out.add(new ClusterEvent(source, Optional.empty(), "pod " + p.name(), p.executorId(), c.stateReason(),
            "container " + c.name() + " of pod " + p.name() + " is waiting: " + c.stateReason()
                + (c.restartCount() > 0 ? " after " + c.restartCount() + " restart(s)" : ""),
            Optional.empty(), base(ClusterDetails.Type.POD_STATUS, p, Optional.of(c)).build()));
      }
    }
    return out;
  }

  private static ClusterEvent termination(String source, PodInfo p, ContainerInfo c, Termination t, boolean previous,
      boolean sparkContainer) {
    StringBuilder m = new StringBuilder("container ").append(c.name()).append(" of pod ").append(p.name())
        .append(p.node().map(n -> " on node " + n).orElse("")).append(previous ? " (its previous run, before restart "
            + c.restartCount() + ")" : "").append(" terminated: ").append(t.reason().isEmpty() ? "no reason" : t.reason())
        .append(", exit code ").append(t.exitCode());
    t.signal().ifPresent(s -> m.append(" (signal ").append(s).append(")"));
    if (t.startedAt().isPresent() || t.finishedAt().isPresent()) {
      m.append(", ran ").append(t.startedAt().map(Instant::toString).orElse("?")).append(" to ")
          .append(t.finishedAt().map(Instant::toString).orElse("?"));
    }
    c.memoryLimitBytes().ifPresent(l -> m.append(", memory limit ").append(Formats.humanBytes(l)));
    if (!t.message().isEmpty()) {
      m.append(": ").append(t.message());
    }
    ClusterDetails.Builder d = base(ClusterDetails.Type.TERMINATION, p, Optional.of(c))
        .attribute("previous", Boolean.toString(previous)).attribute("sparkContainer", Boolean.toString(sparkContainer));
    t.startedAt().ifPresent(d::startedAt);
    t.finishedAt().ifPresent(d::finishedAt);
    t.signal().ifPresent(d::signal);
    return new ClusterEvent(source, t.finishedAt(), "pod " + p.name(), p.executorId(), t.reason(), m.toString(),
        Optional.of(t.exitCode()), d.build());
  }

  private static ClusterDetails.Builder base(ClusterDetails.Type type, PodInfo p, Optional<ContainerInfo> c) {
    ClusterDetails.Builder d = ClusterDetails.builder(type).pod(p.name());
    p.node().ifPresent(d::node);
    c.ifPresent(x -> {
      d.container(x.name()).restartCount(x.restartCount());
      x.memoryRequestBytes().ifPresent(d::memoryRequestBytes);
      x.memoryLimitBytes().ifPresent(d::memoryLimitBytes);
      d.attribute("image", x.image()).attribute("cpuLimit", x.cpuLimit());
    });
    return d.attribute("phase", p.phase()).attribute("qosClass", p.qosClass()).attribute("role", p.role());
  }
}
