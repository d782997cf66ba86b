package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.analysis.AnalysisContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An application's failures grouped by the node they point at (the failure playbook: "group the
 * failed task samples by host and executorId; failures clustered on one host point at
 * infrastructure"; and its heuristics: "one host means infrastructure, one partition means data"),
 * and the judgement whether one node is a flaky host. A failure points at the node of the executor
 * it concerns: a lost executor and the tasks lost with it at that executor's node, a fetch failure
 * at the node that served (and lost) the shuffle blocks, a task's exception at the node it ran on.
 * The node is the Kubernetes node from the pod records when the cluster's records are there, else
 * the executor's host from the event log. Failures that are the application's own (an
 * OutOfMemoryError, a container killed for its memory, a code or data error the text names) are
 * counted apart: they say nothing against the node.
 *
 * <p>The thresholds are here, in one place; see {@link #MIN_FAILURES}, {@link #MIN_SHARE},
 * {@link #MIN_NODES} and {@link #ROOT_LOST_EXECUTORS}.
 */
final class NodeFailures {
  /**
   * The fewest infrastructure failures on one node that can make it suspect: Spark's own
   * {@code spark.excludeOnFailure} defaults act at 2 ({@code application.maxFailedTasksPerExecutor}
   * and {@code application.maxFailedExecutorsPerNode} are 2), so at 2 Spark itself would stop
   * scheduling there.
   */
  static final int MIN_FAILURES = 2;
  /**
   * The share of all the application's failures the worst node must hold: the failure playbook's
   * "clustered on one host" and "one host", with room for one stray failure in four elsewhere.
   */
  static final double MIN_SHARE = 0.75;
  /** Nodes that must have run executors: on one node, the node and the application cannot be told apart. */
  static final int MIN_NODES = 2;
  /**
   * Failed executors on the node that make it the root cause rather than a finding next to the
   * loss: Spark's {@code spark.excludeOnFailure.application.maxFailedExecutorsPerNode} default.
   * The node's own records (an abnormal condition, a warning event) do so too.
   */
  static final int ROOT_LOST_EXECUTORS = 2;
  /** The most failed task attempts read, whatever the application's size (bounded memory and time). */
  static final int MAX_TASKS = 20_000;

  private static final Pattern BLOCK_MANAGER = Pattern.compile("BlockManagerId\\(([^,\\s]+),\\s*([^,\\s)]+)");

  /** One node's failures. */
  record Node(String name, List<String> executors, List<String> failedExecutors, List<String> pods, int lostExecutors,
      int lostTasks, int fetchFailures, int taskErrors, int ownFailures, List<Integer> stages, long firstMs, long lastMs) {
    Node {
      executors = List.copyOf(executors);
      failedExecutors = List.copyOf(failedExecutors);
      pods = List.copyOf(pods);
      stages = List.copyOf(stages);
    }

    /** The failures that may be the node's. */
    int failures() {
      return lostExecutors + lostTasks + fetchFailures + taskErrors;
    }

    /** Every failure that points here, the application's own included. */
    int all() {
      return failures() + ownFailures;
    }

    /** {@code 1 lost executor (1, pod p), 2 fetch failures of its shuffle output, ...}. */
    String describe() {
      List<String> parts = new ArrayList<>();
      if (lostExecutors > 0) {
        parts.add(lostExecutors + " lost executor" + (lostExecutors == 1 ? "" : "s") + " ("
            + String.join(", ", failedExecutors) + (pods.isEmpty() ? "" : "; pod" + (pods.size() == 1 ? " " : "s ")
            + String.join(", ", pods)) + ")");
      }
      if (lostTasks > 0) {
        parts.add(lostTasks + " task attempt" + (lostTasks == 1 ? "" : "s") + " lost with "
            + (failedExecutors.size() == 1 ? "it" : failedExecutors.isEmpty() ? "their executors" : "them"));
      }
      if (fetchFailures > 0) {
        parts.add(fetchFailures + " fetch failure" + (fetchFailures == 1 ? "" : "s") + " of shuffle output it served");
      }
      if (taskErrors > 0) {
        parts.add(taskErrors + " task error" + (taskErrors == 1 ? "" : "s") + " there");
      }
      if (ownFailures > 0) {
        parts.add(ownFailures + " of the application's own (out of memory, code or data errors)");
      }
      return parts.isEmpty() ? "no failures" : String.join(", ", parts);
    }
  }

  /**
   * The grouping and its judgement.
   *
   * @param nodes every node that ran an executor or that a failure points at, worst first
   * @param kind {@code node} (Kubernetes nodes from the pod records) or {@code host} (the event log's hosts)
   * @param flaky the flaky node, when the failures concentrate on one
   * @param why why there is none, or why there is one
   * @param total every failure counted, the application's own and unattributed ones included
   * @param unattributed failures whose node is not known
   * @param tasksCut whether the failed task attempts read were cut at {@link #MAX_TASKS}
   */
  record Judgement(List<Node> nodes, String kind, Optional<Node> flaky, String why, int total, int unattributed,
      boolean tasksCut) {
    /** The worst node's share of every failure. */
    double share(Node n) {
      return total == 0 ? 0 : n.all() / (double) total;
    }

    boolean isFlaky(String executorId) {
      return flaky.map(n -> n.failedExecutors().contains(executorId)).orElse(false);
    }
  }

  private final AnalysisContext ctx;
  private final Map<String, Acc> byNode = new LinkedHashMap<>();
  private final Map<String, String> nodeOfExecutor = new LinkedHashMap<>();
  private final Map<String, Boolean> ownLoss = new LinkedHashMap<>();
  private boolean fromCluster;
  private int total;
  private int unattributed;
  private boolean tasksCut;

  private NodeFailures(AnalysisContext ctx) {
    this.ctx = ctx;
  }

  /** Groups {@code ctx}'s failures by node and judges whether one node is a flaky host. */
  /** The grouping of this analysis, computed once (the executor-loss and flaky-node analyzers both read it). */
  static Judgement of(AnalysisContext ctx) {
    return ctx.derived(Judgement.class, c -> new NodeFailures(c).judge());
  }

  private Judgement judge() {
    for (ExecutorSummary e : ctx.executors()) {
      if (e.id().equals("driver")) {
        continue;
      }
      Optional<String> node = node(e.id());
      node.ifPresent(n -> acc(n).executors.add(e.id()));
    }
    long lastJobEnd = ctx.jobs().stream().mapToLong(j -> j.completionTime().map(java.time.Instant::toEpochMilli)
        .orElse(Long.MAX_VALUE)).max().orElse(Long.MAX_VALUE);
    for (ExecutorRemoval r : ctx.facts().executorRemovals()) {
      if (ExecutorLossAnalyzer.benign(r, lastJobEnd)) {
        continue;
      }
      boolean own = ownLoss(r);
      ownLoss.put(r.executorId(), own);
      Optional<String> node = node(r.executorId());
      total++;
      if (node.isEmpty()) {
        unattributed++;
        continue;
      }
      Acc a = acc(node.get());
      a.time(lossTime(r));
      if (own) {
        a.own++;
      } else {
        a.lostExecutors++;
        a.failedExecutors.add(r.executorId());
        ClusterRecords.of(ctx, r.executorId()).pod().ifPresent(a.pods::add);
      }
    }
    tasks();
    return verdict();
  }

  /** Failed task attempts, each attributed to the node it points at. */
  private void tasks() {
    if (ctx.app().isEmpty()) {
      return;
    }
    int read = 0;
    for (StageData s : ctx.stages()) {
      if (s.numFailedTasks() <= 0) {
        continue;
      }
      if (read >= MAX_TASKS) {
        tasksCut = true;
        break;
      }
      List<TaskData> failed = ctx.app().get().tasks(s.stageId(), s.attemptId(),
          TaskQuery.all().window(0, MAX_TASKS - read).withStatuses(Set.of(TaskStatus.FAILED)));
      read += failed.size();
      for (TaskData t : failed) {
        String error = t.errorMessage().orElse("");
        long at = t.launchTime().toEpochMilli() + t.duration().orElse(0L);
        total++;
        boolean fetch = error.startsWith("FetchFailed") || error.contains("FetchFailedException");
        // A fetch failure points at the executor that served the blocks, anything else at where it ran.
        Matcher m = BLOCK_MANAGER.matcher(error);
        boolean named = fetch && m.find();
        String pointsAt = named ? m.group(1) : t.executorId();
        String host = named ? m.group(2) : t.host();
        Optional<String> node = node(pointsAt).or(() -> Optional.of(host).filter(h -> !h.isBlank()));
        if (node.isEmpty() || fetch && !named) {
          unattributed++;
          continue;
        }
        Acc a = acc(node.get());
        a.time(at);
        a.stages.add(s.stageId());
        boolean lostWithOwnLoss = ownLoss.getOrDefault(pointsAt, false);
        if (fetch) {
          if (lostWithOwnLoss) {
            a.own++;
          } else {
            a.fetchFailures++;
          }
        } else if (error.startsWith("ExecutorLostFailure") || error.contains("ExecutorLostFailure")) {
          if (lostWithOwnLoss) {
            a.own++;
          } else {
            a.lostTasks++;
          }
        } else if (FailureText.classify(error, false).isPresent() || error.startsWith("TaskKilled")) {
          a.own++;
        } else {
          a.taskErrors++;
        }
      }
    }
  }

  private Judgement verdict() {
    List<Node> nodes = byNode.entrySet().stream().map(e -> e.getValue().node(e.getKey()))
        .sorted(Comparator.comparingInt(Node::failures).thenComparingInt(Node::all).reversed()
            .thenComparing(Node::name))
        .toList();
    String kind = fromCluster ? "node" : "host";
    long withExecutors = nodes.stream().filter(n -> !n.executors().isEmpty()).count();
    if (total == 0 || nodes.isEmpty()) {
      return new Judgement(nodes, kind, Optional.empty(), "no failures", total, unattributed, tasksCut);
    }
    Node worst = nodes.get(0);
    Judgement j = new Judgement(nodes, kind, Optional.empty(), "", total, unattributed, tasksCut);
    String why;
    if (withExecutors < MIN_NODES) {
      why = "the executors ran on " + withExecutors + " " + kind + (withExecutors == 1 ? "" : "s")
          + ": the " + kind + " and the application cannot be told apart";
    } else if (j.share(worst) < MIN_SHARE) {
      why = "the failures are spread: the worst " + kind + ", " + worst.name() + ", holds " + worst.all() + " of "
          + total + " (" + Support.percent(j.share(worst)) + ", under " + Support.percent(MIN_SHARE) + ")";
    } else if (worst.failures() <= worst.ownFailures()) {
      why = "the failures on " + worst.name() + " are mostly the application's own (" + worst.ownFailures()
          + " of " + worst.all() + ": out of memory, code or data errors)";
    } else if (worst.failures() < MIN_FAILURES) {
      why = worst.name() + " has " + Formats.count(worst.failures(), "failure") + ", under " + MIN_FAILURES;
    } else {
      return new Judgement(nodes, kind, Optional.of(worst), worst.name() + " holds " + worst.all() + " of " + total
          + " failures (" + Support.percent(j.share(worst)) + ")", total, unattributed, tasksCut);
    }
    return new Judgement(nodes, kind, Optional.empty(), why, total, unattributed, tasksCut);
  }

  /**
   * When a loss happened: the cluster's record of the container's end or the pod's disruption when
   * it came first (the kill at T, the event log's removal at T+d), else the event log's removal.
   */
  private long lossTime(ExecutorRemoval r) {
    ClusterRecords c = ClusterRecords.of(ctx, r.executorId());
    return c.disruption().or(() -> c.termination(r.time())).flatMap(ClusterRecords::end)
        .map(java.time.Instant::toEpochMilli).filter(t -> t > 0).map(t -> Math.min(t, r.time())).orElse(r.time());
  }

  /** Whether a loss is the application's own doing: its memory, not its node. */
  private boolean ownLoss(ExecutorRemoval r) {
    String exec = r.executorId();
    if (ExecutorLossAnalyzer.oomInTasks(ctx, exec) || ExitCodes.memoryKill(r.reason())) {
      return true;
    }
    OptionalInt code = ExitCodes.find(r.reason());
    // 52 and 3 are the JVM's own OutOfMemoryError; 137 alone may be the node (a kill -9, a lost node).
    if (code.isPresent() && (code.getAsInt() == 52 || code.getAsInt() == 3)) {
      return true;
    }
    return ExecutorLossAnalyzer.oomInLog(ctx.evidence().executorLogs(exec)).isPresent()
        || ClusterRecords.of(ctx, exec).memoryKill(r.time()).isPresent();
  }

  /** The node executor {@code id} ran on: the cluster's record, else its host in the event log. */
  private Optional<String> node(String id) {
    String known = nodeOfExecutor.get(id);
    if (known != null) {
      return known.isEmpty() ? Optional.empty() : Optional.of(known);
    }
    Optional<String> node = ClusterRecords.of(ctx, id).node();
    if (node.isPresent()) {
      fromCluster = true;
    } else {
      node = ctx.executors().stream().filter(e -> e.id().equals(id)).findFirst()
          .map(e -> Support.host(e.hostPort())).filter(h -> !h.isBlank());
    }
    nodeOfExecutor.put(id, node.orElse(""));
    return node;
  }

  private Acc acc(String node) {
    return byNode.computeIfAbsent(node, n -> new Acc());
  }

  /** The node's records that bear on its failures: its abnormal conditions and its events around its losses. */
  static List<ClusterEvent> records(AnalysisContext ctx, Node n) {
    Set<ClusterEvent> out = new LinkedHashSet<>();
    for (String exec : n.failedExecutors()) {
      ClusterRecords c = ClusterRecords.of(ctx, exec);
      long loss = ctx.facts().executorRemovals().stream().filter(r -> r.executorId().equals(exec))
          .mapToLong(ExecutorRemoval::time).findFirst().orElse(-1);
      // The node's own records only: a pod's eviction is already its loss's confirmed cause.
      out.addAll(c.nodeRecords(loss));
    }
    return new ArrayList<>(out);
  }

  private static final class Acc {
    final List<String> executors = new ArrayList<>();
    final Set<String> failedExecutors = new LinkedHashSet<>();
    final Set<String> pods = new LinkedHashSet<>();
    final TreeSet<Integer> stages = new TreeSet<>();
    int lostExecutors;
    int lostTasks;
    int fetchFailures;
    int taskErrors;
    int own;
    long first = Long.MAX_VALUE;
    long last = -1;

    void time(long t) {
      if (t > 0) {
        first = Math.min(first, t);
        last = Math.max(last, t);
      }
    }

    Node node(String name) {
      return new Node(name, executors, new ArrayList<>(failedExecutors), new ArrayList<>(pods), lostExecutors, lostTasks,
          fetchFailures, taskErrors, own, new ArrayList<>(stages), first == Long.MAX_VALUE ? -1 : first, last);
    }
  }
}
