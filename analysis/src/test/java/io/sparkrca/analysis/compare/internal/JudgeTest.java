package io.sparkrca.analysis.compare.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.analysis.AnalysisContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The verdict logic on stage numbers constructed for each case the testkit has no twin of yet (a
 * hot key, fewer cores, lost executors, a code change): the configuration of both runs is the real
 * healthy run's, so no property differs; the stage pairs and run totals are built here, and say
 * in their names what they stand for. The slow-job playbook's common wrong answers are checked on
 * each.
 */
class JudgeTest {
  private static AnalysisContext ctx;

  @BeforeAll
  static void healthy() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent");
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "healthy");
    ctx = AnalysisContext.of(Evidence.of(EventLogs.replay(f.eventLog()), f.eventLog().toString()));
  }

  private static Comparison.Run run(String id, long jobMs, long records, int cores, int lost, long failedTasks) {
    return new Comparison.Run(id, "job", id + ".log", "3.5.9", jobMs, jobMs + 5000, records, 0, 0, jobMs, 100, 2, cores,
        2, lost, failedTasks);
  }

  private static Comparison.StageStats stage(int id, int tasks, long wallMs, long taskMs, long medianMs, long maxMs,
      long medianShuffle, long maxShuffle) {
    return new Comparison.StageStats(id, 0, "groupBy at Job.scala:42", "save at Job.scala:50", "shuffle-read", 3, tasks,
        wallMs, taskMs, 1_000_000, 64L << 20, 64L << 20, 0, 0, 0, taskMs / 20, medianMs, maxMs, medianShuffle,
        maxShuffle);
  }

  private static Comparison.Verdict judge(Comparison.Run rc, Comparison.Run rb, Comparison.StagePair pair,
      Optional<CodeDiff> code, List<Comparison.StageStats> newStages) {
    double slowdown = rc.jobTimeMs() / (double) rb.jobTimeMs();
    double growth = rc.inputRecords() / (double) rb.inputRecords();
    Aligner.Alignment al = new Aligner.Alignment(List.of(new Aligner.Match(pair.baseline(), pair.candidate(),
        pair.matchedBy())), newStages, List.of());
    return new Judge(ctx, ctx, rc, rb, slowdown, growth, slowdown / growth, List.of(pair), Optional.of(pair), al,
        List.of(), code, 1.2).verdict();
  }

  @Test
  void aStageWhoseLargestShuffleReadPerTaskGrewTenfoldIsADataDistributionChange() {
    Comparison.StagePair hotKey = Comparer.pair(stage(3, 200, 20_000, 400_000, 2000, 2600, 300_000, 400_000),
        stage(3, 200, 90_000, 600_000, 1500, 80_000, 250_000, 30_000_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 100_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        hotKey, Optional.empty(), List.of());
    assertThat(v.kind()).as(v.explanation()).isEqualTo(RootCauseKind.DATA_DISTRIBUTION_CHANGE);
    assertThat(v.explanation()).contains("stage 3");
    String advice = advice(v);
    assertThat(advice).as("never more memory for a skewed partition").contains("do not add executor memory")
        .doesNotContain("spark.executor.memory=");
    assertThat(v.recommendations()).allSatisfy(r -> assertThat(r.properties()).noneMatch(p ->
        p.property().contains("memory") || p.property().contains("instances")));
    assertThat(v.alternatives().stream().map(a -> a.kind())).contains(RootCauseKind.CONFIG_REGRESSION,
        RootCauseKind.INFRASTRUCTURE_CHANGE, RootCauseKind.CODE_CHANGE, RootCauseKind.NO_REGRESSION_INPUT_GROWTH);
  }

  @Test
  void aStragglerThatReadNoMoreThanTheOthersIsNotADataDistributionChange() {
    Comparison.StagePair straggler = Comparer.pair(stage(3, 200, 20_000, 400_000, 2000, 2600, 300_000, 400_000),
        stage(3, 200, 90_000, 600_000, 1500, 80_000, 300_000, 410_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 100_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        straggler, Optional.empty(), List.of());
    assertThat(v.kind()).isNotEqualTo(RootCauseKind.DATA_DISTRIBUTION_CHANGE);
    assertThat(v.alternatives()).anySatisfy(a -> {
      assertThat(a.kind()).isEqualTo(RootCauseKind.DATA_DISTRIBUTION_CHANGE);
      assertThat(a.whyRejected()).contains("no key became hot");
    });
  }

  @Test
  void overAMedianOfZeroTheTextSaysWhatIsTrueNotARatio() {
    Comparison.StageStats readsOne = stage(3, 200, 20_000, 400_000, 2000, 2600, 0, 30_000_000);
    assertThat(Judge.overMedian(readsOne, true)).isEqualTo("28.6 MiB where the median task read nothing");
    assertThat(Judge.overMedian(readsOne, false)).isEqualTo("1.3x the median");
    assertThat(Judge.overMedian(stage(3, 200, 20_000, 400_000, 2000, 2600, 0, 0), true))
        .isEqualTo("nothing, as did the median task");
    Comparison.StagePair pair = Comparer.pair(stage(3, 200, 20_000, 400_000, 2000, 2600, 300_000, 400_000), readsOne,
        "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 100_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        pair, Optional.empty(), List.of());
    assertThat(v.alternatives()).filteredOn(a -> a.kind() == RootCauseKind.DATA_DISTRIBUTION_CHANGE)
        .isNotEmpty().allSatisfy(a -> assertThat(a.whyRejected()).contains("where the median task read nothing")
            .doesNotContain("0.0x").doesNotContain("Infinity"));
  }

  @Test
  void theSameWorkOnHalfTheCoresIsAnInfrastructureChangeAndAsksForTheCoresBack() {
    Comparison.StagePair fewerCores = Comparer.pair(stage(3, 400, 20_000, 300_000, 700, 900, 160_000, 200_000),
        stage(3, 400, 41_000, 310_000, 720, 950, 160_000, 200_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 60_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 16, 0, 0),
        fewerCores, Optional.empty(), List.of());
    assertThat(v.kind()).as(v.explanation()).isEqualTo(RootCauseKind.INFRASTRUCTURE_CHANGE);
    assertThat(v.explanation()).contains("8 cores").contains("16");
    assertThat(v.recommendations()).anySatisfy(r -> assertThat(r.action()).contains("16 cores"));
  }

  @Test
  void fewerCoresDoNotCallForMoreExecutorsWhenTheStageHasFewerTasksThanCores() {
    Comparison.StagePair capped = Comparer.pair(stage(3, 3, 20_000, 60_000, 20_000, 21_000, 16_000_000, 16_500_000),
        stage(3, 3, 41_000, 62_000, 20_500, 21_000, 16_000_000, 16_500_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 60_000, 1_000_000, 4, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        capped, Optional.empty(), List.of());
    assertThat(v.kind()).isEqualTo(RootCauseKind.INFRASTRUCTURE_CHANGE);
    assertThat(advice(v)).contains("more executors would not help").contains("raise its partition count");
    assertThat(v.recommendations()).allSatisfy(r -> assertThat(r.priority()).isNotEqualTo(
        Recommendation.Priority.IMMEDIATE_FIX));
  }

  @Test
  void executorsLostOnlyInTheSlowRunAreAnInfrastructureChange() {
    Comparison.StagePair rerun = Comparer.pair(stage(3, 200, 20_000, 300_000, 1500, 2000, 300_000, 400_000),
        stage(3, 200, 50_000, 520_000, 1500, 2100, 300_000, 410_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 70_000, 1_000_000, 8, 3, 40), run("base", 30_000, 1_000_000, 8, 0, 0),
        rerun, Optional.empty(), List.of());
    assertThat(v.kind()).isEqualTo(RootCauseKind.INFRASTRUCTURE_CHANGE);
    assertThat(v.explanation()).contains("lost 3 executors");
  }

  @Test
  void changedClassesWithNewConstantsAreACodeChange() {
    Comparison.StagePair slower = Comparer.pair(stage(3, 200, 20_000, 300_000, 1500, 2000, 300_000, 400_000),
        stage(3, 200, 60_000, 900_000, 4500, 6000, 300_000, 410_000), "call site and lineage");
    CodeDiff diff = new CodeDiff("old/app.jar", "new/app.jar", List.of(), List.of(),
        List.of(new CodeDiff.ChangedEntry("com/x/Job.class", List.of("SELECT * FROM orders o JOIN events e"),
            List.of("SELECT * FROM orders"))), 41, List.of());
    Comparison.Verdict v = judge(run("slow", 70_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        slower, Optional.of(diff), List.of());
    assertThat(v.kind()).isEqualTo(RootCauseKind.CODE_CHANGE);
    assertThat(v.explanation()).contains("com/x/Job.class").contains("JOIN events");
  }

  @Test
  void newStagesWithoutTheCodeAreALeadingCodeChangeThatAsksForTheCode() {
    Comparison.StagePair same = Comparer.pair(stage(3, 200, 20_000, 300_000, 1500, 2000, 300_000, 400_000),
        stage(3, 200, 21_000, 310_000, 1500, 2000, 300_000, 400_000), "call site and lineage");
    Comparison.StageStats sort = new Comparison.StageStats(7, 0, "sortBy at Job.scala:61", "save at Job.scala:50",
        "shuffle-read+shuffle-write", 4, 200, 40_000, 600_000, 1_000_000, 64L << 20, 64L << 20, 64L << 20, 0, 0, 0, 3000,
        3500, 300_000, 400_000);
    Comparison.Verdict v = judge(run("slow", 70_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        same, Optional.empty(), List.of(sort));
    assertThat(v.kind()).isEqualTo(RootCauseKind.CODE_CHANGE);
    assertThat(v.toConfirm()).contains("both runs' code");
  }

  @Test
  void slowerPerRecordWithNothingToBlameIsUndeterminedNotARegression() {
    Comparison.StagePair same = Comparer.pair(stage(3, 200, 20_000, 300_000, 1500, 2000, 300_000, 400_000),
        stage(3, 200, 50_000, 700_000, 3500, 4500, 300_000, 400_000), "call site and lineage");
    Comparison.Verdict v = judge(run("slow", 70_000, 1_000_000, 8, 0, 0), run("base", 30_000, 1_000_000, 8, 0, 0),
        same, Optional.empty(), List.of());
    assertThat(v.kind()).isEqualTo(RootCauseKind.UNDETERMINED);
    assertThat(v.alternatives()).hasSizeGreaterThanOrEqualTo(4);
  }

  private static String advice(Comparison.Verdict v) {
    return v.recommendations().stream().map(r -> r.action() + " " + r.rationale()).reduce("", String::concat)
        .toLowerCase(Locale.ROOT);
  }
}
