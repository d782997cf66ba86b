package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
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
 * Waiting to launch is not work: the real healthy run with its last stage (one task, on two
 * cores) made to wait 19 s for its task to launch and then run 2.7 s, the shape of a Dataproc GPU
 * run that was called UNDERPARTITIONED, CONFIRMED. The wait is named; the partition count is not.
 */
class LaunchWaitTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long WAIT_MS = 19_000;

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void aOneTaskStageThatWaitedLongerThanItRanIsResourceStarvationNotUnderpartitioned(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "healthy");
    Path log = delayLastStage(f, dir);
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString())
        .driverLog(f.driverLog().toString()).build().collect());
    assertThat(r.rootCause().kind()).as(r.toMarkdown()).isEqualTo(RootCauseKind.RESOURCE_STARVATION);
    // Local mode: the driver's cores were there, so what held the task back is a hypothesis.
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.rootCause().stageIds()).containsExactly(2);
    assertThat(r.rootCause().explanation()).contains("19.1 s later", "ran for 2.7 s", "more partitions would not");
    assertThat(r.findings()).noneMatch(x -> x.kind() == RootCauseKind.UNDERPARTITIONED);
    assertThat(r.recommendations()).isNotEmpty();
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
  }

  @Test
  void theIntactRunHasNoLaunchWaitFinding() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "healthy");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build().collect());
    assertThat(r.findings()).noneMatch(x -> x.kind() == RootCauseKind.RESOURCE_STARVATION);
  }

  /**
   * The healthy run with stage 2's one task launched 19 s after the stage was submitted and running
   * 1.8 s longer (2.7 s): every later time moves with it, the stage's submission does not.
   */
  private static Path delayLastStage(TestkitFixtures.Fixture f, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    long shift = 0;
    for (String line : Files.readAllLines(f.eventLog(), StandardCharsets.UTF_8)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      String event = e.path("Event").asText();
      boolean stage2 = e.path("Stage ID").asInt(-1) == 2;
      if (event.equals("SparkListenerTaskStart") && stage2) {
        shift = WAIT_MS;
      }
      if (event.equals("SparkListenerTaskEnd") && stage2) {
        ObjectNode info = (ObjectNode) e.get("Task Info");
        long launch = info.get("Launch Time").asLong() + WAIT_MS;
        long run = 2_700;
        info.put("Launch Time", launch);
        info.put("Finish Time", launch + run);
        ObjectNode metrics = (ObjectNode) e.get("Task Metrics");
        metrics.put("Executor Run Time", run - 100);
        out.add(JSON.writeValueAsString(e));
        shift = WAIT_MS + run - originalDuration(line); // everything after the task ends later by the wait and the longer run
        continue;
      }
      if (shift > 0) {
        shiftTimes(e, shift);
      }
      out.add(JSON.writeValueAsString(e));
    }
    return Files.write(dir.resolve(f.eventLog().getFileName()), out, StandardCharsets.UTF_8);
  }

  private static long originalDuration(String taskEndLine) throws IOException {
    var info = JSON.readTree(taskEndLine).get("Task Info");
    return info.get("Finish Time").asLong() - info.get("Launch Time").asLong();
  }

  /** Moves an event's own times by {@code shift}; a stage's submission stays where it was. */
  private static void shiftTimes(ObjectNode e, long shift) {
    for (String field : List.of("Timestamp", "Completion Time", "time")) {
      if (e.path(field).isNumber() && e.get(field).asLong() > 0) {
        e.put(field, e.get(field).asLong() + shift);
      }
    }
    if (e.get("Task Info") instanceof ObjectNode info) {
      for (String field : List.of("Launch Time", "Finish Time")) {
        if (info.path(field).asLong() > 0) {
          info.put(field, info.get(field).asLong() + shift);
        }
      }
    }
    if (e.get("Stage Info") instanceof ObjectNode stage && stage.path("Completion Time").asLong() > 0) {
      stage.put("Completion Time", stage.get("Completion Time").asLong() + shift);
    }
  }
}
