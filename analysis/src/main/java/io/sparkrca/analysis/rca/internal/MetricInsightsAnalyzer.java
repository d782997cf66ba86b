package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.core.format.Formats.humanBytes;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.core.format.Formats.humanMillis;
import static io.sparkrca.analysis.rca.internal.Support.percent;

import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric insights Dataproc's console shows for a batch (its Spark UI's "Metrics table"), each a
 * finding that names its threshold and the executors or stages past it, worst first:
 *
 * <ul>
 *   <li>per executor: JVM GC time against task time ({@value #GC_SHARE} and more);
 *   <li>disk bytes spilled: the stages that spilled and, from those stages' per-executor
 *       summaries, the executors that did (at most {@value #MAX_STAGES_READ} stages read);
 *   <li>bytes and records written against read ({@value #AMPLIFICATION}x and more, above a floor):
 *       rows multiplied by a join or an explode; the stages, and from the worst stages' per-executor
 *       summaries the executors that did;
 *   <li>shuffle write time against run time ({@value #SHUFFLE_WRITE_SHARE} and more): the stages,
 *       and, from the task lists of the worst stages (bounded), the executors;
 *   <li>stage progression: stage attempts that failed, and stages still waiting or running when the
 *       application ended;
 *   <li>executors required against running, from the autoscaler's records in Cloud Logging (the
 *       {@link ClusterEventReasons#AUTOSCALER_EXECUTORS} cluster records the Dataproc provider makes of them).
 * </ul>
 *
 * <p>Insights are observations, not time costs: their estimated cost is 0, so they never become the
 * root cause on their own and never make a healthy run unhealthy; they sit among the findings with
 * the evidence for the analysis that follows them.
 */
public final class MetricInsightsAnalyzer implements Analyzer {
  /** GC time / task time of an executor from which it is an insight (Dataproc's console flags high ratios). */
  public static final double GC_SHARE = 0.10;
  /** Task time an executor needs before its GC share means anything. */
  static final long MIN_EXECUTOR_TASK_MS = 10_000;
  /** Shuffle write time / run time of a stage from which it is an insight. */
  public static final double SHUFFLE_WRITE_SHARE = 0.20;
  static final long MIN_STAGE_RUN_MS = 1_000;
  /** Written / read, in bytes or records, from which a stage multiplies its data. */
  public static final double AMPLIFICATION = 2.0;
  static final long MIN_AMPLIFIED_BYTES = 64L << 20;
  static final long MIN_AMPLIFIED_RECORDS = 1_000_000;
  /** Required executors above running by this share (and by 2 at least) is an autoscaling gap. */
  public static final double EXECUTOR_GAP_SHARE = 0.25;
  static final int MAX_STAGES_READ = 5;
  /**
   * The longest task list an insight reads for one stage: 20 pages on Dataproc, the default
   * {@code --max_fetch} of tasks of the Python sparkApplications client ({@code
   * spark_applications.py}).
   */
  static final int MAX_TASKS_READ = 2_000;
  /** Run time an executor needs in the stages read before its shuffle write share means anything. */
  static final long MIN_EXECUTOR_RUN_MS = 500;
  static final int MAX_NAMED = 10;
  private static final Pattern COUNTS = Pattern.compile("required=(\\d+) running=(\\d+)");

  @Override
  public String name() {
    return "metric-insights";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    if (ctx.app().isPresent()) {
      executorGc(ctx).ifPresent(out::add);
      spill(ctx).ifPresent(out::add);
      stageRatio(ctx, "bytes written / read", "bytes", AMPLIFICATION,
          s -> s.inputBytes() + s.shuffleReadBytes(), s -> s.outputBytes() + s.shuffleWriteBytes(),
          e -> e.inputBytes() + e.shuffleRead(), e -> e.outputBytes() + e.shuffleWrite(), MIN_AMPLIFIED_BYTES,
          "wrote more than it read: a join, explode or cross product multiplied the data (replicated joins "
              + "amplify data on some executors)").ifPresent(out::add);
      stageRatio(ctx, "records written / read", "records", AMPLIFICATION,
          s -> s.inputRecords() + s.shuffleReadRecords(), s -> s.outputRecords() + s.shuffleWriteRecords(),
          e -> e.inputRecords() + e.shuffleReadRecords(), e -> e.outputRecords() + e.shuffleWriteRecords(),
          MIN_AMPLIFIED_RECORDS, "wrote more records than it read: rows duplicated by a join or a transformation")
          .ifPresent(out::add);
      shuffleWrite(ctx).ifPresent(out::add);
      progression(ctx).ifPresent(out::add);
    }
    executorsRequired(ctx).ifPresent(out::add);
    return out;
  }

  private Optional<Candidate> executorGc(AnalysisContext ctx) {
    List<ExecutorSummary> past = new ArrayList<>();
    for (ExecutorSummary e : ctx.executors()) {
      // The driver's "total duration" is its uptime, not task time.
      if (!e.id().equals("driver") && e.totalDuration() >= MIN_EXECUTOR_TASK_MS && e.totalGCTime() >= GC_SHARE * e.totalDuration()) {
        past.add(e);
      }
    }
    if (past.isEmpty()) {
      return Optional.empty();
    }
    past.sort(Comparator.comparingDouble((ExecutorSummary e) -> -share(e.totalGCTime(), e.totalDuration())));
    ExecutorSummary worst = past.get(0);
    double top = share(worst.totalGCTime(), worst.totalDuration());
    List<EvidenceRef> ev = new ArrayList<>();
    for (ExecutorSummary e : past.subList(0, Math.min(MAX_NAMED, past.size()))) {
      ev.add(ctx.apiRef("allexecutors", "executor " + e.id() + " (" + e.hostPort() + "): " + humanMillis(e.totalGCTime()) + " GC of "
          + humanMillis(e.totalDuration()) + " task time (" + percent(share(e.totalGCTime(), e.totalDuration())) + ")"));
    }
    return Optional.of(insight(ctx, "GC time / task time", top, GC_SHARE, "ratio",
        Culprit.none().withExecutors(ids(past)),
        Formats.count(past.size(), "executor") + " spent " + percent(GC_SHARE) + " or more of their task time in JVM garbage collection, "
            + "executor " + worst.id() + " the most (" + percent(top) + ")",
        "High ratios point at tasks holding too much (large per-task state, wide rows, caching) or object churn on "
            + "those executors.", ev));
  }

  private Optional<Candidate> spill(AnalysisContext ctx) {
    List<StageData> spilled = ctx.stages().stream().filter(s -> s.diskBytesSpilled() > 0)
        .sorted(Comparator.comparingLong(StageData::diskBytesSpilled).reversed()).toList();
    if (spilled.isEmpty()) {
      return Optional.empty();
    }
    long total = spilled.stream().mapToLong(StageData::diskBytesSpilled).sum();
    List<EvidenceRef> ev = new ArrayList<>();
    for (StageData s : spilled.subList(0, Math.min(MAX_NAMED, spilled.size()))) {
      ev.add(ctx.apiRef(Support.stagePath(s), "stage " + s.stageId() + "." + s.attemptId() + " spilled "
          + humanBytes(s.diskBytesSpilled()) + " to disk"));
    }
    // Per executor: the per-executor summaries of the stages that spilled most (a bounded read).
    Map<String, Long> byExecutor = new LinkedHashMap<>();
    forEachExecutorOf(ctx, spilled, (id, es) -> {
      if (es.diskBytesSpilled() > 0) {
        byExecutor.merge(id, es.diskBytesSpilled(), Long::sum);
      }
    });
    List<String> executors = byExecutor.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).map(Map.Entry::getKey).toList();
    if (!executors.isEmpty()) {
      String top = executors.get(0);
      ev.add(ctx.apiRef(Support.stagePath(spilled.get(0)), "per executor, in the stages that spilled most: executor "
          + top + " spilled " + humanBytes(byExecutor.get(top)) + (executors.size() > 1 ? ", " + Formats.count(executors.size() - 1, "other executor")
              + " less" : "")));
    }
    Culprit c = Culprit.stages(ids(spilled, StageData::stageId)).withExecutors(executors.subList(0,
        Math.min(MAX_NAMED, executors.size())));
    return Optional.of(insight(ctx, "disk bytes spilled", total, 0, "bytes", c,
        humanBytes(total) + " spilled to disk by " + Formats.count(spilled.size(), "stage attempt") + ", stage " + spilled.get(0).stageId()
            + " the most (" + humanBytes(spilled.get(0).diskBytesSpilled()) + ")"
            + (executors.isEmpty() ? "" : "; executor " + executors.get(0) + " spilled the most of them"),
        "Spill concentrated on a few executors points at skew; spill that grows stage after stage at memory pressure.",
        ev));
  }

  /**
   * Stages that wrote {@code threshold} times what they read (above {@code floor}), and, from the
   * per-executor summaries of the worst {@value #MAX_STAGES_READ} of them (a bounded read, as
   * for spill), the executors that did: Dataproc's metric insights read this metric per executor.
   */
  private Optional<Candidate> stageRatio(AnalysisContext ctx, String metric, String unit, double threshold,
      ToDoubleFunction<StageData> read, ToDoubleFunction<StageData> written, ToLongFunction<ExecutorStageSummary> readBy,
      ToLongFunction<ExecutorStageSummary> writtenBy, long floor, String meaning) {
    List<StageData> past = new ArrayList<>();
    for (StageData s : ctx.stages()) {
      double r = read.applyAsDouble(s);
      double w = written.applyAsDouble(s);
      if (r > 0 && w >= floor && w >= threshold * r) {
        past.add(s);
      }
    }
    if (past.isEmpty()) {
      return Optional.empty();
    }
    past.sort(Comparator.comparingDouble((StageData s) -> -written.applyAsDouble(s) / read.applyAsDouble(s)));
    StageData worst = past.get(0);
    double top = written.applyAsDouble(worst) / read.applyAsDouble(worst);
    List<EvidenceRef> ev = new ArrayList<>();
    for (StageData s : past.subList(0, Math.min(MAX_NAMED, past.size()))) {
      ev.add(ctx.apiRef(Support.stagePath(s), "stage " + s.stageId() + "." + s.attemptId() + " read "
          + amount(read.applyAsDouble(s), unit) + " and wrote " + amount(written.applyAsDouble(s), unit)));
    }
    Map<String, long[]> byExecutor = new LinkedHashMap<>();
    forEachExecutorOf(ctx, past, (id, es) -> {
      long[] a = byExecutor.computeIfAbsent(id, k -> new long[2]);
      a[0] += readBy.applyAsLong(es);
      a[1] += writtenBy.applyAsLong(es);
    });
    List<Map.Entry<String, long[]>> executors = byExecutor.entrySet().stream()
        .filter(e -> e.getValue()[0] > 0 && e.getValue()[1] >= threshold * e.getValue()[0])
        .sorted(Comparator.comparingDouble((Map.Entry<String, long[]> e) -> -e.getValue()[1] / (double) e.getValue()[0]))
        .toList();
    String byWorst = "";
    if (!executors.isEmpty()) {
      Map.Entry<String, long[]> e = executors.get(0);
      double ratio = e.getValue()[1] / (double) e.getValue()[0];
      byWorst = "; executor " + e.getKey() + " the most (" + Formats.fixed(ratio, 1) + "x)";
      ev.add(ctx.apiRef(Support.stagePath(worst), "per executor, in the stages that multiplied most: executor "
          + e.getKey() + " read " + amount(e.getValue()[0], unit) + " and wrote " + amount(e.getValue()[1], unit)
          + (executors.size() > 1 ? ", " + Formats.count(executors.size() - 1, "other executor") + " " + Formats.fixed(threshold, 0)
              + "x or more too" : "")));
    }
    Culprit c = Culprit.stages(ids(past, StageData::stageId)).withExecutors(executors.stream().limit(MAX_NAMED)
        .map(Map.Entry::getKey).toList());
    return Optional.of(insight(ctx, metric, top, threshold, "ratio", c,
        Formats.count(past.size(), "stage attempt") + " " + meaning.substring(0, meaning.indexOf(':')) + ", stage " + worst.stageId()
            + " " + Formats.fixed(top, 1) + "x (" + amount(written.applyAsDouble(worst), unit) + " from "
            + amount(read.applyAsDouble(worst), unit) + ")" + byWorst,
        meaning.substring(meaning.indexOf(':') + 1).trim() + ".", ev));
  }

  /**
   * The per-executor summaries of the first {@value #MAX_STAGES_READ} of {@code worstFirst}:
   * a bounded read (one {@code accessStageAttempt} per stage on Dataproc).
   */
  private static void forEachExecutorOf(AnalysisContext ctx, List<StageData> worstFirst,
      java.util.function.BiConsumer<String, ExecutorStageSummary> each) {
    for (StageData s : worstFirst.subList(0, Math.min(MAX_STAGES_READ, worstFirst.size()))) {
      ctx.app().get().stageAttempt(s.stageId(), s.attemptId(), StageQuery.all().withDetails(true).withoutSummaries()
              .withoutTasks())
          .flatMap(StageData::executorSummary).orElse(Map.of()).forEach(each);
    }
  }

  private Optional<Candidate> shuffleWrite(AnalysisContext ctx) {
    List<StageData> past = new ArrayList<>();
    for (StageData s : ctx.stages()) {
      if (s.executorRunTime() >= MIN_STAGE_RUN_MS && s.shuffleWriteTime() / 1e6 >= SHUFFLE_WRITE_SHARE * s.executorRunTime()) {
        past.add(s);
      }
    }
    if (past.isEmpty()) {
      return Optional.empty();
    }
    past.sort(Comparator.comparingDouble((StageData s) -> -s.shuffleWriteTime() / 1e6 / s.executorRunTime()));
    StageData worst = past.get(0);
    double top = worst.shuffleWriteTime() / 1e6 / worst.executorRunTime();
    List<EvidenceRef> ev = new ArrayList<>();
    for (StageData s : past.subList(0, Math.min(MAX_NAMED, past.size()))) {
      ev.add(ctx.apiRef(Support.stagePath(s), "stage " + s.stageId() + "." + s.attemptId() + ": "
          + humanMillis(s.shuffleWriteTime() / 1e6) + " writing shuffle files of " + humanMillis(s.executorRunTime()) + " run time"));
    }
    List<ExecutorShare> executors = shuffleWriteByExecutor(ctx, past, ev);
    String byWorst = executors.isEmpty() ? ""
        : "; executor " + executors.get(0).id() + " the most (" + percent(executors.get(0).share()) + ")";
    return Optional.of(insight(ctx, "shuffle write time / run time", top, SHUFFLE_WRITE_SHARE, "ratio",
        Culprit.stages(ids(past, StageData::stageId)).withExecutors(executors.stream().limit(MAX_NAMED)
            .map(ExecutorShare::id).toList()),
        Formats.count(past.size(), "stage attempt") + " spent " + percent(SHUFFLE_WRITE_SHARE) + " or more of their run time writing "
            + "shuffle files, stage " + worst.stageId() + " the most (" + percent(top) + ")" + byWorst,
        "High shuffle write time points at skew, slow serialization or slow local disks; look for outlier tasks in "
            + "those stages.", ev));
  }

  /** An executor's shuffle write time against its run time, in the stages read. */
  private record ExecutorShare(String id, long runMs, long writeNs) {
    double share() {
      return writeNs / 1e6 / runMs;
    }
  }

  /**
   * The executors that spent {@value #SHUFFLE_WRITE_SHARE} or more of their run time writing
   * shuffle files in the worst stages, worst first. Per-executor summaries do not carry shuffle
   * write time, so this reads the task lists of at most {@value #MAX_STAGES_READ} stages of at most
   * {@value #MAX_TASKS_READ} tasks each (on Dataproc, paged reads); a stage past that is named in
   * the evidence as not read.
   */
  private static List<ExecutorShare> shuffleWriteByExecutor(AnalysisContext ctx, List<StageData> worstFirst,
      List<EvidenceRef> ev) {
    List<StageData> toRead = new ArrayList<>();
    for (StageData s : worstFirst) {
      if (toRead.size() == MAX_STAGES_READ) {
        break;
      }
      if (s.numTasks() > MAX_TASKS_READ) {
        ev.add(ctx.apiRef(Support.stagePath(s), "per executor: the " + s.numTasks() + " tasks of stage " + s.stageId()
            + "." + s.attemptId() + " were not read (an insight reads stages of " + MAX_TASKS_READ + " tasks at most)"));
      } else {
        toRead.add(s);
      }
    }
    ctx.prefetchTasks(toRead);
    Map<String, long[]> byExecutor = new LinkedHashMap<>();
    for (StageData s : toRead) {
      for (TaskData t : ctx.app().get().tasks(s.stageId(), s.attemptId(), TaskQuery.all())) {
        t.taskMetrics().ifPresent(m -> {
          long[] a = byExecutor.computeIfAbsent(t.executorId(), k -> new long[2]);
          a[0] += m.executorRunTime();
          a[1] += m.shuffleWriteMetrics().writeTime();
        });
      }
    }
    List<ExecutorShare> past = byExecutor.entrySet().stream()
        .map(e -> new ExecutorShare(e.getKey(), e.getValue()[0], e.getValue()[1]))
        .filter(e -> e.runMs() >= MIN_EXECUTOR_RUN_MS && e.share() >= SHUFFLE_WRITE_SHARE)
        .sorted(Comparator.comparingDouble(ExecutorShare::share).reversed()).toList();
    if (!past.isEmpty()) {
      ExecutorShare e = past.get(0);
      ev.add(ctx.apiRef(Support.stagePath(worstFirst.get(0)), "per executor, from the task lists of the stages that "
          + "wrote longest: executor " + e.id() + " spent " + humanMillis(e.writeNs() / 1e6) + " writing shuffle files of "
          + humanMillis(e.runMs()) + " run time (" + percent(e.share()) + ")" + (past.size() > 1 ? ", "
              + Formats.count(past.size() - 1, "other executor") + " " + percent(SHUFFLE_WRITE_SHARE) + " or more too" : "")));
    }
    return past;
  }

  private Optional<Candidate> progression(AnalysisContext ctx) {
    List<StageData> failed = ctx.stages().stream().filter(s -> s.status() == StageStatus.FAILED).toList();
    List<StageData> waiting = ctx.completed()
        ? ctx.stages().stream().filter(s -> s.status() == StageStatus.PENDING || s.status() == StageStatus.ACTIVE).toList()
        : List.of();
    if (failed.isEmpty() && waiting.isEmpty()) {
      return Optional.empty();
    }
    List<EvidenceRef> ev = new ArrayList<>();
    for (StageData s : failed.subList(0, Math.min(MAX_NAMED, failed.size()))) {
      ev.add(ctx.apiRef(Support.stagePath(s), "stage " + s.stageId() + "." + s.attemptId() + " FAILED"
          + s.failureReason().map(r -> ": " + FailureText.headline(r)).orElse("")));
    }
    for (StageData s : waiting.subList(0, Math.min(MAX_NAMED, waiting.size()))) {
      ev.add(ctx.apiRef(Support.stagePath(s), "stage " + s.stageId() + "." + s.attemptId() + " still " + s.status()
          + " when the application ended"));
    }
    List<Integer> stages = new ArrayList<>(ids(failed, StageData::stageId));
    ids(waiting, StageData::stageId).stream().filter(i -> !stages.contains(i)).forEach(stages::add);
    return Optional.of(insight(ctx, "failed or waiting stages", failed.size() + waiting.size(), 0, "stages",
        Culprit.stages(stages.subList(0, Math.min(MAX_NAMED, stages.size()))),
        "Stage progression: " + Formats.count(failed.size(), "stage attempt") + " failed" + (waiting.isEmpty() ? ""
            : ", " + Formats.count(waiting.size(), "stage") + (waiting.size() == 1 ? " was" : " were") + " still waiting or running when the application ended"),
        "Many failed or waiting stages point at skew or at a failure the stages did not recover from; the failure "
            + "reasons are on the stages.", ev));
  }

  /** The largest gap the autoscaler recorded between the executors it needed and those running. */
  private Optional<Candidate> executorsRequired(AnalysisContext ctx) {
    ClusterEvent worst = null;
    long worstRequired = 0;
    long worstRunning = 0;
    int records = 0;
    for (ClusterEvent e : ctx.evidence().clusterEvents()) {
      if (!e.reason().equals(ClusterEventReasons.AUTOSCALER_EXECUTORS)) {
        continue;
      }
      Matcher m = COUNTS.matcher(e.message());
      if (!m.find()) {
        continue;
      }
      records++;
      long required = Long.parseLong(m.group(1));
      long running = Long.parseLong(m.group(2));
      if (worst == null || required - running > worstRequired - worstRunning) {
        worst = e;
        worstRequired = required;
        worstRunning = running;
      }
    }
    long gap = worstRequired - worstRunning;
    if (worst == null || gap < 2 || gap < EXECUTOR_GAP_SHARE * worstRequired) {
      return Optional.empty();
    }
    String when = worst.time().map(t -> " at " + t).orElse("");
    List<EvidenceRef> ev = List.of(new EvidenceRef(EvidenceRef.Kind.CLUSTER, worst.source(), 0,
        worst.object() + when + ": " + worst.message()));
    double share = gap / (double) worstRequired;
    return Optional.of(insight(ctx, "executors required - running", gap, Math.max(2, EXECUTOR_GAP_SHARE * worstRequired),
        "executors", Culprit.none(),
        "The autoscaler needed " + worstRequired + " executors but " + worstRunning + " were running" + when + " ("
            + percent(share) + " short; the largest gap in " + Formats.count(records, "autoscaler record") + ")",
        "A large gap between required and running executors is an autoscaling issue: the maximum executors "
            + "(spark.dynamicAllocation.maxExecutors), quota, or capacity held the workload back"
            + (worst.message().contains("constraints=") ? "; the record names its constraint" : "") + ".", ev));
  }

  private Candidate insight(AnalysisContext ctx, String metric, double value, double threshold, String unit, Culprit c,
      String title, String meaning, List<EvidenceRef> evidence) {
    String shown = unit.equals("ratio") ? Formats.fixed(value, 2) : amount(value, unit);
    String limit = unit.equals("ratio") ? Formats.fixed(threshold, 2) : amount(threshold, unit);
    Severity sev = unit.equals("ratio") && threshold > 0 && value >= 2 * threshold ? Severity.MEDIUM : Severity.LOW;
    return Candidate.builder(finding(RootCauseKind.METRIC_INSIGHT, sev, "Metric insight (" + metric + "): " + title,
            metric + ": " + shown + " against a threshold of " + limit + ". " + meaning, c,
            List.of(new Metric(metric, value, unit), new Metric("threshold", threshold, unit)), 0, 0, evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(title + ". " + meaning)
        .time(-1)
        .build();
  }

  /** {@code v} of {@code unit} (bytes, or a plural noun such as {@code stages}), agreeing in number: {@code 1 stage}. */
  private static String amount(double v, String unit) {
    return unit.equals("bytes") ? humanBytes(v)
        : Formats.fixed(v, 0) + " " + (Formats.fixed(v, 0).equals("1") && unit.endsWith("s")
            ? unit.substring(0, unit.length() - 1) : unit);
  }

  private static double share(long part, long whole) {
    return whole <= 0 ? 0 : part / (double) whole;
  }

  private static List<String> ids(List<ExecutorSummary> es) {
    return es.stream().limit(MAX_NAMED).map(ExecutorSummary::id).toList();
  }

  private static <T> List<Integer> ids(List<T> xs, java.util.function.ToIntFunction<T> id) {
    return xs.stream().limit(MAX_NAMED).mapToInt(id).distinct().boxed().toList();
  }
}
