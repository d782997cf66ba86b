package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.core.format.Formats.humanMillis;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Severity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Time spent waiting to launch, read apart from time spent working: a stage whose first task
 * launched long after the stage was submitted, and ran for less than it waited, was held back by
 * missing executors or busy cores (resource starvation, scheduler delay), not by its partitioning.
 * {@link RootCauseKind#RESOURCE_STARVATION}, confirmed when no executor was registered while the
 * stage waited, otherwise a leading hypothesis (other stages may have held the cores).
 */
public final class LaunchWaitAnalyzer implements Analyzer {
  /** The least wait worth a finding. */
  static final long MIN_WAIT_MS = 2000;

  @Override
  public String name() {
    return "launch-wait";
  }

  /** How long a stage attempt waited from its submission to its first task's launch; 0 when unknown. */
  public static long launchWaitMs(StageData s) {
    if (s.submissionTime().isEmpty() || s.firstTaskLaunchedTime().isEmpty()) {
      return 0;
    }
    return Math.max(0, s.firstTaskLaunchedTime().get().toEpochMilli() - s.submissionTime().get().toEpochMilli());
  }

  /** A stage attempt's wall time from its first task's launch to its completion (its wall time when unknown). */
  public static long runWindowMs(StageData s) {
    return Math.max(0, AnalysisContext.wallMs(s) - launchWaitMs(s));
  }

  /** Whether a stage attempt waited to launch longer than it ran, and long enough to matter. */
  public static boolean waitDominates(StageData s) {
    long wait = launchWaitMs(s);
    return wait >= MIN_WAIT_MS && wait > runWindowMs(s);
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    if (ctx.rebuiltFromLogs()) {
      return List.of(); // logs record some launches and some executors, not all: a wait read there is not one
    }
    List<StageData> waited = ctx.stages().stream().filter(s -> s.completionTime().isPresent())
        .filter(LaunchWaitAnalyzer::waitDominates)
        .sorted(Comparator.comparingLong((StageData s) -> s.submissionTime().get().toEpochMilli())).toList();
    if (waited.isEmpty()) {
      return List.of();
    }
    // The time lost is the union of the waits (stages waiting at the same time lose it once).
    long cost = 0;
    long coveredTo = Long.MIN_VALUE;
    for (StageData s : waited) {
      long from = Math.max(s.submissionTime().get().toEpochMilli(), coveredTo);
      long to = s.firstTaskLaunchedTime().get().toEpochMilli();
      if (to > from) {
        cost += to - from;
      }
      coveredTo = Math.max(coveredTo, to);
    }
    StageData worst = waited.stream().max(Comparator.comparingLong(LaunchWaitAnalyzer::launchWaitMs)).get();
    long start = worst.submissionTime().get().toEpochMilli();
    long launch = worst.firstTaskLaunchedTime().get().toEpochMilli();
    List<ExecutorSummary> alive = ctx.executors().stream()
        .filter(e -> ctx.localMode() || !e.id().equals("driver"))
        .filter(e -> e.addTime().toEpochMilli() <= start && e.removeTime().map(t -> t.toEpochMilli() > start).orElse(true))
        .toList();
    List<ExecutorSummary> arrived = ctx.executors().stream().filter(e -> !e.id().equals("driver"))
        .filter(e -> e.addTime().toEpochMilli() > start && e.addTime().toEpochMilli() <= launch).toList();
    boolean noneAlive = alive.isEmpty() && !ctx.localMode();
    List<Integer> busy = ctx.stages().stream().filter(o -> o != worst && o.firstTaskLaunchedTime().isPresent())
        .filter(o -> o.firstTaskLaunchedTime().get().toEpochMilli() < launch
            && o.completionTime().map(c -> c.toEpochMilli() > start).orElse(true))
        .map(StageData::stageId).distinct().sorted().toList();

    long worstWait = launch - start;
    long worstRun = runWindowMs(worst);
    StringBuilder why = new StringBuilder("Stage " + worst.stageId() + " (" + Support.stageName(ctx, worst) + ") was "
        + "submitted at " + Instant.ofEpochMilli(start) + " and its first task launched " + humanMillis(worstWait)
        + " later; then it ran for " + humanMillis(worstRun) + ". The time went to waiting for somewhere to run, not to "
        + "the work, so more partitions would not have made it faster.");
    if (noneAlive) {
      why.append(" No executor was registered when it was submitted");
      why.append(arrived.isEmpty() ? "." : "; the first arrived " + humanMillis(arrived.stream()
          .mapToLong(e -> e.addTime().toEpochMilli()).min().getAsLong() - start) + " later.");
    } else if (!busy.isEmpty()) {
      why.append(" ").append(alive.size()).append(alive.size() == 1 ? " executor was" : " executors were")
          .append(" registered, and stage").append(busy.size() == 1 ? " " : "s ").append(join(busy))
          .append(busy.size() == 1 ? " was" : " were").append(" running then: they may have held the cores.");
    } else {
      why.append(" ").append(alive.size()).append(alive.size() == 1 ? " executor was" : " executors were")
          .append(" registered and no other stage was running: the scheduler could not place the task on ")
          .append(alive.size() == 1 ? "it" : "them").append(" (no free slot, a resource or locality it waited for).");
    }
    if (waited.size() > 1) {
      why.append(" ").append(waited.size()).append(" stages waited longer than they ran (").append(join(
          waited.stream().map(StageData::stageId).distinct().toList())).append("), ").append(humanMillis(cost))
          .append(" in all.");
    }
    List<EvidenceRef> evidence = new ArrayList<>();
    for (StageData s : waited.subList(0, Math.min(5, waited.size()))) {
      evidence.add(ctx.apiRef(Support.stagePath(s), "submitted " + s.submissionTime().get() + ", first task launched "
          + s.firstTaskLaunchedTime().get() + " (" + humanMillis(launchWaitMs(s)) + " later), completed "
          + s.completionTime().get() + " (" + humanMillis(runWindowMs(s)) + " after the launch)"));
    }
    evidence.add(ctx.apiRef("allexecutors", alive.size() + (alive.size() == 1 ? " executor" : " executors")
        + " registered when stage " + worst.stageId() + " was submitted"));
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.RESOURCE_STARVATION, Severity.MEDIUM,
            "Stage " + worst.stageId() + " waited " + humanMillis(worstWait) + " for executors or cores",
            humanMillis(worstWait) + " from submission to the first task's launch, then " + humanMillis(worstRun) + " of running",
            Culprit.stages(waited.stream().map(StageData::stageId).distinct().toList()),
            List.of(new Metric("launchWaitMs", worstWait, "ms"), new Metric("runMs", worstRun, "ms"),
                new Metric("executorsRegistered", alive.size(), "count"), new Metric("totalWaitMs", cost, "ms")),
            cost, Support.share(ctx, cost), evidence, name()))
        .confidence(noneAlive ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
        .explanation(why.toString())
        .time(start);
    if (!noneAlive) {
      b.toConfirm("the cluster manager's view of the wait (the YARN queue's or the Kubernetes namespace's pending "
          + "containers, the autoscaler's events) and the driver log's 'Initial job has not accepted any resources' "
          + "warnings");
    }
    EffectiveConf conf = ctx.conf();
    if (ctx.localMode()) {
      b.recommend(Support.investigate("Give the driver more threads (local[N]) or run fewer jobs at once: in local mode "
          + "every task runs on the driver's cores.", conf.cite("spark.master")));
    } else {
      int needed = Math.max(1, (int) Math.ceil(worst.numTasks() / (double) executorCores(ctx)));
      List<PropertyChange> props = new ArrayList<>();
      String rationale;
      if (conf.isTrue("spark.dynamicAllocation.enabled")) {
        int floor = Math.max(needed, (int) conf.number("spark.dynamicAllocation.minExecutors").orElse(0));
        props.add(prop(conf, "spark.dynamicAllocation.minExecutors", Integer.toString(floor)));
        props.add(prop(conf, "spark.dynamicAllocation.initialExecutors", Integer.toString(floor)));
        rationale = "Dynamic allocation is on (" + conf.cite("spark.dynamicAllocation.minExecutors") + "): a floor of "
            + floor + " executors keeps enough of them for stage " + worst.stageId() + "'s " + worst.numTasks()
            + " tasks; if the cluster cannot grant them, its capacity (queue, quota, autoscaling) is the limit.";
      } else {
        int count = Math.max(needed, (int) conf.number("spark.executor.instances").orElse(0));
        props.add(prop(conf, "spark.executor.instances", Integer.toString(count)));
        rationale = "Stage " + worst.stageId() + "'s " + worst.numTasks() + " tasks need " + needed + " executors of "
            + executorCores(ctx) + " cores; if the cluster cannot grant them, its capacity (queue, quota, autoscaling) is "
            + "the limit.";
      }
      b.recommend(Support.fix("Make sure executors are there when the stages start: ask for enough of them, and check the "
          + "cluster's free capacity (the YARN queue, the Kubernetes quota, Dataproc autoscaling) while the job runs.",
          rationale, props));
    }
    return List.of(b.build());
  }

  private static int executorCores(AnalysisContext ctx) {
    int max = 0;
    for (ExecutorSummary e : ctx.executors()) {
      if (!e.id().equals("driver")) {
        max = Math.max(max, e.totalCores());
      }
    }
    return max > 0 ? max : (int) Math.max(1, ctx.conf().number("spark.executor.cores").orElse(1));
  }

  private static String join(List<Integer> ids) {
    List<String> shown = ids.stream().limit(5).map(String::valueOf).toList();
    return String.join(", ", shown) + (ids.size() > 5 ? " and " + (ids.size() - 5) + " more" : "");
  }
}
