package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.core.format.Formats.humanBytes;
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
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sort-merge joins whose smaller side is small enough to broadcast (the "optimize-spark-sql-plan"
 * playbook's step 3): the data size that reached the smaller side's exchange, observed, against
 * {@code spark.sql.autoBroadcastJoinThreshold} (disabled, or stale statistics hid the size). The
 * time it costs is the join's reduce work (median task time per wave of tasks), which a broadcast
 * hash join would not need; a straggler's excess belongs to skew, not to the join strategy.
 */
public final class JoinStrategyAnalyzer implements Analyzer {
  /** What a broadcast handles comfortably when the threshold is off: Spark's default threshold. */
  static final long BROADCAST_OK = 10L << 20;

  @Override
  public String name() {
    return "join-strategy";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    EffectiveConf conf = ctx.conf();
    long threshold = conf.bytes("spark.sql.autoBroadcastJoinThreshold").orElse(BROADCAST_OK);
    for (ExecutionData x : ctx.executions()) {
      List<Plans.Join> joins = Plans.joins(x.planDescription()).stream().filter(j -> j.type().equals("SortMergeJoin")).toList();
      List<long[]> sides = Plans.sortMergeJoinSides(x);
      if (joins.isEmpty() || sides.isEmpty()) {
        continue;
      }
      long small = Math.min(sides.get(0)[0], sides.get(0)[1]);
      long large = Math.max(sides.get(0)[0], sides.get(0)[1]);
      long limit = threshold > 0 ? Math.max(threshold, BROADCAST_OK) : BROADCAST_OK;
      if (small > limit || large < 4 * small) {
        continue;
      }
      Plans.Join join = joins.get(0);
      List<Integer> stages = ctx.stagesOf(x);
      Optional<StageData> reduce = ctx.completedStages().stream().filter(s -> stages.contains(s.stageId()))
          .max(java.util.Comparator.comparingLong(StageData::shuffleReadRecords));
      long cost = reduce.map(s -> joinWork(ctx, s)).orElse(0L);
      List<EvidenceRef> evidence = new ArrayList<>();
      evidence.add(ctx.apiRef("sql/" + x.id(), join.display() + ": the smaller side's exchange holds " + humanBytes(small)
          + ", the larger " + humanBytes(large)));
      evidence.add(ctx.confRef("spark.sql.autoBroadcastJoinThreshold"));
      reduce.ifPresent(s -> evidence.add(ctx.apiRef(Support.stagePath(s), "the join's reduce stage: "
          + Formats.count(s.numTasks(), "task") + ", " + humanMillis(AnalysisContext.wallMs(s)))));
      String why = "SQL execution " + x.id() + " joins with " + join.display() + ", shuffling and sorting both sides, "
          + "though its smaller side is only " + humanBytes(small) + " (the larger " + humanBytes(large) + "): a broadcast hash "
          + "join would ship the small side to every task and skip the shuffle of the large one. "
          + (threshold <= 0 ? "Broadcast joins are disabled (spark.sql.autoBroadcastJoinThreshold="
              + conf.get("spark.sql.autoBroadcastJoinThreshold").orElse("-1") + ")."
              : "The threshold (" + conf.cite("spark.sql.autoBroadcastJoinThreshold") + ") would allow it: the "
                  + "optimizer's size estimate was too high, usually because of missing or stale statistics.");
      Candidate.Builder b = Candidate.builder(finding(RootCauseKind.SORT_MERGE_JOIN_SHOULD_BROADCAST, Severity.MEDIUM,
              "Sort-merge join in SQL execution " + x.id() + " where a broadcast fits",
              join.display() + " with a " + humanBytes(small) + " side", Culprit.stages(stages).withSqlExecution(x.id(), Optional.of(join.display())),
              List.of(new Metric("smallSideBytes", small, "bytes"), new Metric("largeSideBytes", large, "bytes")),
              cost, Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation(why)
          .time(x.submissionTime().toEpochMilli());
      if (threshold <= 0) {
        b.recommend(Support.fix("Re-enable automatic broadcast joins, or hint this one (broadcast(small_df) / "
                + "/*+ BROADCAST(t) */).", conf.cite("spark.sql.autoBroadcastJoinThreshold"),
            List.of(prop(conf, "spark.sql.autoBroadcastJoinThreshold", EffectiveConf.sparkSize(Math.max(BROADCAST_OK, 2 * small))))));
      } else {
        b.recommend(Support.fix("Hint the broadcast (broadcast(small_df)), or refresh the table statistics "
                + "(ANALYZE TABLE ... COMPUTE STATISTICS) so that the optimizer sees the small side's size.",
            "The observed size is under the threshold; the estimate was not.", List.of()));
      }
      out.add(b.build());
    }
    return out;
  }

  /** The join's reduce work without stragglers: the median task time for each wave of tasks. */
  private static long joinWork(AnalysisContext ctx, StageData s) {
    Optional<TaskMetricDistributions> d = ctx.quantiles(s);
    long wall = AnalysisContext.wallMs(s);
    if (d.isEmpty()) {
      return wall;
    }
    int cores = Math.max(1, ctx.totalCores());
    double median = quantileAt(d.get().duration(), 2);
    long waves = (s.numTasks() + cores - 1) / cores;
    return Math.min(wall, Math.round(median * waves));
  }
}
