package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A YARN application stopped underneath its driver is named, not UNDETERMINED: the real run's last
 * job as Spark records it when the YARN client's monitor thread stops the SparkContext (the job
 * cancelled "because SparkContext was shut down", with the stack from {@code
 * YarnClientSchedulerBackend$MonitorThread.run} through {@code SparkContext.stop}).
 */
class ApplicationStoppedTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Spark 3.5's frames for a job cancelled by the YARN client monitor's stop, innermost first. */
  private static final String[][] FRAMES = {
      {"org.apache.spark.scheduler.DAGScheduler", "$anonfun$cleanUpAfterSchedulerStop$1", "DAGScheduler.scala", "1253"},
      {"org.apache.spark.scheduler.DAGScheduler", "cleanUpAfterSchedulerStop", "DAGScheduler.scala", "1251"},
      {"org.apache.spark.scheduler.DAGSchedulerEventProcessLoop", "onStop", "DAGScheduler.scala", "3087"},
      {"org.apache.spark.util.EventLoop", "stop", "EventLoop.scala", "84"},
      {"org.apache.spark.scheduler.DAGScheduler", "stop", "DAGScheduler.scala", "2973"},
      {"org.apache.spark.SparkContext", "$anonfun$stop$12", "SparkContext.scala", "2258"},
      {"org.apache.spark.util.Utils$", "tryLogNonFatalError", "Utils.scala", "1375"},
      {"org.apache.spark.SparkContext", "stop", "SparkContext.scala", "2258"},
      {"org.apache.spark.SparkContext", "stop", "SparkContext.scala", "2211"},
      {"org.apache.spark.scheduler.cluster.YarnClientSchedulerBackend$MonitorThread", "run",
          "YarnClientSchedulerBackend.scala", "125"}};

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void aJobCancelledByTheYarnMonitorsStopNamesTheClusterManager(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "healthy");
    Path log = stoppedByYarn(f, dir);
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString()).build().collect());
    assertThat(r.verdict()).isEqualTo(Verdict.PROBLEM);
    assertThat(r.rootCause().kind()).as(r.toMarkdown()).isEqualTo(RootCauseKind.APPLICATION_STOPPED_BY_CLUSTER_MANAGER);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().stageIds()).containsExactly(2);
    assertThat(r.rootCause().explanation()).contains("YarnClientSchedulerBackend$MonitorThread",
        "job 1 failed with \"Job 1 cancelled because SparkContext was shut down\"");
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> assertThat(e.detail()).contains("MonitorThread.run"));
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
  }

  @Test
  void aFailedJobWithoutTheMonitorsStackIsNotCalledStoppedByTheClusterManager() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build().collect());
    assertThat(r.findings()).noneMatch(x -> x.kind() == RootCauseKind.APPLICATION_STOPPED_BY_CLUSTER_MANAGER);
  }

  /** The healthy run with its last job (1) and stage (2) ended by the monitor thread's stop. */
  private static Path stoppedByYarn(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      String event = e.path("Event").asText();
      if (event.equals("SparkListenerStageCompleted") && e.path("Stage Info").path("Stage ID").asInt() == 2) {
        ((ObjectNode) e.get("Stage Info")).put("Failure Reason", "Stage cancelled because SparkContext was shut down");
      }
      if (event.equals("SparkListenerJobEnd") && e.path("Job ID").asInt() == 1) {
        ObjectNode result = JSON.createObjectNode().put("Result", "JobFailed");
        ObjectNode ex = result.putObject("Exception").put("Message", "Job 1 cancelled because SparkContext was shut down");
        ArrayNode trace = ex.putArray("Stack Trace");
        for (String[] fr : FRAMES) {
          trace.addObject().put("Declaring Class", fr[0]).put("Method Name", fr[1]).put("File Name", fr[2])
              .put("Line Number", Integer.parseInt(fr[3]));
        }
        e.set("Job Result", result);
      }
      out.add(JSON.writeValueAsString(e));
    }
    return Files.write(dir.resolve(f.eventLog().getFileName()), out, StandardCharsets.UTF_8);
  }
}
