package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.RcaReport;
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
 * "On every one of its 1 attempts" is not determinism: the real bad-record run (partition 2 of
 * stage 0 fails four times) as it reads when {@code spark.task.maxFailures=1} allowed one attempt.
 */
class OneAttemptFailureTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void theRealRunWithFourAttemptsIsAConfirmedDeterministicFailure() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DETERMINISTIC_DATA_FAILURE);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().explanation()).contains("on every one of its 4 attempts");
  }

  @Test
  void oneAllowedAttemptIsSaidAndIsOnlyALeadingHypothesis(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(oneAttempt(f, dir).toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DETERMINISTIC_DATA_FAILURE);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.rootCause().title()).isEqualTo("Partition 2 of stage 0 failed on its only attempt");
    assertThat(r.rootCause().explanation()).contains("on its only attempt (spark.task.maxFailures=1 allowed no retry)")
        .doesNotContain("every one of its");
    assertThat(r.rootCause().toConfirm()).hasValueSatisfying(t -> assertThat(t).contains("allows retries"));
    assertThat(r.rootCause().stageIds()).containsExactly(0);
    assertThat(r.rootCause().partitionIndex()).contains(2);
  }

  @Test
  void theCulpritIsTheTaskWhoseAttemptsAbortedTheJobNotAnEarlierFailureInAStageCancelledWithIt(@TempDir Path dir)
      throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(withCancelledSibling(f, dir).toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DETERMINISTIC_DATA_FAILURE);
    assertThat(r.rootCause().title()).isEqualTo("Partition 2 of stage 0 fails on every attempt");
    assertThat(r.rootCause().stageIds()).startsWith(0);
    assertThat(r.rootCause().partitionIndex()).contains(2);
  }

  /**
   * The run with a second stage (1) in the same job, running beside stage 0, whose partition 2 failed
   * once with the same error 50 ms before stage 0's first failure, and which was cancelled when
   * stage 0's fourth failure aborted the job.
   */
  private static Path withCancelledSibling(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    boolean siblingFailed = false;
    for (String line : Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      String event = e.path("Event").asText();
      if (event.equals("SparkListenerJobStart")) {
        ((com.fasterxml.jackson.databind.node.ArrayNode) e.get("Stage IDs")).add(1);
        ObjectNode info = ((ObjectNode) e.get("Stage Infos").get(0)).deepCopy();
        info.put("Stage ID", 1);
        ((com.fasterxml.jackson.databind.node.ArrayNode) e.get("Stage Infos")).add(info);
        out.add(JSON.writeValueAsString(e));
        continue;
      }
      if (event.equals("SparkListenerTaskEnd") && !siblingFailed
          && e.path("Task End Reason").path("Reason").asText().equals("ExceptionFailure")) {
        ObjectNode start = JSON.createObjectNode().put("Event", "SparkListenerTaskStart").put("Stage ID", 1)
            .put("Stage Attempt ID", 0);
        ObjectNode info = ((ObjectNode) e.get("Task Info")).deepCopy();
        info.put("Task ID", 100).put("Launch Time", info.get("Launch Time").asLong() - 50)
            .put("Finish Time", info.get("Finish Time").asLong() - 50);
        start.set("Task Info", info.deepCopy().put("Finish Time", 0).put("Failed", false));
        ObjectNode end = e.deepCopy().put("Stage ID", 1);
        end.set("Task Info", info);
        out.add(JSON.writeValueAsString(start));
        out.add(JSON.writeValueAsString(end));
        siblingFailed = true;
      }
      out.add(JSON.writeValueAsString(e));
      if (event.equals("SparkListenerStageSubmitted") || event.equals("SparkListenerStageCompleted")) {
        ObjectNode sibling = e.deepCopy();
        ((ObjectNode) sibling.get("Stage Info")).put("Stage ID", 1);
        out.add(out.size() - 1, JSON.writeValueAsString(sibling)); // submitted and cancelled just before stage 0
      }
    }
    return Files.write(dir.resolve(f.eventLog().getFileName()), out, StandardCharsets.UTF_8);
  }

  /**
   * The run as Spark writes it with {@code spark.task.maxFailures=1}: the property set, the failed
   * task's three retries gone, and the abort naming one failure.
   */
  private static Path oneAttempt(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      String event = e.path("Event").asText();
      if ((event.equals("SparkListenerTaskStart") || event.equals("SparkListenerTaskEnd"))
          && e.path("Task Info").path("Attempt").asInt() > 0) {
        continue;
      }
      if (event.equals("SparkListenerEnvironmentUpdate")) {
        ((ObjectNode) e.get("Spark Properties")).put("spark.task.maxFailures", "1");
      }
      out.add(JSON.writeValueAsString(e).replace("failed 4 times", "failed 1 times")
          .replace("Lost task 2.3 in stage 0.0 (TID 6)", "Lost task 2.0 in stage 0.0 (TID 2)"));
    }
    return Files.write(dir.resolve(f.eventLog().getFileName()), out, StandardCharsets.UTF_8);
  }
}
