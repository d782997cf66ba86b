package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.ApplicationEvidence;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.analysis.rca.RcaEngine;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Dataproc's metric insights as findings of the RCA report, on real runs. */
class MetricInsightsTest {
  private static Evidence withRecords(SparkApplication app, List<ClusterEvent> records) {
    return new Evidence(Optional.of(new ApplicationEvidence(app, "given", "given")), Optional.empty(), List.of(), List.of(),
        records, List.of(), List.of());
  }

  private static List<Finding> insights(RcaReport r) {
    return r.findings().stream().filter(f -> f.kind() == RootCauseKind.METRIC_INSIGHT).toList();
  }

  /** An array of the fixture label's evidence (what the generator measured), as text. */
  private static List<String> evidence(TestkitFixtures.Fixture fixture, String key) {
    List<String> out = new java.util.ArrayList<>();
    fixture.label().path("evidence").path(key).forEach(n -> out.add(n.asText()));
    return out;
  }

  /** The fixture's RCA, which must find the run healthy, and its insight whose title contains {@code title}. */
  private static Finding insightOfAHealthyRun(TestkitFixtures.Fixture fixture, String title) {
    RcaReport r = RcaEngine.standard().analyze(EventLogs.replay(fixture.eventLog()));
    assertThat(r.rootCause().kind()).as(fixture.sparkVersion()).isEqualTo(RootCauseKind.HEALTHY);
    return insights(r).stream().filter(i -> i.title().contains(title)).findFirst()
        .orElseThrow(() -> new AssertionError(fixture.sparkVersion() + ": no \"" + title + "\" insight in\n" + r.toMarkdown()));
  }

  @Test
  void aRunThatSpilledHasASpillInsightPointingAtTheStagesAndExecutorsThatSpilled() {
    SparkApplication app = EventLogs.replay(TestkitFixtures.get("3.5.9", "spill").eventLog());
    List<Integer> spilled = app.stages(StageQuery.all()).stream().filter(s -> s.diskBytesSpilled() > 0)
        .map(s -> s.stageId()).distinct().toList();
    assertThat(spilled).as("the fixture spills").isNotEmpty();

    RcaReport r = RcaEngine.standard().analyze(app);

    Finding f = insights(r).stream().filter(i -> i.title().contains("disk bytes spilled")).findFirst().orElseThrow();
    assertThat(f.culprit().stageIds()).containsAnyElementsOf(spilled).isSubsetOf(spilled);
    assertThat(f.culprit().executorIds()).as("the executors, from the stages' per-executor summaries").isNotEmpty();
    assertThat(f.metrics()).anySatisfy(m -> assertThat(m.name()).isEqualTo("threshold"));
    assertThat(f.estimatedCostMs()).as("an observation, not a time cost").isZero();
    assertThat(r.rootCause().kind()).as("the insight never displaces the root cause").isNotEqualTo(RootCauseKind.METRIC_INSIGHT);
    assertThat(r.toJson()).contains("METRIC_INSIGHT");
  }

  @Test
  void aStageThatMultipliesItsRecordsIsAnInsightNamingTheStageAndTheExecutor() {
    for (String version : List.of("3.5.9", "4.0.4")) {
      TestkitFixtures.Fixture fixture = TestkitFixtures.get(version, "data-amplification");
      List<Integer> amplifying = evidence(fixture, "amplifyingStages").stream().map(Integer::valueOf).toList();
      assertThat(amplifying).as("the generator saw a stage multiply its records").isNotEmpty();

      Finding f = insightOfAHealthyRun(fixture, "records written / read");

      assertThat(f.culprit().stageIds()).as(version).containsAll(amplifying);
      assertThat(f.culprit().executorIds()).as("%s: from the stage's per-executor summaries", version)
          .containsExactly("driver");
      assertThat(f.title()).contains("executor driver the most");
      assertThat(f.metrics()).anySatisfy(m -> {
        assertThat(m.name()).isEqualTo("records written / read");
        assertThat(m.value()).isGreaterThanOrEqualTo(5.0);
      });
    }
  }

  @Test
  void aStageThatSpendsItsRunTimeWritingShuffleFilesIsAnInsightNamingTheExecutors() {
    for (String version : List.of("3.5.9", "4.0.4")) {
      TestkitFixtures.Fixture fixture = TestkitFixtures.get(version, "slow-shuffle-write");
      List<Integer> slow = evidence(fixture, "slowShuffleWriteStages").stream().map(Integer::valueOf).toList();
      List<String> executors = evidence(fixture, "executors");
      assertThat(slow).as("the generator saw a stage spend its time writing shuffle files").isNotEmpty();

      Finding f = insightOfAHealthyRun(fixture, "writing shuffle files");

      assertThat(f.culprit().stageIds()).as(version).containsAll(slow);
      assertThat(f.culprit().executorIds()).as("%s: from the stage's task list, both executors wrote alike", version)
          .containsExactlyInAnyOrderElementsOf(executors);
      assertThat(f.title()).contains("executor " + f.culprit().executorIds().get(0) + " the most");
      assertThat(f.evidence()).anySatisfy(e -> assertThat(e.detail())
          .startsWith("per executor, from the task lists of the stages that wrote longest: executor "
              + f.culprit().executorIds().get(0) + " spent "));
      assertThat(f.estimatedCostMs()).isZero();
    }
  }

  @Test
  void failedStagesAreAStageProgressionInsight() {
    SparkApplication app = EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog());
    List<Integer> failed = app.stages(StageQuery.all()).stream().filter(s -> s.status() == StageStatus.FAILED)
        .map(s -> s.stageId()).distinct().toList();
    assertThat(failed).isNotEmpty();

    Finding f = insights(RcaEngine.standard().analyze(app)).stream()
        .filter(i -> i.title().contains("failed or waiting stages")).findFirst().orElseThrow();

    assertThat(f.culprit().stageIds()).containsAll(failed.subList(0, Math.min(10, failed.size())));
    assertThat(f.summary()).contains("threshold");
  }

  @Test
  void aGapBetweenExecutorsRequiredAndRunningInTheAutoscalerRecordsIsAnInsight() {
    SparkApplication app = EventLogs.replay(TestkitFixtures.get("3.5.9", "healthy").eventLog());
    Instant t = Instant.parse("2026-12-01T21:10:00Z");
    List<ClusterEvent> records = List.of(
        new ClusterEvent("Cloud Logging: dataproc.googleapis.com/autoscaler", Optional.of(t), "dataproc batch b-1",
            Optional.empty(), ClusterEventReasons.AUTOSCALER_EXECUTORS, "required=10 running=9", Optional.empty()),
        new ClusterEvent("Cloud Logging: dataproc.googleapis.com/autoscaler", Optional.of(t.plusSeconds(120)),
            "dataproc batch b-1", Optional.empty(), ClusterEventReasons.AUTOSCALER_EXECUTORS,
            "required=40 running=12 constraints=REACHED_MAXIMUM_CLUSTER_SIZE", Optional.empty()));
    Evidence e = withRecords(app, records);

    Finding f = insights(RcaEngine.standard().analyze(e)).stream()
        .filter(i -> i.title().contains("executors required")).findFirst().orElseThrow();

    assertThat(f.title()).contains("needed 40 executors but 12 were running", "2026-12-01T21:12:00Z");
    assertThat(f.summary()).contains("names its constraint");
    assertThat(f.evidence()).anySatisfy(ev -> assertThat(ev.detail()).contains("REACHED_MAXIMUM_CLUSTER_SIZE"));
  }

  @Test
  void aSmallGapIsNoInsight() {
    SparkApplication app = EventLogs.replay(TestkitFixtures.get("3.5.9", "healthy").eventLog());
    Evidence e = withRecords(app, List.of(new ClusterEvent("autoscaler", Optional.empty(), "batch", Optional.empty(),
        ClusterEventReasons.AUTOSCALER_EXECUTORS, "required=10 running=9", Optional.empty())));

    assertThat(insights(RcaEngine.standard().analyze(e))).noneSatisfy(f -> assertThat(f.title()).contains("executors required"));
  }
}
