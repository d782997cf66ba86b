package io.sparkrca.rules;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The Python stage-diagnostics tests' fixtures in the Dataproc REST shape (camelCase, int64 strings, zeros omitted). */
final class Fixtures {
  private Fixtures() {}

  /** {@code _EXECUTORS}. */
  static final String EXECUTORS =
      "{\"totalDurationMillis\": \"5000\", \"totalInputBytes\": \"2048\", \"completedTasks\": 10,"
          + " \"failedTasks\": 4, \"totalGcTimeMillis\": \"1000\"}";

  /** {@code _API_STAGES}: stage 0 (no id), stage 1 (GC, spill, quantiles), stage 2 (failed). */
  static final String API_STAGES =
      "[{\"status\": \"STAGE_STATUS_COMPLETE\", \"numTasks\": 2,"
          + " \"stageMetrics\": {\"executorRunTimeMillis\": \"1000\"}},"
          + " {\"stageId\": \"1\", \"status\": \"STAGE_STATUS_COMPLETE\", \"numTasks\": 8,"
          + " \"stageMetrics\": {\"executorRunTimeMillis\": \"1000\", \"jvmGcTimeMillis\": \"200\","
          + " \"memoryBytesSpilled\": \"10\", \"diskBytesSpilled\": \"5\"},"
          + " \"taskQuantileMetrics\": {\"durationMillis\": {\"count\": \"8\", \"minimum\": \"1\","
          + " \"percentile50\": \"10\", \"maximum\": \"100\", \"sum\": \"200\"}}},"
          + " {\"stageId\": \"2\", \"status\": \"STAGE_STATUS_FAILED\", \"numTasks\": 4,"
          + " \"numFailedTasks\": 4, \"numKilledTasks\": 1}]";

  /** {@code _CATALOG_STAGES} of the Python stage-diagnostics tests. */
  static final String CATALOG_STAGES =
      "["
          + "{\"numTasks\": 2, \"stageMetrics\": {\"executorRunTimeMillis\": \"1000\"}},"
          + "{\"stageId\": \"1\", \"numTasks\": 8, \"stageMetrics\": {\"executorRunTimeMillis\": \"1000\","
          + " \"jvmGcTimeMillis\": \"200\", \"memoryBytesSpilled\": \"10\", \"diskBytesSpilled\": \"5\"},"
          + " \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10\", \"maximum\": \"100\"}}},"
          + "{\"stageId\": \"2\", \"status\": \"STAGE_STATUS_FAILED\", \"numTasks\": 4, \"numFailedTasks\": 4,"
          + " \"numKilledTasks\": 1},"
          + "{\"stageId\": \"3\", \"numTasks\": 50, \"stageMetrics\": {\"diskBytesSpilled\": \"2147483648\"},"
          + " \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10000\", \"maximum\": \"100000\"},"
          + " \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"10\", \"maximum\": \"100\"}}}},"
          + "{\"stageId\": \"4\", \"numTasks\": 20, \"numKilledTasks\": 25, \"stageMetrics\":"
          + " {\"executorRunTimeMillis\": \"1000\", \"stageShuffleReadMetrics\": {\"bytesRead\": \"1000\"},"
          + " \"stageShuffleWriteMetrics\": {\"writeTimeNanos\": \"200000000\"}},"
          + " \"taskQuantileMetrics\": {\"shuffleWriteMetrics\": {\"writeBytes\": {\"percentile50\": \"100\","
          + " \"maximum\": \"1000\"}}}},"
          + "{\"stageId\": \"5\", \"numTasks\": 12000, \"taskQuantileMetrics\": {\"durationMillis\":"
          + " {\"percentile50\": \"50\", \"maximum\": \"60\"}}},"
          + "{\"stageId\": \"6\", \"numTasks\": 90000, \"stageMetrics\": {\"stageInputMetrics\": {\"bytesRead\": \"100\"}}},"
          + "{\"stageId\": \"7\", \"numTasks\": 10, \"stageMetrics\": {\"diskBytesSpilled\": \"100\"},"
          + " \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"1\", \"maximum\": \"20\"}}}"
          + "]";

  /** Telemetry of stages with the {@code _EXECUTORS} summary. */
  static StageTelemetry telemetry(String stagesJson) {
    return StageTelemetry.fromDataprocJson(
        "{\"sparkApplicationStages\": " + stagesJson + ", \"totalExecutorSummary\": " + EXECUTORS + "}");
  }

  static StageDiagnostics run(String stagesJson, StageRule... rules) {
    return StageRuleEngine.builder().rules(List.of(rules)).build().evaluate(telemetry(stagesJson));
  }

  /** As {@link #run}, with an engine that skips broken rules (each one a warning) instead of refusing them. */
  static StageDiagnostics runSkippingBroken(String stagesJson, StageRule... rules) {
    return StageRuleEngine.builder().rules(List.of(rules)).skipBrokenRules(true).build().evaluate(telemetry(stagesJson));
  }

  /** ruleId → flagged stage ids, the way the Python tests compare results. */
  static Map<String, List<Long>> flagged(StageDiagnostics d) {
    return d.violations().stream()
        .collect(Collectors.toMap(Violation::ruleId, Violation::violatingStageIds, (a, b) -> a, java.util.LinkedHashMap::new));
  }

  static StageRule rule(String id, String expr) {
    return StageRule.of(id, id + " description", expr);
  }
}
