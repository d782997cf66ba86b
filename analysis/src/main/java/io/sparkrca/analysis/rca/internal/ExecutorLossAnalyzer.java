package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.analysis.rca.internal.Support.fix;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.tune;

import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lost executors and their fallout (the OOM troubleshooter, analyze_spark_oom.py, and the failure
 * playbook): decodes the exit code (Spark's 50-56, the JVM's 3 for {@code
 * -XX:+ExitOnOutOfMemoryError}, 134, 137, 143), looks for the decisive record (the OutOfMemoryError
 * in the executor's own log, the container-kill message, the cluster manager's OOMKilled) and links
 * the fetch failures and stage re-runs that followed to the loss. An executor whose tasks'
 * OutOfMemoryError is in the event log is left to {@link TaskFailureAnalyzer}: its loss is fallout
 * there.
 */
public final class ExecutorLossAnalyzer implements Analyzer {
  private static final Pattern FETCH_SOURCE = Pattern.compile("BlockManagerId\\(([^,\\s]+),|executor\\(Id: ([^)\\s]+)\\)");

  @Override
  public String name() {
    return "executor-loss";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    List<TaskFailureGroup> fetches = ctx.facts().taskFailures().stream().filter(TaskFailureGroup::isFetchFailure).toList();
    List<TaskFailureGroup> lostTasks = ctx.facts().taskFailures().stream().filter(TaskFailureGroup::isExecutorLost).toList();
    long lastJobEnd = ctx.jobs().stream().mapToLong(j -> j.completionTime().map(java.time.Instant::toEpochMilli).orElse(Long.MAX_VALUE)).max().orElse(Long.MAX_VALUE);
    List<String> explainedFetchSources = new ArrayList<>();
    NodeFailures.Judgement nodes = NodeFailures.of(ctx);
    for (ExecutorRemoval r : ctx.facts().executorRemovals()) {
      if (benign(r, lastJobEnd) || oomInTasks(ctx, r.executorId())) {
        continue;
      }
      List<TaskFailureGroup> followingFetches = fetches.stream().filter(f -> fetchSource(f).map(r.executorId()::equals)
          .orElse(f.firstTime() >= r.time())).toList();
      if (!followingFetches.isEmpty()) {
        explainedFetchSources.add(r.executorId());
      }
      out.add(loss(ctx, r, lostTasks, followingFetches, nodes));
    }
    // Fetch failures without any recorded loss: shuffle files gone for another reason.
    List<TaskFailureGroup> unexplained = fetches.stream()
        .filter(f -> fetchSource(f).map(e -> !explainedFetchSources.contains(e)).orElse(explainedFetchSources.isEmpty()))
        .filter(f -> fetchSource(f).map(e -> !oomInTasks(ctx, e)).orElse(true))
        .toList();
    if (!unexplained.isEmpty() && out.isEmpty()) {
      out.add(unexplainedFetch(ctx, unexplained));
    }
    return out;
  }

  private Candidate loss(AnalysisContext ctx, ExecutorRemoval r, List<TaskFailureGroup> lostTasks,
      List<TaskFailureGroup> fetches, NodeFailures.Judgement nodes) {
    String exec = r.executorId();
    OptionalInt code = ExitCodes.find(r.reason());
    Optional<ExitCodes.Meaning> meaning = code.isPresent() ? ExitCodes.meaning(code.getAsInt()) : Optional.empty();
    List<EvidenceRef> evidence = new ArrayList<>();
    evidence.add(ctx.factRef(r.source(), r.line(), "executor " + exec + " removed: " + r.reason()));
    List<TaskFailureGroup> onThis = lostTasks.stream().filter(g -> g.executorIds().contains(exec)).toList();
    for (TaskFailureGroup g : onThis) {
      // One group may hold the tasks lost with several executors: its count is theirs together.
      evidence.add(ctx.factRef(g.source(), g.firstLine(), Formats.count(g.count(), "task") + (g.executorIds().size() > 1
          ? " lost with executors " + String.join(", ", g.executorIds()) : " lost with it") + ": " + g.description()));
    }
    // The decisive records: the executor's own log, the cluster manager, the reason's text.
    List<LogEvidence> logs = ctx.evidence().executorLogs(exec);
    Optional<LogExcerpt> oomInLog = oomInLog(logs);
    ClusterRecords cluster = ClusterRecords.of(ctx, exec);
    Optional<ClusterEvent> termination = cluster.termination(r.time());
    Optional<ClusterEvent> kill = cluster.memoryKill(r.time());
    Optional<ClusterEvent> disruption = cluster.disruption();
    List<ClusterEvent> nodeRecords = cluster.nodeRecords(r.time());
    Optional<LogExcerpt> killInLog = ctx.evidence().logs().stream().flatMap(l -> l.excerpts(LogSignatures.CONTAINER_MEMORY_KILL).stream())
        .filter(e -> mentionsExecutor(e.block(), exec)).findFirst();
    oomInLog.ifPresent(e -> evidence.add(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block())));
    ctx.evidence().driverLogs().stream().flatMap(l -> l.excerpts(LogSignatures.EXECUTOR_LOST).stream())
        .filter(e -> mentionsExecutor(e.text(), exec)).findFirst()
        .ifPresent(e -> evidence.add(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.text())));
    String silentEnd = "";
    if (oomInLog.isEmpty() && !logs.isEmpty() && !logs.get(0).lastLines().isEmpty()) {
      List<String> last = logs.get(0).lastLines();
      String tail = String.join("\n", last.subList(Math.max(0, last.size() - 3), last.size()));
      evidence.add(new EvidenceRef(EvidenceRef.Kind.LOG, logs.get(0).uri(), 0, "the log ends without an error:\n" + tail));
      silentEnd = " Executor " + exec + "'s own log ends with no error: the process was stopped from outside, not by "
          + "an exception of its own.";
    }
    // The cluster's decisive record first: it is the earliest link of the chain (the kill at T, the
    // event log's removal at T+d).
    Optional<ClusterEvent> decisive = kill.or(() -> disruption).or(() -> termination);
    decisive.ifPresent(e -> evidence.add(0, ClusterRecords.ref(e)));
    termination.filter(t -> decisive.map(d -> d != t).orElse(false)).ifPresent(e -> evidence.add(ClusterRecords.ref(e)));
    nodeRecords.forEach(e -> evidence.add(ClusterRecords.ref(e)));
    long t0 = decisive.flatMap(ClusterRecords::end).map(java.time.Instant::toEpochMilli).filter(t -> t > 0)
        .map(t -> Math.min(t, r.time())).orElse(r.time());
    String killedAt = decisive.map(e -> ClusterRecords.where(e) + ": " + e.reason()
        + e.exitCode().map(c -> " (exit " + c + ")").orElse("") + ClusterRecords.end(e).map(t -> " at " + t).orElse("")
        + (t0 < r.time() ? "; the event log records the loss " + Formats.humanMillis(r.time() - t0) + " later" : "")).orElse("");
    String nodeStory = nodeStory(nodeRecords);
    killInLog.ifPresent(e -> evidence.add(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block())));

    TreeSet<Integer> stages = new TreeSet<>();
    onThis.forEach(g -> stages.addAll(g.stageIds()));
    fetches.forEach(f -> stages.addAll(f.stageIds()));
    // Map stages re-run because their output was lost with the executor.
    for (StageData s : ctx.stages()) {
      if (s.attemptId() > 0 && s.submissionTime().map(t -> t.toEpochMilli() >= r.time()).orElse(false)
          && ctx.stages().stream().noneMatch(x -> x.stageId() == s.stageId() && x.attemptId() == 0
              && x.failureReason().isPresent())) {
        stages.add(s.stageId());
      }
    }
    int partition = fetches.isEmpty() ? onThis.stream().findFirst().map(TaskFailureGroup::partitionIndex).orElse(-1)
        : fetches.get(0).partitionIndex();
    // The culprit stages are those that had tasks running on the executor when it was lost (or, when none was
    // lost with it, those whose tasks then failed to fetch its output); map stages re-run are fallout, in the cost.
    TreeSet<Integer> running = new TreeSet<>();
    (onThis.isEmpty() ? fetches : onThis).forEach(g -> running.addAll(g.stageIds()));
    Culprit culprit = Culprit.stages(new ArrayList<>(running.isEmpty() ? stages : running)).withExecutors(List.of(exec));
    if (partition >= 0) {
      culprit = culprit.withPartition(partition);
    }
    boolean fatal = fatal(ctx, onThis, fetches);
    long cost = fatal ? 0 : lostTime(ctx, stages, r.time());
    List<Metric> metrics = new ArrayList<>();
    code.ifPresent(c -> metrics.add(new Metric("exitCode", c, "count")));
    metrics.add(new Metric("fetchFailedTasks", fetches.stream().mapToLong(TaskFailureGroup::count).sum(), "count"));
    metrics.add(new Metric("lostTasks", onThis.stream().mapToLong(TaskFailureGroup::count).sum(), "count"));
    ContainerMemory memory = ContainerMemory.of(ctx, exec, termination.or(() -> kill));
    if (cluster.any()) {
      metrics.addAll(memory.metrics());
    }

    String what = "Executor " + exec + " was lost (" + r.reason() + ")";
    String means = meaning.map(m -> ": exit code " + m.code() + " means " + m.meaning() + ".").orElse(".");
    String fallout = fetches.isEmpty() ? "" : " Its shuffle output went with it, so "
        + Formats.count(fetches.stream().mapToLong(TaskFailureGroup::count).sum(), "reduce task") + " of "
        + Support.stages(fetches.stream().flatMap(f -> f.stageIds().stream()).distinct().toList())
        + " hit fetch failures and Spark re-ran the map stage: the fetch failures are fallout, not the cause.";
    Candidate.Builder b;
    if (oomInLog.isPresent()) {
      RootCauseKind k = FailureText.classify(oomInLog.get().block(), false).orElse(RootCauseKind.EXECUTOR_OOM_HEAP);
      b = Candidate.builder(finding(k, fatal ? Severity.CRITICAL : Severity.HIGH, k.title() + " on executor " + exec,
              what + "; its log shows " + firstLine(oomInLog.get().block().lines().filter(l -> l.contains("OutOfMemory")).findFirst().orElse(oomInLog.get().text())),
              culprit, metrics, cost, Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation(what + means + " The executor's own log records the cause: "
              + oomInLog.get().block().lines().filter(l -> l.contains("OutOfMemory")).findFirst().orElse(oomInLog.get().text()).strip()
              + " at " + oomInLog.get().location() + "." + (termination.isPresent() ? " The cluster's record: " + killedAt
                  + "." + memory.explain() : "") + fallout);
      Remedies.oom(ctx, k, stageOf(ctx, onThis), TaskFailureAnalyzer.operators(ctx, onThis.isEmpty() ? -1 : onThis.get(0).stageId()), Optional.empty())
          .forEach(b::recommend);
    } else if (kill.isPresent() || killInLog.isPresent() || ExitCodes.memoryKill(r.reason())) {
      String recorded = kill.isPresent() ? " The cluster's record: " + killedAt + "." : "";
      b = Candidate.builder(finding(RootCauseKind.EXECUTOR_OOM_CONTAINER_KILLED, fatal ? Severity.CRITICAL : Severity.HIGH,
              "Executor " + exec + "'s container was killed for its memory",
              kill.isPresent() ? killedAt + " (" + r.reason() + ")" : what, culprit, metrics, cost,
              Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation(what + means + " The cluster manager's record says it exceeded its memory limit: the JVM never "
              + "saw an OutOfMemoryError because memory outside the heap (overhead, Python workers, native buffers) "
              + "ran out." + recorded + memory.explain() + nodeStory + fallout);
      memory.recommendations(ctx, ContainerMemory.heavyShuffleOrBroadcast(ctx, stages, memory.heap())).forEach(b::recommend);
    } else if (disruption.isPresent()) {
      ClusterEvent d = disruption.get();
      RootCauseKind k = fetches.isEmpty() ? RootCauseKind.EXECUTOR_LOST : RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE;
      String how = disruptionVerb(d);
      b = Candidate.builder(finding(k, fatal ? Severity.CRITICAL : Severity.HIGH,
              "Executor " + exec + "'s pod was " + how + d.details().node().map(n -> " (node " + n + ")").orElse(""),
              killedAt + (fetches.isEmpty() ? "" : "; "
                  + Formats.count(fetches.stream().mapToLong(TaskFailureGroup::count).sum(), "fetch failure") + " followed"), culprit, metrics, cost, Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation(what + means + " The cause was the infrastructure, not the job: the cluster " + how + " the "
              + "executor's pod (" + d.reason() + ": " + d.message() + ")." + nodeStory + fallout
              + (fatal ? " The retries did not recover and the job failed." : " Spark recovered by re-running the lost "
                  + "work, at the cost of that time."));
      infrastructureRemedies(ctx, d, nodeRecords, !fetches.isEmpty()).forEach(b::recommend);
    } else if (code.isPresent() && code.getAsInt() == 3) {
      String opts = ctx.conf().get("spark.executor.extraJavaOptions").orElse("");
      boolean exitOnOom = opts.contains("ExitOnOutOfMemoryError");
      b = Candidate.builder(finding(RootCauseKind.EXECUTOR_OOM_HEAP, fatal ? Severity.CRITICAL : Severity.HIGH,
              "Executor " + exec + " exited on an OutOfMemoryError (exit code 3)", what, culprit, metrics, cost,
              Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.LEADING_HYPOTHESIS)
          .explanation(what + means + (exitOnOom ? " The executors run with -XX:+ExitOnOutOfMemoryError "
              + "(spark.executor.extraJavaOptions), so the JVM exits with code 3 on its first OutOfMemoryError, "
              + "before Spark can report it: the event log shows only the lost executor." : "")
              + fallout)
          .toConfirm("executor " + exec + "'s stderr, which ends with 'Terminating due to java.lang.OutOfMemoryError: ...' "
              + "naming the kind of memory (heap, GC overhead, direct buffers)");
      if (exitOnOom) {
        evidence.add(ctx.confRef("spark.executor.extraJavaOptions"));
      }
      Remedies.oom(ctx, RootCauseKind.EXECUTOR_OOM_HEAP, stageOf(ctx, onThis), TaskFailureAnalyzer.operators(ctx,
          onThis.isEmpty() ? -1 : onThis.get(0).stageId()), Optional.empty()).forEach(b::recommend);
    } else {
      RootCauseKind k = fetches.isEmpty() ? RootCauseKind.EXECUTOR_LOST : RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE;
      boolean sigkill = code.isPresent() && code.getAsInt() == 137;
      // The pod's record of the exit confirms the loss and rules the memory cgroup out.
      Optional<ClusterEvent> agreeing = termination.filter(t -> code.isEmpty() || t.exitCode().map(c -> c == code.getAsInt())
          .orElse(false));
      b = Candidate.builder(finding(k, fatal ? Severity.CRITICAL : Severity.HIGH,
              fetches.isEmpty() ? "Executor " + exec + " lost" : "Executor " + exec + " lost, then shuffle fetch failures",
              (agreeing.isPresent() ? killedAt + " (" + r.reason() + ")" : what) + (fetches.isEmpty() ? ""
                  : "; " + Formats.count(fetches.stream().mapToLong(TaskFailureGroup::count).sum(), "fetch failure") + " followed"),
              culprit, metrics, cost, Support.share(ctx, cost), evidence, name()))
          .confidence(agreeing.isPresent() ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
          .explanation(what + means + silentEnd + agreeing.map(t -> " The cluster's record confirms it: " + killedAt + "; "
              + (sigkill ? "it was not the OOM killer (that records OOMKilled): something else sent SIGKILL (a deletion "
                  + "past its grace period, a failed liveness probe, a kill on the node)."
                  : "the manager recorded no eviction or preemption.")).orElse("") + nodeStory + fallout
              + (fatal ? " The retries did not recover and the job failed."
              : " Spark recovered by re-running the lost work, at the cost of that time."));
      if (agreeing.isEmpty()) {
        b.toConfirm(meaning.map(m -> m.proof()).orElse("the executor's stderr and the cluster manager's record (the "
                + "executor pod's status and events)")
            + (sigkill ? "; OOMKilled or 'exceeding memory limits' there would make it a container memory kill" : ""));
      }
      b.recommend(fix("Find why executor " + exec + " died" + (fetches.isEmpty() ? "" : " before tuning the stages that "
              + "failed after it") + ": "
              + meaning.map(m -> m.proof()).orElse("its log and the cluster manager's events") + ".",
          fetches.isEmpty() ? "The tasks it was running were lost with it and ran again elsewhere."
              : "The later fetch failures and retries follow from the loss.", List.of()));
      if (code.isPresent() && code.getAsInt() == 143) {
        b.recommend(tune("If executors are stopped by preemption, spot reclaim or scale-down, let Spark decommission "
                + "them gracefully so that their running tasks and blocks move before they go.",
            "Exit code 143 is a SIGTERM from outside the executor; with decommissioning Spark migrates its shuffle and "
                + "cached blocks instead of recomputing them.",
            List.of(prop(ctx.conf(), "spark.decommission.enabled", "true"),
                prop(ctx.conf(), "spark.storage.decommission.enabled", "true"))));
      }
      if (sigkill && agreeing.isEmpty()) {
        long heap = ctx.conf().bytes("spark.executor.memory").orElse(1L << 30);
        long overhead = ctx.conf().bytes("spark.executor.memoryOverhead").orElse(Math.max(384L << 20, heap / 10));
        b.recommend(tune("If the kill was for memory, raise the memory overhead (the container limit is "
                + "spark.executor.memory + spark.executor.memoryOverhead).",
            "Exit code 137 is usually the kernel's OOM killer or the cluster manager enforcing the limit.",
            List.of(new io.sparkrca.core.report.PropertyChange("spark.executor.memoryOverhead",
                ctx.conf().get("spark.executor.memoryOverhead"), io.sparkrca.analysis.EffectiveConf.sparkSize(Math.max(overhead * 2, heap / 4))))));
      }
      if (!fetches.isEmpty() && !ctx.conf().isTrue("spark.shuffle.service.enabled")
          && !ctx.conf().isTrue("spark.decommission.enabled")) {
        b.recommend(tune("Keep shuffle output available when an executor goes away: an external shuffle service, "
                + "or graceful decommissioning that migrates shuffle blocks.",
            "Without them, losing an executor loses its map output and forces re-runs.",
            List.of(prop(ctx.conf(), "spark.decommission.enabled", "true"),
                prop(ctx.conf(), "spark.storage.decommission.shuffleBlocks.enabled", "true"))));
      }
    }
    b.time(t0).explainsFailure(fatal).explains(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE, RootCauseKind.EXECUTOR_LOST);
    if (nodes.isFlaky(exec)) {
      // The node's concentration of failures is not this loss's fallout: it may be its cause.
      NodeFailures.Node n = nodes.flaky().get();
      b.against(new EvidenceRef(EvidenceRef.Kind.METRIC, nodes.kind() + " " + n.name(), 0, "executor " + exec + " ran on "
          + nodes.kind() + " " + n.name() + ", which holds " + n.all() + " of the application's " + nodes.total()
          + " failures (" + Support.percent(nodes.share(n)) + "): the " + nodes.kind() + " may be the cause"));
    } else {
      b.explains(RootCauseKind.FLAKY_INFRASTRUCTURE);
    }
    b.want(EvidenceKind.EXECUTOR_LOGS, "executor " + exec + "'s own log says why it died");
    b.want(EvidenceKind.CLUSTER_RECORDS, "the executor's pod status (containerStatuses[].state.terminated: reason such as OOMKilled, "
        + "exit code, times) or the container's exit status and the cluster's events hold the kill reason");
    return b.build();
  }

  private Candidate unexplainedFetch(AnalysisContext ctx, List<TaskFailureGroup> fetches) {
    TaskFailureGroup f = fetches.get(0);
    TreeSet<Integer> stages = new TreeSet<>();
    fetches.forEach(g -> stages.addAll(g.stageIds()));
    List<EvidenceRef> evidence = new ArrayList<>();
    fetches.forEach(g -> evidence.add(ctx.factRef(g.source(), g.firstLine(), g.count() + "x " + g.description())));
    boolean fatal = fatal(ctx, List.of(), fetches);
    long cost = fatal ? 0 : lostTime(ctx, stages, f.firstTime());
    return Candidate.builder(finding(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE, fatal ? Severity.CRITICAL : Severity.HIGH,
            "Shuffle fetch failures", Formats.count(fetches.stream().mapToLong(TaskFailureGroup::count).sum(), "fetch failure")
                + " with no executor loss recorded",
            Culprit.stages(new ArrayList<>(stages)).withPartition(f.partitionIndex()), List.of(), cost,
            Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.LEADING_HYPOTHESIS)
        .explanation("Reduce tasks could not fetch shuffle blocks (" + f.description() + ") although no executor "
            + "removal is recorded: the executor holding them may have died without the driver noticing yet, the "
            + "external shuffle service or the node failed, or the network dropped the connections.")
        .toConfirm("the logs of the executor or shuffle service that served the blocks, and the node's health at that time")
        .time(f.firstTime())
        .explainsFailure(fatal)
        .want(EvidenceKind.EXECUTOR_LOGS, "the serving executor's log says whether it was alive")
        .recommend(Support.investigate("Look at the executor or shuffle service the failed fetches went to (the "
            + "message names its host and port) and the network between them.", "Fetch failures are a symptom."))
        .build();
  }

  /** How the cluster took a pod away, in words: {@code evicted}, {@code preempted}, {@code lost with its node}. */
  private static String disruptionVerb(ClusterEvent d) {
    String r = d.reason();
    if (r.contains("Evict") || r.equals("TerminationByKubelet")) {
      return "evicted";
    }
    if (r.contains("Preempt")) {
      return "preempted";
    }
    if (r.contains("Shutdown") || r.equals("Terminated")) {
      return "stopped for a node shutdown";
    }
    return "lost with its node";
  }

  /** What the node's records say around the loss: pressure, readiness, its events. */
  private static String nodeStory(List<ClusterEvent> nodeRecords) {
    if (nodeRecords.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" Its node's records:");
    int n = 0;
    for (ClusterEvent e : nodeRecords) {
      if (n++ >= 4) {
        sb.append(" and ").append(nodeRecords.size() - 4).append(" more;");
        break;
      }
      sb.append(" ").append(e.reason()).append(e.time().map(t -> " (" + t + ")").orElse("")).append(": ")
          .append(e.message().length() > 200 ? e.message().substring(0, 200) + "..." : e.message()).append(";");
    }
    return sb.substring(0, sb.length() - 1) + ".";
  }

  /** What keeps the infrastructure from taking executors away, for the way it did. */
  private static List<io.sparkrca.core.report.Recommendation> infrastructureRemedies(AnalysisContext ctx, ClusterEvent d,
      List<ClusterEvent> nodeRecords, boolean shuffleLost) {
    List<io.sparkrca.core.report.Recommendation> out = new ArrayList<>();
    String how = disruptionVerb(d);
    boolean memoryPressure = nodeRecords.stream().anyMatch(e -> e.reason().contains("MemoryPressure")
        || e.reason().contains("InsufficientMemory") || e.message().contains("reclaim memory"))
        || d.message().contains("low on resource: memory");
    if (how.equals("evicted")) {
      out.add(fix("Keep the kubelet from evicting executors: the node ran short of " + (memoryPressure ? "memory" : "a resource")
              + " and evicted pods using more than they request. Request what the executors use (memory request equal to "
              + "the limit, CPU requests set with spark.kubernetes.executor.request.cores) so that their pods are not the "
              + "first evicted, and leave headroom on the node pool for system daemons and other pods.",
          "The kubelet evicted the executor's pod: " + d.message(), List.of()));
    } else if (how.equals("preempted")) {
      out.add(fix("Keep executors from being preempted: give the job's pods a PriorityClass (a pod template with "
              + "priorityClassName) above what preempted them, or run them on a node pool without preemption.",
          "The scheduler preempted the executor's pod: " + d.message(), List.of()));
    } else {
      out.add(fix("Find why node " + d.details().node().orElse("?") + " went away (spot or preemptible reclaim, autoscaler "
              + "scale-down, a node failure) and keep Spark's executors off nodes that can vanish, or let Spark "
              + "decommission them gracefully.", d.message(), List.of()));
    }
    out.add(tune("Let Spark decommission executors when the cluster takes them: their shuffle and cached blocks move "
            + "to other executors instead of being recomputed.",
        "Executors are taken by the infrastructure here; without decommissioning their " + (shuffleLost ? "shuffle output"
            : "work") + " is lost with them.",
        List.of(prop(ctx.conf(), "spark.decommission.enabled", "true"),
            prop(ctx.conf(), "spark.storage.decommission.enabled", "true"),
            prop(ctx.conf(), "spark.storage.decommission.shuffleBlocks.enabled", "true"))));
    return out;
  }

  /** Removals that are not failures: the driver ending the application, idle executors released. */
  static boolean benign(ExecutorRemoval r, long lastJobEnd) {
    String reason = r.reason();
    if (reason.isEmpty() || reason.contains("killed by driver") || reason.contains("Executor killed by driver")
        || reason.contains("decommission") && !reason.contains("lost")) {
      return true;
    }
    OptionalInt code = ExitCodes.find(reason);
    if (code.isPresent() && code.getAsInt() == 0) {
      return true;
    }
    return r.time() > lastJobEnd && lastJobEnd != Long.MAX_VALUE && !reason.contains("137") && !ExitCodes.memoryKill(reason);
  }

  /** The first OutOfMemoryError (heap, GC overhead, direct memory, exit on OOM) in an executor's own logs. */
  static Optional<LogExcerpt> oomInLog(List<LogEvidence> logs) {
    return logs.stream().flatMap(l -> l.excerpts().stream())
        .filter(e -> e.matched(LogSignatures.EXIT_ON_OOM) || e.matched(LogSignatures.JAVA_HEAP_OOM)
            || e.matched(LogSignatures.GC_OVERHEAD_OOM) || e.matched(LogSignatures.DIRECT_MEMORY_OOM))
        .findFirst();
  }

  /** Whether the executor's tasks reported an OutOfMemoryError in the event log (then that is the root). */
  static boolean oomInTasks(AnalysisContext ctx, String exec) {
    return ctx.facts().taskFailures().stream().anyMatch(g -> g.isException()
        && g.exceptionClass().endsWith("OutOfMemoryError") && g.executorIds().contains(exec));
  }

  /** The executor a fetch failure fetched from. */
  static Optional<String> fetchSource(TaskFailureGroup f) {
    Matcher m = FETCH_SOURCE.matcher(f.firstDetail() + " " + f.description());
    while (m.find()) {
      String id = m.group(1) != null ? m.group(1) : m.group(2);
      if (id != null && !id.isBlank()) {
        return Optional.of(id);
      }
    }
    return Optional.empty();
  }

  private static boolean fatal(AnalysisContext ctx, List<TaskFailureGroup> lost, List<TaskFailureGroup> fetches) {
    List<Integer> ids = new ArrayList<>();
    lost.forEach(g -> ids.addAll(g.stageIds()));
    fetches.forEach(g -> ids.addAll(g.stageIds()));
    for (StageFailure f : ctx.facts().stageFailures()) {
      if (ids.contains(f.stageId()) && f.reason().contains("Job aborted")) {
        return true;
      }
    }
    return false;
  }

  /** Wall time of the failed and re-run stage attempts after {@code since}. */
  private static long lostTime(AnalysisContext ctx, java.util.Set<Integer> stages, long since) {
    long total = 0;
    for (StageData s : ctx.stages()) {
      if (!stages.contains(s.stageId())) {
        continue;
      }
      boolean failedAttempt = s.failureReason().isPresent();
      boolean rerun = s.attemptId() > 0;
      if (failedAttempt || rerun) {
        total += AnalysisContext.wallMs(s);
      }
    }
    return total;
  }

  private static Optional<StageData> stageOf(AnalysisContext ctx, List<TaskFailureGroup> groups) {
    if (groups.isEmpty()) {
      return Optional.empty();
    }
    int id = groups.get(0).stageId();
    return ctx.stages().stream().filter(s -> s.stageId() == id).findFirst();
  }

  private static boolean mentionsExecutor(String text, String exec) {
    return text.matches("(?s).*\\b(?:executor|Executor|exec-?)\\s*(?:id )?" + Pattern.quote(exec) + "\\b.*");
  }


  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
