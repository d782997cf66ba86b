package io.sparkrca.gcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocHistoryProvider;
import io.sparkrca.gcp.testing.RepeatedStages;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import io.sparkrca.analysis.rca.RcaEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RCA of an application with hundreds of skewed stages through sparkApplications (the real
 * client against the loopback fake): the slowest task is read only for the skewed stages the
 * report can hold, and those task lists are asked for side by side.
 */
class ManyStagesRcaTest {
  @Test
  void onlyTheSkewedStagesTheReportCanHoldHaveTheirTasksReadAndTheyAreReadSideBySide() throws Exception {
    SparkApplication big = new RepeatedStages(
        EventLogs.replay(TestkitFixtures.get("3.5.9", "skew-join").eventLog()), 1000);
    String parent = "projects/p/locations/us-central1/batches/many";
    try (SparkApplicationsFake fake = new SparkApplicationsFake()) {
      fake.serve(parent, big).latency(20); // long enough for the lists asked at once to meet at the fake
      GcpSettings s = GcpSettings.builder().environment(Map.of()).project("p").region("us-central1")
          .sparkApplicationsEndpoint(fake.endpoint()).parallelism(4).timeout(Duration.ofSeconds(60)).build();
      SparkApplication app = new DataprocHistoryProvider(s).application("dataproc:" + parent, SourceSettings.defaults());

      RcaReport r = RcaEngine.standard().analyze(app);

      List<Finding> skew = r.findings().stream().filter(f -> f.kind() == RootCauseKind.DATA_SKEW).toList();
      assertThat(r.findings()).hasSize(RcaEngine.MAX_FINDINGS);
      assertThat(r.notes()).anySatisfy(n -> assertThat(n).endsWith("more findings were left out of the report."));
      assertThat(skew).as("every reported skew names its straggler's partition and executor").isNotEmpty()
          .allSatisfy(f -> {
            assertThat(f.culprit().partitionIndex()).isPresent();
            assertThat(f.culprit().executorIds()).isNotEmpty();
          });
      List<String> stagesRead = fake.log().stream().filter(l -> l.contains(":searchStageAttemptTasks"))
          .map(l -> l.replaceAll(".*[?&]stageId=(\\d+).*", "$1")).toList();
      assertThat(stagesRead.stream().distinct()).as("one task list per skewed stage the report can hold")
          .hasSize(RcaEngine.MAX_FINDINGS);
      // The root cause's stage may be read once more after the bounded cache of task lists dropped it.
      String root = Integer.toString(r.rootCause().culprit().stageIds().get(0));
      assertThat(stagesRead.size() - RcaEngine.MAX_FINDINGS).isBetween(0, 1);
      assertThat(stagesRead.subList(RcaEngine.MAX_FINDINGS, stagesRead.size())).allMatch(root::equals);
      assertThat(fake.maxInFlight()).as("the task lists side by side, within the parallelism").isEqualTo(4);
    }
  }
}
