package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.tune;

import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A flaky host (the failure playbook's "Flaky infrastructure"): the application's failures
 * (lost executors, the tasks lost with them, fetch failures of the shuffle output they served, task
 * errors) grouped by the node they point at, and a finding when they concentrate on one node
 * ({@link NodeFailures} holds the grouping and the thresholds). Each node's counts are evidence of
 * their own, so that the Markdown, JSON and HTML reports show the grouping. The node is the root
 * cause of the losses on it when several of its executors failed or when its own records (an
 * abnormal condition, a warning event) agree; otherwise it stands next to the loss as a hypothesis
 * with what would confirm it.
 */
public final class FlakyNodeAnalyzer implements Analyzer {
  /** The most nodes the summary lists (the evidence lists them all). */
  private static final int MAX_NODES_LISTED = 6;
  /** The most nodes cited one by one as evidence; the rest are summed in one entry. */
  private static final int MAX_NODES_CITED = 50;
  @Override
  public String name() {
    return "flaky-node";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    NodeFailures.Judgement j = NodeFailures.of(ctx);
    if (j.flaky().isEmpty()) {
      return List.of();
    }
    NodeFailures.Node n = j.flaky().get();
    String kind = j.kind();
    String what = kind + " " + n.name();
    List<NodeFailures.Node> others = j.nodes().stream().filter(o -> o != n).toList();
    int otherExecutors = others.stream().mapToInt(o -> o.executors().size()).sum();
    int otherFailures = others.stream().mapToInt(NodeFailures.Node::all).sum();
    double share = j.share(n);

    List<EvidenceRef> evidence = new ArrayList<>();
    // The grouping itself, one entry per node, worst first: what the report renders.
    for (NodeFailures.Node o : j.nodes().subList(0, Math.min(MAX_NODES_CITED, j.nodes().size()))) {
      evidence.add(nodeRef(ctx, kind, o, j));
    }
    if (j.nodes().size() > MAX_NODES_CITED) {
      List<NodeFailures.Node> rest = j.nodes().subList(MAX_NODES_CITED, j.nodes().size());
      evidence.add(ctx.factRef("", 0, "and " + rest.size() + " more " + kind + "s with "
          + Formats.count(rest.stream().mapToInt(NodeFailures.Node::all).sum(), "failure") + " and "
          + Formats.count(rest.stream().mapToInt(o -> o.executors().size()).sum(), "executor") + " (left out)"));
    }
    if (j.tasksCut()) {
      evidence.add(ctx.factRef("", 0, "only the first " + NodeFailures.MAX_TASKS + " failed task attempts were grouped"));
    }
    if (j.unattributed() > 0) {
      evidence.add(ctx.factRef("", 0, Formats.count(j.unattributed(), "failure") + " could not be placed on a " + kind));
    }
    for (String exec : n.failedExecutors()) {
      ctx.facts().executorRemovals().stream().filter(r -> r.executorId().equals(exec)).findFirst()
          .ifPresent(r -> evidence.add(ctx.factRef(r.source(), r.line(), "executor " + exec + " (on " + what
              + ") removed: " + r.reason())));
    }
    List<ClusterEvent> records = NodeFailures.records(ctx, n);
    records.forEach(e -> evidence.add(ClusterRecords.ref(e)));
    boolean corroborated = !records.isEmpty();
    boolean root = corroborated || n.failedExecutors().size() >= NodeFailures.ROOT_LOST_EXECUTORS;
    boolean fatal = fatalLoss(ctx, n);

    List<Metric> metrics = new ArrayList<>(List.of(
        new Metric("failuresOnNode", n.all(), "count"),
        new Metric("failuresTotal", j.total(), "count"),
        new Metric("worstNodeShare", share, "share"),
        new Metric("nodes", j.nodes().size(), "count"),
        new Metric("executorsOnNode", n.executors().size(), "count"),
        new Metric("lostExecutorsOnNode", n.lostExecutors(), "count"),
        new Metric("failuresElsewhere", otherFailures, "count"),
        new Metric("executorsElsewhere", otherExecutors, "count")));
    Culprit culprit = Culprit.stages(n.stages()).withExecutors(n.failedExecutors()).withHost(n.name());
    // The grouping in the summary too: the one line every format renders for every finding.
    List<String> lines = j.nodes().stream().limit(MAX_NODES_LISTED).map(o -> line(kind, o, j, false)).toList();
    String counts = what + " holds " + n.all() + " of the application's " + j.total() + " failures ("
        + Support.percent(share) + "); by " + kind + ": " + String.join("; ", lines)
        + (j.nodes().size() > MAX_NODES_LISTED ? "; and " + (j.nodes().size() - MAX_NODES_LISTED) + " more "
            + kind + "s" : "");
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.FLAKY_INFRASTRUCTURE,
            fatal && root ? Severity.CRITICAL : Severity.HIGH,
            "Failures concentrate on " + what, counts, culprit, metrics, 0, 0, evidence, name()))
        .confidence(corroborated ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
        .explanation("Grouped by the " + kind + " they point at, the application's failures concentrate on " + what
            + ": " + n.describe() + ", " + Support.percent(share) + " of all its failures, while the other "
            + kind + (others.size() == 1 ? "" : "s") + " ran " + otherExecutors + " executor"
            + (otherExecutors == 1 ? "" : "s") + " with " + otherFailures + ". The same application failing on one "
            + kind + " and not on the others points at the " + kind + " (its hardware, kernel, disk, network or "
            + "kubelet), not at the job's code or data."
            + (corroborated ? " The " + kind + "'s own records agree: " + records.get(0).reason() + ": "
                + records.get(0).message() + "." : "")
            + (root ? "" : " With " + n.failedExecutors().size() + " executor" + (n.failedExecutors().size() == 1 ? "" : "s")
                + " lost there and no record of the " + kind + "'s own, the loss stays the root cause and the " + kind
                + " a suspect."))
        .time(root ? n.firstMs() : n.lastMs())
        .explainsFailure(root && fatal);
    if (root) {
      b.explains(RootCauseKind.EXECUTOR_LOST, RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE,
          RootCauseKind.FLAKY_INFRASTRUCTURE);
    }
    if (!corroborated) {
      b.toConfirm(kind.equals("node")
          ? "node " + n.name() + "'s conditions and events while the failures happened (kubectl describe node " + n.name()
              + ", and the node's events in namespace default), and its kubelet and kernel logs (disk, network, "
              + "hardware errors)"
          : "host " + n.name() + "'s system and cluster-manager logs while the failures happened (disk, network, "
              + "hardware errors; the node manager's view of it)");
    }
    b.recommend(Support.investigate("Take " + what + " out of service and look at its health (" + (kind.equals("node")
            ? "kubectl cordon " + n.name() + " and drain it; its conditions, kubelet and kernel logs"
            : "its disks, network and system logs") + ") before retuning the job.",
        Support.percent(share) + " of the failures point at this " + kind + "; the others ran the same job without them."));
    b.recommend(tune("Let Spark stop scheduling on a host that keeps failing tasks and executors, so that one bad "
            + kind + " cannot fail the job.",
        "spark.excludeOnFailure excludes an executor after 2 failed tasks and a node after 2 failed executors.",
        List.of(prop(ctx.conf(), "spark.excludeOnFailure.enabled", "true"))));
    b.want(EvidenceKind.CLUSTER_RECORDS, "the " + kind + "'s conditions and events confirm or clear it");
    return List.of(b.build());
  }

  /**
   * {@code node n: 3 failures (75%): ...; 1 executor ran there (1)}, and with {@code full} the
   * stages and the time span.
   */
  private static String line(String kind, NodeFailures.Node o, NodeFailures.Judgement j, boolean full) {
    return kind + " " + o.name() + ": " + o.all() + " failure" + (o.all() == 1 ? "" : "s") + " ("
        + Support.percent(j.share(o)) + ")" + (o.all() == 0 ? "" : ": " + o.describe()) + "; "
        + o.executors().size() + " executor" + (o.executors().size() == 1 ? "" : "s") + " ran there"
        + (o.executors().isEmpty() ? "" : " (" + String.join(", ", o.executors().subList(0, Math.min(20, o.executors().size())))
            + (o.executors().size() > 20 ? ", ..." : "") + ")")
        + (!full || o.stages().isEmpty() ? "" : "; stage" + (o.stages().size() == 1 ? " " : "s ")
            + String.join(", ", o.stages().stream().limit(20).map(String::valueOf).toList()))
        + (!full || o.firstMs() <= 0 ? "" : "; from " + Instant.ofEpochMilli(o.firstMs()) + " to "
            + Instant.ofEpochMilli(o.lastMs()));
  }

  /** One node's entry of the grouping as evidence: the node's record for Kubernetes nodes, the event log's for hosts. */
  private static EvidenceRef nodeRef(AnalysisContext ctx, String kind, NodeFailures.Node o, NodeFailures.Judgement j) {
    String detail = line(kind, o, j, true);
    return kind.equals("node") ? new EvidenceRef(EvidenceRef.Kind.CLUSTER, "kubernetes: nodes/" + o.name(), 0, detail)
        : ctx.factRef("", 0, detail);
  }

  /** Whether a job aborted on a stage whose failures point at the node. */
  private static boolean fatalLoss(AnalysisContext ctx, NodeFailures.Node n) {
    for (StageFailure f : ctx.facts().stageFailures()) {
      if (n.stages().contains(f.stageId()) && f.reason().contains("aborted")) {
        return true;
      }
    }
    return false;
  }
}
