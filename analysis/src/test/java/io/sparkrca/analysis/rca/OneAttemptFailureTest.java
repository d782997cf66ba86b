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
