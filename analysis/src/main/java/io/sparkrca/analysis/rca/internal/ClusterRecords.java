package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.evidence.ClusterDetails;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.format.Formats;
import io.sparkrca.analysis.AnalysisContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The cluster manager's records about one executor (or the driver, {@code "driver"}), sorted into
 * what decides a loss: its container's termination (OOMKilled, an exit code, a signal, when), a
 * disruption of its pod (eviction, preemption, a lost node), and its node's conditions and events
 * around the time it was lost.
 */
final class ClusterRecords {
  /** Pod reasons and events that mean the pod was taken away from under the executor. */
  static final Set<String> DISRUPTIONS = Set.of(ClusterEventReasons.EVICTED, ClusterEventReasons.PREEMPTING,
      ClusterEventReasons.PREEMPTED, "PreemptionByScheduler", "TerminationByKubelet", "EvictionByEvictionAPI",
      "DeletionByTaintManager", "NodeLost", ClusterEventReasons.NODE_NOT_READY, ClusterEventReasons.SHUTDOWN,
      "NodeShutdown", "Terminated", "TaintManagerEviction");
  /** How far around a loss a node's events are taken to concern it. */
  private static final long NODE_WINDOW_MS = 10 * 60_000L;

  private final List<ClusterEvent> mine;
  private final List<ClusterEvent> all;

  private ClusterRecords(List<ClusterEvent> all, String executorId) {
    this.all = all;
    this.mine = all.stream().filter(e -> e.executorId().map(executorId::equals).orElse(false)).toList();
  }

  static ClusterRecords of(AnalysisContext ctx, String executorId) {
    return new ClusterRecords(ctx.evidence().clusterEvents(), executorId);
  }

  /** Whether the manager said anything about this executor. */
  boolean any() {
    return !mine.isEmpty();
  }

  /**
   * The end of its container that explains a loss at {@code lossMs} (epoch ms, -1 unknown): a
   * failed termination of Spark's container, the one that ended last before (or just after) the loss.
   */
  Optional<ClusterEvent> termination(long lossMs) {
    return mine.stream()
        .filter(e -> e.type() == ClusterDetails.Type.TERMINATION && e.exitCode().map(c -> c != 0).orElse(true))
        .filter(e -> !"false".equals(e.details().attributes().get("sparkContainer")))
        .filter(e -> lossMs < 0 || end(e).map(t -> t.toEpochMilli() <= lossMs + 60_000).orElse(true))
        .max(Comparator.comparing(e -> end(e).orElse(Instant.MIN)));
  }

  /** A record that the container was killed for its memory (OOMKilled, "exceeding memory limits"). */
  Optional<ClusterEvent> memoryKill(long lossMs) {
    Optional<ClusterEvent> t = termination(lossMs).filter(ClusterRecords::isMemoryKill);
    return t.isPresent() ? t : mine.stream().filter(ClusterRecords::isMemoryKill).findFirst();
  }

  static boolean isMemoryKill(ClusterEvent e) {
    return e.reason().contains("OOMKill") || ExitCodes.memoryKill(e.reason())
        || (e.type() != ClusterDetails.Type.EVENT && ExitCodes.memoryKill(e.message()));
  }

  /** A record that the pod was evicted, preempted, or lost with its node. */
  Optional<ClusterEvent> disruption() {
    return mine.stream().filter(e -> (e.type() == ClusterDetails.Type.POD_STATUS || e.type() == ClusterDetails.Type.EVENT
            || e.type() == ClusterDetails.Type.OTHER) && DISRUPTIONS.contains(e.reason()))
        .min(Comparator.comparing((ClusterEvent e) -> e.type() == ClusterDetails.Type.POD_STATUS ? 0 : 1));
  }

  /** The node it ran on, as the manager recorded it. */
  Optional<String> node() {
    return mine.stream().map(e -> e.details().node()).flatMap(Optional::stream).findFirst();
  }

  /** The pod it ran in. */
  Optional<String> pod() {
    return mine.stream().map(e -> e.details().pod()).flatMap(Optional::stream).findFirst();
  }

  /**
   * Its node's records that bear on a loss at {@code lossMs}: conditions in force then (or whose
   * start is unknown) and node events within ten minutes of it.
   */
  List<ClusterEvent> nodeRecords(long lossMs) {
    Optional<String> node = node();
    if (node.isEmpty()) {
      return List.of();
    }
    List<ClusterEvent> out = new ArrayList<>();
    for (ClusterEvent e : all) {
      if (e.executorId().isPresent() || !e.details().node().map(node.get()::equals).orElse(false)) {
        continue;
      }
      long t = e.time().map(Instant::toEpochMilli).orElse(-1L);
      boolean relevant = e.type() == ClusterDetails.Type.NODE_CONDITION
          ? t < 0 || lossMs < 0 || t <= lossMs + 60_000
          : t < 0 || lossMs < 0 || Math.abs(t - lossMs) <= NODE_WINDOW_MS;
      if (relevant) {
        out.add(e);
      }
    }
    return out;
  }

  /** When the record's process ended, or else when it happened. */
  static Optional<Instant> end(ClusterEvent e) {
    return e.details().finishedAt().or(e::time);
  }

  /** The record as evidence. */
  static EvidenceRef ref(ClusterEvent e) {
    return new EvidenceRef(EvidenceRef.Kind.CLUSTER, e.source(), 0, e.reason() + ": " + e.message()
        + (e.exitCode().isPresent() && !e.message().contains("exit code") ? " (exit " + e.exitCode().get() + ")" : ""));
  }

  /** {@code pod X on node N (container C, limit 896 MiB)}, the parts known. */
  static String where(ClusterEvent e) {
    ClusterDetails d = e.details();
    StringBuilder sb = new StringBuilder(d.pod().map(p -> "pod " + p).orElse(e.object()));
    d.node().ifPresent(n -> sb.append(" on node ").append(n));
    List<String> more = new ArrayList<>();
    d.container().ifPresent(c -> more.add("container " + c));
    d.memoryLimitBytes().ifPresent(l -> more.add("memory limit " + Formats.humanBytes(l)));
    if (!more.isEmpty()) {
      sb.append(" (").append(String.join(", ", more)).append(")");
    }
    return sb.toString();
  }
}
