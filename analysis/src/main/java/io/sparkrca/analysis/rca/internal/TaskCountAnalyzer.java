package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.core.format.Formats.humanMillis;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.quantileAt;

import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wrong number of partitions (the slow-job playbook's step 2): thousands of tasks of a few
 * milliseconds each (scheduling overhead dominates: the stage's wall time against the task time it
 * did), or fewer tasks than cores in a stage that matters (cores sit idle), naming the operator
 * that funnels the data when the plan shows it ({@code coalesce(1)}, a single-partition exchange).
 */
public final class TaskCountAnalyzer implements Analyzer {
  static final int MANY_TASKS = 1000;
  static final double SMALL_TASK_MS = 100;
  static final long MIN_STAGE_MS = 2000;
  private static final Pattern SINGLE = Pattern.compile("Coalesce 1\\b|SinglePartition|RoundRobinPartitioning\\(1\\)|hashpartitioning\\([^)]*, 1\\)");

  @Override
  public String name() {
    return "partition-count";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    int cores = Math.max(1, ctx.totalCores());
    for (StageData s : ctx.completedStages()) {
      Optional<TaskMetricDistributions> d = ctx.quantiles(s);
      // Judged on the time the stage ran, from its first task's launch: waiting to launch is not work
      // (LaunchWaitAnalyzer reads it), and a stage that waited longer than it ran was not held back by its partitions.
      long wall = LaunchWaitAnalyzer.runWindowMs(s);
      if (d.isEmpty() || wall <= 0) {
        continue;
      }
      double median = quantileAt(d.get().duration(), 2);
      if (s.numTasks() >= MANY_TASKS && median < SMALL_TASK_MS) {
        out.add(tooMany(ctx, s, d.get(), median, wall, cores));
      } else if (s.numTasks() < cores && wall >= MIN_STAGE_MS && !LaunchWaitAnalyzer.waitDominates(s)) {
        out.add(tooFew(ctx, s, wall, cores));
      }
    }
    return out;
  }

  private Candidate tooMany(AnalysisContext ctx, StageData s, TaskMetricDistributions d, double median, long wall, int cores) {
    double ideal = s.executorRunTime() / (double) cores;
    long cost = Math.max(0, Math.round(wall - ideal));
    EffectiveConf conf = ctx.conf();
    boolean shuffle = s.shuffleReadBytes() > 0 || s.shuffleReadRecords() > 0;
    String summary = s.numTasks() + " tasks with a median of " + humanMillis(median) + ": the stage ran " + humanMillis(wall)
        + " for " + humanMillis(s.executorRunTime()) + " of task time on " + Formats.count(cores, "core");
    List<EvidenceRef> evidence = new ArrayList<>(List.of(ctx.apiRef(Support.stagePath(s),
        Formats.count(s.numTasks(), "task") + ", executorRunTime " + s.executorRunTime() + " ms, wall " + wall + " ms")));
    StringBuilder why = new StringBuilder("Stage " + s.stageId() + " (" + Support.stageName(ctx, s) + ") split its work into "
        + s.numTasks() + " tasks of " + humanMillis(median) + " each (median): scheduling, launching and reporting each task "
        + "costs more than the work it does, so the stage took " + humanMillis(wall) + " where its " + humanMillis(s.executorRunTime())
        + " of task time would take about " + humanMillis(ideal) + " on " + Formats.count(cores, "core") + ".");
    List<Recommendation> recs = new ArrayList<>();
    int target = Math.max(cores * 3, 8);
    if (shuffle) {
      evidence.add(ctx.confRef("spark.sql.shuffle.partitions"));
      why.append(" It reads shuffle output: its task count is ").append(conf.cite("spark.sql.shuffle.partitions"));
      if (!conf.isTrue("spark.sql.adaptive.enabled")) {
        evidence.add(ctx.confRef("spark.sql.adaptive.enabled"));
        why.append(", and AQE, which would coalesce small partitions, is off.");
        recs.add(Support.fix("Let AQE coalesce the small shuffle partitions, or lower the shuffle partition count to a "
                + "few per core.", conf.cite("spark.sql.adaptive.enabled") + ", " + conf.cite("spark.sql.shuffle.partitions"),
            List.of(prop(conf, "spark.sql.adaptive.enabled", "true"),
                prop(conf, "spark.sql.adaptive.coalescePartitions.enabled", "true"),
                prop(conf, "spark.sql.shuffle.partitions", Integer.toString(target)))));
      } else {
        why.append(".");
        recs.add(Support.fix("Lower the shuffle partition count to a few per core (AQE is on but did not coalesce "
                + "enough: check spark.sql.adaptive.coalescePartitions.enabled and the advisory partition size).",
            conf.cite("spark.sql.shuffle.partitions"), List.of(prop(conf, "spark.sql.shuffle.partitions", Integer.toString(target)))));
      }
    } else {
      why.append(" It reads its input (not a shuffle): the partition count comes from the input's splits or the code.");
      recs.add(Support.fix("Create fewer, larger partitions: fewer slices in parallelize/range, coalesce(n) after a "
              + "filter, or larger input splits (spark.sql.files.maxPartitionBytes, spark.sql.files.openCostInBytes for "
              + "many small files).", "Aim for tasks of at least a few hundred milliseconds.",
          List.of(new PropertyChange("spark.sql.files.maxPartitionBytes", conf.get("spark.sql.files.maxPartitionBytes"), "256m"))));
    }
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.TOO_MANY_SMALL_TASKS, Severity.HIGH,
            "Too many small tasks in stage " + s.stageId(), summary, Culprit.stages(List.of(s.stageId())),
            List.of(new Metric("tasks", s.numTasks(), "count"), new Metric("medianTaskDurationMs", median, "ms"),
                new Metric("stageWallMs", wall, "ms"), new Metric("taskRunTimeMs", s.executorRunTime(), "ms"),
                new Metric("idealStageWallMs", ideal, "ms"), new Metric("cores", cores, "count")),
            cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why.toString())
        .time(s.submissionTime().map(java.time.Instant::toEpochMilli).orElse(-1L));
    recs.forEach(b::recommend);
    return b.build();
  }

  private Candidate tooFew(AnalysisContext ctx, StageData s, long wall, int cores) {
    long cost = Math.round(wall * (1 - s.numTasks() / (double) cores));
    Optional<ExecutionData> x = ctx.executionOf(s.stageId());
    Optional<String> funnel = x.flatMap(e -> {
      Matcher m = SINGLE.matcher(e.planDescription());
      return m.find() ? Optional.of(m.group()) : Optional.empty();
    });
    Culprit culprit = Culprit.stages(List.of(s.stageId()));
    if (s.numTasks() == 1) {
      culprit = culprit.withPartition(0);
    }
    if (x.isPresent()) {
      culprit = culprit.withSqlExecution(x.get().id(), funnel);
    }
    EffectiveConf conf = ctx.conf();
    boolean shuffle = s.shuffleReadBytes() > 0 || s.shuffleReadRecords() > 0;
    String summary = Formats.count(s.numTasks(), "task") + " for " + Formats.count(cores, "core") + " during " + humanMillis(wall) + ": "
        + Support.percent(1 - s.numTasks() / (double) cores) + " of the cores idle";
    StringBuilder why = new StringBuilder("Stage " + s.stageId() + " (" + Support.stageName(ctx, s) + ") ran "
        + Formats.count(s.numTasks(), "task") + " on " + Formats.count(cores, "core") + " for " + humanMillis(wall) + ", so most of the cluster sat idle.");
    long wait = LaunchWaitAnalyzer.launchWaitMs(s);
    if (wait >= 1000) {
      why.append(" (Before that, it waited ").append(humanMillis(wait)).append(" for its first task to launch; that "
          + "wait is not counted here.)");
    }
    funnel.ifPresent(f -> why.append(" The plan funnels the data into one partition (").append(f).append(")."));
    if (!shuffle && s.inputRecords() > 0) {
      why.append(" It reads ").append(s.inputRecords()).append(" input records in ")
          .append(Formats.count(s.numTasks(), "partition")).append(": the input or the code that creates it has too few splits.");
    }
    int target = Math.max(2 * cores, 8);
    List<Metric> metrics = new java.util.ArrayList<>(List.of(new Metric("tasks", s.numTasks(), "count"),
        new Metric("cores", cores, "count"), new Metric("stageWallMs", wall, "ms"),
        new Metric("idleCoreShare", 1 - s.numTasks() / (double) cores, "share")));
    if (wait >= 1000) {
      metrics.add(new Metric("launchWaitMs", wait, "ms")); // the wait the text states, kept apart from the wall time
    }
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.UNDERPARTITIONED, Severity.MEDIUM,
            "Too few partitions in stage " + s.stageId(), summary, culprit,
            metrics,
            cost, Support.share(ctx, cost), List.of(ctx.apiRef(Support.stagePath(s), Formats.count(s.numTasks(), "task") + ", wall " + wall + " ms")),
            name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why.toString())
        .time(s.submissionTime().map(java.time.Instant::toEpochMilli).orElse(-1L));
    if (funnel.isPresent()) {
      b.recommend(Support.fix("Remove the step that funnels the data into one partition (" + funnel.get()
          + "), or move it after the expensive work.", "One partition means one task, on one core.", List.of()));
    } else if (shuffle) {
      b.recommend(Support.fix("Raise the partition count of the shuffle that feeds this stage to a few per core.",
          conf.cite("spark.sql.shuffle.partitions"), List.of(prop(conf, "spark.sql.shuffle.partitions", Integer.toString(Math.max(target, 200))))));
    } else {
      b.recommend(Support.fix("Split the input into at least " + target + " partitions (" + cores + " cores): "
              + "repartition(" + target + ") before the heavy work, more slices in parallelize/range, or smaller "
              + "input splits (spark.sql.files.maxPartitionBytes).",
          "A stage cannot use more cores than it has tasks.", List.of()));
    }
    return b.build();
  }
}
