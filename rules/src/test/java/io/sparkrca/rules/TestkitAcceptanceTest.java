package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Acceptance on the testkit corpus (real Spark 3.5 and 4.0 runs with injected faults,
 * testkit/fixtures/spark-VERSION/SCENARIO/ with label.json): with the recommended catalog, each
 * scenario's culprit stages are flagged by a rule matching its root cause, and the healthy run
 * gets no violation above INFO. Scenarios whose cause is not visible in stage metrics (plan,
 * commit, configuration or input regressions, a driver that never ran a stage) must still not
 * be an ERROR. Skipped with a message when the fixtures are absent.
 */
class TestkitAcceptanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Root cause → the rules that may flag its culprit stages. */
  private static final Map<String, Set<String>> MATCHING =
      Map.of(
          "DETERMINISTIC_DATA_FAILURE", Set.of("STAGE_FAILED", "TASK_FAILURES"),
          "FLAKY_INFRASTRUCTURE", Set.of("TASK_FAILURES"),
          "DATA_SKEW", Set.of("CLEAR_DATA_SKEW"),
          "SPILL", Set.of("SPILL", "EXCESSIVE_DISK_SPILL", "UNDERPARTITIONED_SPILL"),
          "TOO_MANY_SMALL_TASKS", Set.of("TINY_TASK_STORM"),
          "UNDERPARTITIONED", Set.of("UNDERPARTITIONED_STAGE", "UNDERPARTITIONED_SPILL"),
          "EXECUTOR_OOM", Set.of("EXECUTOR_OOM"),
          "EXECUTOR_LOST_FETCH_FAILURE", Set.of("FETCH_FAILURE", "STAGE_RETRIED"),
          "GC_PRESSURE", Set.of("HIGH_GC_OVERHEAD"));

  private static final StageRuleEngine ENGINE = StageRuleEngine.builder().recommended().build();

  static Optional<Path> fixtures() {
    return TestkitFixtures.root();
  }

  @org.junit.jupiter.api.Test
  void theTestkitFixturesArePresent() {
    assumeTrue(
        fixtures().isPresent(),
        "testkit/fixtures is absent: the scenario acceptance is skipped");
  }

  @TestFactory
  Stream<DynamicTest> eachScenarioIsFlaggedByTheMatchingRuleAndTheHealthyRunIsClean() throws IOException {
    List<TestkitFixtures.Fixture> all = TestkitFixtures.all();
    assumeTrue(!all.isEmpty(), "testkit/fixtures is absent: acceptance skipped");
    List<DynamicTest> tests = new ArrayList<>();
    for (TestkitFixtures.Fixture f : all) {
      tests.add(DynamicTest.dynamicTest(f.sparkVersion() + "/" + f.scenario(), () -> check(f.dir())));
    }
    return tests.stream();
  }

  private static void check(Path dir) {
    JsonNode label = read(dir.resolve("label.json"));
    String cause = label.path("rootCause").asText();
    Path log = dir.resolve(label.path("eventLog").path("path").asText());
    StageDiagnostics d = ENGINE.evaluate(EventLogs.replay(log));
    assertThat(d.status()).as("status").isNotEqualTo(DiagnosticStatus.ERROR);
    assertThat(d.warnings()).as("warnings").allMatch(w -> w.equals(StageRuleEngine.NO_STAGES_WARNING));
    if (cause.equals("HEALTHY")) {
      assertThat(d.violations()).as("violations above INFO on the healthy run")
          .allMatch(v -> v.severity() == Severity.INFO);
      return;
    }
    if (cause.equals("DRIVER_FAILURE_BEFORE_FIRST_ACTION")) {
      assertThat(d.stagesAnalyzed()).isZero();
      assertThat(d.warnings()).contains(StageRuleEngine.NO_STAGES_WARNING);
      return;
    }
    Set<String> rules = MATCHING.get(cause);
    if (rules == null) {
      return; // not visible in stage metrics: the plan, commit and baseline analyzers own it
    }
    for (JsonNode id : label.path("culprit").path("stageIds")) {
      long stage = id.asLong();
      boolean flagged =
          d.violations().stream()
              .filter(v -> rules.contains(v.ruleId()))
              .anyMatch(v -> v.violatingStageIds().contains(stage));
      assertThat(flagged)
          .as("culprit stage %d of %s flagged by one of %s; got %s", stage, cause, rules, summary(d))
          .isTrue();
    }
  }

  private static String summary(StageDiagnostics d) {
    StringBuilder sb = new StringBuilder();
    for (Violation v : d.violations()) {
      sb.append(v.ruleId()).append(v.violatingStageIds()).append(' ');
    }
    return sb.toString();
  }

  private static JsonNode read(Path p) {
    try {
      return JSON.readTree(p.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
