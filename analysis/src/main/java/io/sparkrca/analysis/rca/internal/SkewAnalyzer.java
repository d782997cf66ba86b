package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.core.format.Formats.humanMillis;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.quantileAt;
import static io.sparkrca.analysis.rca.internal.Support.tune;
import static io.sparkrca.analysis.rca.internal.Support.times;

import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import io.sparkrca.analysis.rca.RcaEngine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Data skew (the slow-job playbook; anchors: Dr. Elephant, DataFlint, spark-advisor): a stage whose
 * slowest task takes at least {@value #MIN_RATIO} times the median (and at least {@value
 * #MIN_STRAGGLER_MS} ms) while reading at least {@value #MIN_DATA_RATIO} times the median data. The
 * time it costs is the straggler's excess over the median; the culprit is the straggler's
 * partition, and the join or aggregation key when the plan shows it. AQE's skew handling is checked
 * before salting is suggested.
 */
public final class SkewAnalyzer implements Analyzer {
  static final double MIN_RATIO = 5.0;
  static final long MIN_STRAGGLER_MS = 1000;
  static final double MIN_DATA_RATIO = 3.0;
  /** Skewed stages whose task lists are asked for together. */
  static final int PREFETCH = 32;

  @Override
  public String name() {
    return "skew";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Skewed> skewed = new ArrayList<>();
    for (StageData s : ctx.completedStages()) {
      if (s.numTasks() < 3) {
        continue;
      }
      Optional<TaskMetricDistributions> dist = ctx.quantiles(s);
      if (dist.isEmpty() && ctx.rebuiltFromLogs()) {
        // Logs hold each finished task's duration ("Finished task ... in N ms"), not a summary.
        durationsFromLogs(ctx, s).filter(q -> isStraggler(q[1], q[2])).ifPresent(q ->
            skewed.add(new Skewed(s, Optional.empty(), q[0], q[1], q[2], 0, false, true)));
        continue;
      }
      if (dist.isEmpty()) {
        continue;
      }
      TaskMetricDistributions d = dist.get();
      double median = quantileAt(d.duration(), 2);
      double max = quantileAt(d.duration(), 4);
      if (!isStraggler(median, max)) {
        continue;
      }
      // A task's duration includes its scheduler delay (waiting to be sent, deserialized, its result
      // fetched): a straggler whose run time is not one waited, and its waiting is not skew.
      if (s.executorRunTime() > 0 && !isStraggler(quantileAt(d.executorRunTime(), 2), quantileAt(d.executorRunTime(), 4))) {
        continue;
      }
      // A metric the stage's totals put at 0 is 0 in every task: its ratio is 0 without reading the tasks.
      double readRecordsRatio = s.shuffleReadRecords() <= 0 ? 0
          : ratio(quantileAt(d.shuffleReadMetrics().readRecords(), 4), quantileAt(d.shuffleReadMetrics().readRecords(), 2));
      double readBytesRatio = s.shuffleReadBytes() <= 0 ? 0
          : ratio(quantileAt(d.shuffleReadMetrics().readBytes(), 4), quantileAt(d.shuffleReadMetrics().readBytes(), 2));
      double inputRatio = Math.max(
          s.inputRecords() <= 0 ? 0 : ratio(quantileAt(d.inputMetrics().recordsRead(), 4), quantileAt(d.inputMetrics().recordsRead(), 2)),
          s.inputBytes() <= 0 ? 0 : ratio(quantileAt(d.inputMetrics().bytesRead(), 4), quantileAt(d.inputMetrics().bytesRead(), 2)));
      double dataRatio = Math.max(Math.max(readRecordsRatio, readBytesRatio), inputRatio);
      // Logs record each task's duration but not the data it read: there a straggler is a lead
      // for skew that the event log's per-task records confirm or rule out.
      boolean durationsOnly = ctx.rebuiltFromLogs() && s.shuffleReadRecords() <= 0 && s.shuffleReadBytes() <= 0
          && s.inputRecords() <= 0 && s.inputBytes() <= 0;
      if (dataRatio < MIN_DATA_RATIO && !durationsOnly) {
        continue; // slow without more data: a straggler, not skew
      }
      skewed.add(new Skewed(s, dist, quantileAt(d.duration(), 0), median, max, dataRatio, readRecordsRatio >= inputRatio,
          durationsOnly));
    }
    // Only the costliest can reach the report (it keeps the MAX_FINDINGS costliest performance findings):
    // the slowest task, a task-list read on a remote source, is read for those alone.
    java.util.Set<Skewed> reportable = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    skewed.stream().sorted(Comparator.comparingLong(Skewed::cost).reversed()).limit(RcaEngine.MAX_FINDINGS)
        .forEach(reportable::add);
    List<Candidate> out = new ArrayList<>();
    Map<Long, Optional<String>> keysByExecution = new HashMap<>(); // one plan holds many stages
    // The stragglers' task lists in groups a remote source fetches together, not one after another.
    for (int from = 0; from < skewed.size(); from += PREFETCH) {
      List<Skewed> group = skewed.subList(from, Math.min(skewed.size(), from + PREFETCH));
      ctx.prefetchTasks(group.stream().filter(reportable::contains).map(Skewed::stage).toList());
      for (Skewed k : group) {
        Optional<TaskData> slowest = reportable.contains(k) ? ctx.slowestTask(k.stage()) : Optional.empty();
        out.add(skew(ctx, k, slowest, keysByExecution));
      }
    }
    return out;
  }

  /** A stage past the thresholds, before its slowest task is read. */
  private record Skewed(StageData stage, Optional<TaskMetricDistributions> dist, double min, double median, double max,
      double dataRatio, boolean shuffle, boolean durationsOnly) {
    /** The straggler's excess over the median, within the stage's wall time. */
    long cost() {
      return Math.min(AnalysisContext.wallMs(stage), Math.round(max - median));
    }
  }

  private Candidate skew(AnalysisContext ctx, Skewed stage, Optional<TaskData> slowest,
      Map<Long, Optional<String>> keysByExecution) {
    StageData s = stage.stage();
    Optional<TaskMetricDistributions> d = stage.dist();
    double median = stage.median();
    double max = stage.max();
    double dataRatio = stage.dataRatio();
    boolean shuffle = stage.shuffle();
    long cost = stage.cost();
    Culprit culprit = Culprit.stages(List.of(s.stageId()));
    if (slowest.isPresent()) {
      culprit = culprit.withPartition(slowest.get().index()).withExecutors(List.of(slowest.get().executorId()));
    }
    Optional<ExecutionData> x = ctx.executionOf(s.stageId());
    Optional<String> keys = x.flatMap(e -> keysByExecution.computeIfAbsent(e.id(), id -> keys(e.planDescription())));
    if (x.isPresent()) {
      culprit = culprit.withSqlExecution(x.get().id(), keys.map(k -> k));
    }
    String what = shuffle ? "shuffle records" : "input";
    long stageRecords = shuffle ? s.shuffleReadRecords() : s.inputRecords();
    java.util.OptionalDouble recordShare = slowest.flatMap(TaskData::taskMetrics).map(m -> {
      long rec = shuffle ? m.shuffleReadMetrics().recordsRead() : m.inputMetrics().recordsRead();
      return stageRecords > 0 ? java.util.OptionalDouble.of(rec / (double) stageRecords) : java.util.OptionalDouble.empty();
    }).orElse(java.util.OptionalDouble.empty());
    String summary = "the slowest task" + slowest.map(t -> " (partition " + t.index() + ")").orElse("") + " took "
        + humanMillis(max) + (median > 0 ? " = " + times(max / median) + " the median " + humanMillis(median)
            : " where the median task took " + humanMillis(median))
        + (stage.durationsOnly() ? "; the logs do not record how much data each task read"
            : Double.isFinite(dataRatio) ? " and read " + times(dataRatio) + " the median " + what
            : " and read " + what + " where the median task read none") + (recordShare.isPresent() ? " (" + Support.percent(recordShare.getAsDouble()) + " of the stage's "
            + (shuffle ? "shuffle records" : "input records") + " in one of its " + s.numTasks() + " tasks)" : "");
    List<EvidenceRef> evidence = new ArrayList<>();
    String durations = "duration min/median/max " + humanMillis(stage.min()) + " / " + humanMillis(median) + " / "
        + humanMillis(max);
    evidence.add(d.map(q -> ctx.apiRef(Support.stagePath(s) + "/taskSummary", durations + "; " + what + " median/max "
        + (shuffle ? (long) quantileAt(q.shuffleReadMetrics().readRecords(), 2) + " / " + (long) quantileAt(q.shuffleReadMetrics().readRecords(), 4)
            : (long) quantileAt(q.inputMetrics().recordsRead(), 2) + " / " + (long) quantileAt(q.inputMetrics().recordsRead(), 4))))
        .orElseGet(() -> ctx.apiRef(Support.stagePath(s) + "/taskList", durations + " of the tasks the logs record as finished")));
    slowest.ifPresent(t -> evidence.add(ctx.apiRef(Support.stagePath(s) + "/taskList?sortBy=-runtime",
        "task " + t.taskId() + " (partition " + t.index() + ") on executor " + t.executorId() + ": " + humanMillis(t.duration().orElse(0L)))));
    EffectiveConf conf = ctx.conf();
    boolean aqe = conf.isTrue("spark.sql.adaptive.enabled");
    boolean skewJoin = conf.isTrue("spark.sql.adaptive.skewJoin.enabled");
    boolean join = keys.map(k -> k.startsWith("join")).orElse(false);
    StringBuilder why = new StringBuilder("In stage " + s.stageId() + " (" + Support.stageName(ctx, s) + "), " + summary
        + ": one partition holds far more data than the others, so one task runs long while the other cores wait.");
    keys.ifPresent(k -> why.append(" The plan's ").append(k).append(": a few hot key values are the usual cause (often null, 0 or 'unknown')."));
    if (join && aqe && !skewJoin) {
      evidence.add(ctx.confRef("spark.sql.adaptive.skewJoin.enabled"));
      why.append(" AQE's skew-join handling is off (spark.sql.adaptive.skewJoin.enabled=false), so Spark did not split the partition.");
    } else if (join && !aqe) {
      evidence.add(ctx.confRef("spark.sql.adaptive.enabled"));
      why.append(" AQE is off, so Spark could not split the skewed partition.");
    }
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.DATA_SKEW, Severity.HIGH,
            "Data skew in stage " + s.stageId(), summary, culprit,
            Stream.of(new Metric("maxTaskDurationMs", max, "ms"), new Metric("medianTaskDurationMs", median, "ms"),
                new Metric("maxToMedianDuration", median > 0 ? max / median : Double.NaN, "ratio"),
                new Metric("maxToMedianData", dataRatio, "ratio"),
                new Metric("stragglerRecordShare", recordShare.orElse(Double.NaN), "share"))
                .filter(m -> Double.isFinite(m.value())).toList(), // a ratio over a median of 0 is said in words
            cost, Support.share(ctx, cost), evidence, name()))
        .confidence(stage.durationsOnly() ? Confidence.LEADING_HYPOTHESIS : Confidence.CONFIRMED)
        .explanation(why.toString())
        .time(s.submissionTime().map(java.time.Instant::toEpochMilli).orElse(-1L));
    if (stage.durationsOnly()) {
      b.toConfirm("how much data the slow task read against the median (the event log's per-task shuffle read "
          + "records): far more is skew; about the same is a straggler (a slow host, GC, a slow source)");
      b.want(EvidenceKind.EVENT_LOG, "it records the data each task read, which tells skew from a straggler");
    }
    if (join) {
      if (!aqe) {
        b.recommend(Support.fix("Enable AQE with its skew-join handling so that Spark splits the skewed partition.",
            conf.cite("spark.sql.adaptive.enabled"), List.of(prop(conf, "spark.sql.adaptive.enabled", "true"),
                prop(conf, "spark.sql.adaptive.skewJoin.enabled", "true"))));
      } else if (!skewJoin) {
        b.recommend(Support.fix("Turn AQE's skew-join handling back on so that Spark splits the skewed partition.",
            conf.cite("spark.sql.adaptive.skewJoin.enabled"), List.of(prop(conf, "spark.sql.adaptive.skewJoin.enabled", "true"))));
      } else {
        b.recommend(Support.fix("AQE's skew join is on and did not split this partition (it needs it over "
                + "skewedPartitionFactor times the median and skewedPartitionThresholdInBytes): lower the threshold, "
                + "or salt the hot key.", conf.cite("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes"),
            List.of(prop(conf, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "64m"))));
      }
    } else {
      b.recommend(Support.fix("Spread the hot keys: salt them (add a random suffix, aggregate in two steps), "
              + "pre-aggregate before the shuffle, or filter the null/default keys out and handle them apart. "
              + "AQE's skew handling only splits sort-merge join inputs, not aggregations.",
          "Adding memory or executors does not speed up a skewed partition.", List.of()));
    }
    b.recommend(tune("Find the hot keys first: count rows per key on the input of stage " + s.stageId() + ".",
        "Which keys are hot decides between salting, filtering and a broadcast.", List.of()));
    return b.build();
  }

  private static boolean isStraggler(double median, double max) {
    return median > 0 && max >= MIN_STRAGGLER_MS && max >= MIN_RATIO * median;
  }

  /** Min, median and max duration of a stage attempt's successful tasks, as the logs recorded them. */
  private static Optional<double[]> durationsFromLogs(AnalysisContext ctx, StageData s) {
    List<Long> ms = new ArrayList<>();
    for (TaskData t : ctx.app().get().tasks(s.stageId(), s.attemptId(), io.sparkrca.core.app.TaskQuery.all())) {
      if ("SUCCESS".equals(t.status()) && t.duration().isPresent()) {
        ms.add(t.duration().get());
      }
    }
    if (ms.size() < 3) {
      return Optional.empty();
    }
    java.util.Collections.sort(ms);
    return Optional.of(new double[] {ms.get(0), ms.get(ms.size() / 2), ms.get(ms.size() - 1)});
  }

  /** The join or aggregation keys the plan shows, e.g. {@code join keys [k#4L] = [k#8L]}. */
  static Optional<String> keys(String plan) {
    List<Plans.Join> joins = Plans.joins(plan);
    if (!joins.isEmpty()) {
      return Optional.of("join keys [" + joins.get(0).leftKeys() + "] = [" + joins.get(0).rightKeys() + "]");
    }
    return Plans.aggregateKeys(plan).map(k -> "aggregation keys [" + k + "]");
  }

  private static double ratio(double max, double median) {
    if (!(max > 0)) {
      return 0;
    }
    return median > 0 ? max / median : Double.POSITIVE_INFINITY;
  }
}
