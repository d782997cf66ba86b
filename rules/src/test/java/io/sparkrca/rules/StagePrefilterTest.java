package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The prefilter is exact, and threads change nothing: every rule flags the same stages. */
class StagePrefilterTest {
  private static String randomStage(Random r, int id) {
    long run = r.nextInt(4) == 0 ? r.nextInt(100) : r.nextInt(400_000);
    long p50 = 1 + r.nextInt(5000);
    long max = p50 * (1 + r.nextInt(r.nextBoolean() ? 2 : 30));
    long bytes = r.nextInt(3) == 0 ? 0 : 1L + r.nextInt(300) * 1048576L;
    return "{\"stageId\": \"" + id + "\", \"stageAttemptId\": " + (r.nextInt(20) == 0 ? 1 : 0)
        + ", \"status\": \"" + (r.nextInt(10) == 0 ? "STAGE_STATUS_FAILED" : "STAGE_STATUS_COMPLETE") + "\""
        + ", \"numTasks\": " + r.nextInt(3000) + ", \"numFailedTasks\": " + r.nextInt(3)
        + ", \"numKilledTasks\": " + (r.nextInt(5) == 0 ? r.nextInt(40) : 0)
        + (r.nextInt(8) == 0 ? ", \"failureReason\": \"java.lang.OutOfMemoryError: Java heap space\"" : "")
        + ", \"stageMetrics\": {\"executorRunTimeMillis\": \"" + run + "\", \"jvmGcTimeMillis\": \"" + (run * r.nextInt(50) / 100)
        + "\", \"diskBytesSpilled\": \"" + (r.nextInt(4) == 0 ? bytes * 8 : 0) + "\", \"stageInputMetrics\": {\"bytesRead\": \"" + bytes
        + "\"}, \"stageShuffleReadMetrics\": {\"fetchWaitTimeMillis\": \"" + run / (1 + r.nextInt(5)) + "\"}}"
        + (r.nextInt(5) == 0 ? "" : ", \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"" + p50 + "\", \"maximum\": \"" + max
            + "\"}, \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"" + bytes / 10 + "\", \"maximum\": \"" + bytes + "\"}}}")
        + "}";
  }

  @Test
  void theRecommendedCatalogFlagsTheSameStagesWithAndWithoutThePrefilter() {
    Random r = new Random(7);
    List<String> stages = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      stages.add(randomStage(r, i));
    }
    StageTelemetry t =
        StageTelemetry.fromDataprocJson(
            "{\"stages\": [" + String.join(",", stages) + "], \"totalExecutorSummary\": {\"totalCores\": 16, \"totalDurationMillis\": \"900000\"}}");
    StageDiagnostics fast = StageRuleEngine.builder().recommended().build().evaluate(t);
    StageDiagnostics slow = StageRuleEngine.builder().recommended().prefilter(false).build().evaluate(t);
    assertThat(fast.violations()).isEqualTo(slow.violations());
    assertThat(fast.warnings()).isEqualTo(slow.warnings());
    assertThat(fast.violations()).hasSizeGreaterThan(8);
    StageDiagnostics parallel = StageRuleEngine.builder().recommended().parallelism(3).build().evaluate(t);
    assertThat(parallel).isEqualTo(fast);
  }

  @Test
  void aSimpleFloorRejectsWithoutCelAndAnUnknownTopIsLeftToCel() {
    StageDiagnostics d =
        Fixtures.run(
            "[{\"stageId\": \"1\", \"numTasks\": 5}, {\"stageId\": \"2\", \"numTasks\": 50}]",
            Fixtures.rule("FLOOR", "s.num_tasks >= 10 && s.num_tasks / 0 > 1"),
            Fixtures.rule("OR", "s.num_tasks > 40 || s.name == 'x'"),
            Fixtures.rule("NOT", "!(s.num_tasks < 10) && has(s.stage_metrics) == false"),
            Fixtures.rule("ENUM", "s.status == google.cloud.dataproc.v1.StageStatus.STAGE_STATUS_UNSPECIFIED && s.num_tasks > 10"));
    assertThat(Fixtures.flagged(d)).containsEntry("OR", List.of(2L)).containsEntry("NOT", List.of(2L)).containsEntry("ENUM", List.of(2L));
    // FLOOR: stage 1 is rejected by the floor; stage 2 reaches CEL and divides by zero.
    assertThat(d.warnings()).singleElement().asString().contains("rule 'FLOOR'").contains("division by zero");
  }
}
