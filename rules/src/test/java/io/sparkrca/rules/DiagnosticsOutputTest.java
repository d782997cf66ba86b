package io.sparkrca.rules;

import static io.sparkrca.rules.Fixtures.API_STAGES;
import static io.sparkrca.rules.Fixtures.rule;
import static io.sparkrca.rules.Fixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The agent's output contract (spark_stage_diagnostics.py's) and the fixes of its defects. */
class DiagnosticsOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StageRule FAILED =
      rule("FAILED", "s.num_failed_tasks > 0")
          .withDetail("string(s.num_failed_tasks) + ' failed'")
          .withRemediation("Read the failed tasks' errors.");
  private static final StageRule SPILL = rule("SPILL", "s.stage_metrics.memory_bytes_spilled > 0");

  private static JsonNode json(StageDiagnostics d, OutputContract c) throws Exception {
    return JSON.readTree(d.toJson(c));
  }

  @Test
  void theAgentShapeHasExactlyTheAgentKeys() throws Exception {
    JsonNode j = json(run(API_STAGES, FAILED, SPILL), OutputContract.AGENT);
    assertThat(j.get("status").asText()).isEqualTo("FAIL");
    assertThat(j.get("errorMessage").isNull()).isTrue();
    JsonNode s = j.get("summary");
    assertThat(List.of(s.get("totalDurationMs").asLong(), s.get("totalInputBytes").asLong(), s.get("activeTasks").asLong(),
            s.get("completedTasks").asLong(), s.get("failedTasks").asLong(), s.get("killedTasks").asLong()))
        .containsExactly(5000L, 2048L, 0L, 10L, 4L, 1L);
    JsonNode v = j.get("violations").get(0);
    assertThat(v.fieldNames()).toIterable()
        .containsExactly("ruleId", "description", "violatingStageIds", "remediation", "details");
    assertThat(v.get("violatingStageIds").toString()).isEqualTo("[2]");
    assertThat(v.get("details").get(0).toString()).isEqualTo("{\"stageId\":2,\"detail\":\"4 failed\"}");
    JsonNode metrics = j.get("stageMetrics");
    assertThat(metrics.findValuesAsText("stageId")).containsExactly("2", "1");
    JsonNode one = metrics.get(1);
    assertThat(one.get("stageMetrics").get("jvmGcTimeMillis").asLong()).isEqualTo(200);
    assertThat(one.get("stageMetrics").get("inputBytesRead").asLong()).isZero();
    JsonNode dur = one.get("taskQuantiles").get("durationMillis");
    assertThat(List.of(dur.get("minimum").asLong(), dur.get("percentile50").asLong(), dur.get("maximum").asLong(), dur.get("sum").asLong()))
        .containsExactly(1L, 10L, 100L, 200L);
    assertThat(one.get("taskQuantiles").get("inputBytes").isNull()).isTrue();
    assertThat(metrics.get(0).get("taskQuantiles").isNull()).isTrue();
  }

  @Test
  void theDefaultShapeAddsSeverityAttemptsAndCounts() throws Exception {
    JsonNode j = json(run(API_STAGES, FAILED, SPILL), OutputContract.SPARKRCA);
    JsonNode v = j.get("violations").get(0);
    assertThat(v.get("severity").asText()).isEqualTo("MEDIUM");
    assertThat(v.get("details").get(0).get("stageAttemptId").asInt()).isZero();
    assertThat(j.get("stageMetrics").get(0).has("stageAttemptId")).isTrue();
    assertThat(j.get("rulesEvaluated").asInt()).isEqualTo(2);
    assertThat(j.get("summary").get("executorRunTimeMs").asLong()).isEqualTo(2000);
    assertThat(j.get("summary").get("jvmGcTimeMs").asLong()).isEqualTo(200);
    assertThat(json(run(API_STAGES, FAILED), OutputContract.AGENT).get("summary").has("executorRunTimeMs")).isFalse();
    assertThat(j.get("stagesAnalyzed").asInt()).isEqualTo(3);
    assertThat(j.fieldNames().next()).isEqualTo("applicationId");
  }

  @Test
  void jsonUsesTwoSpaceIndentAndPythonStyleSeparators() {
    String text = run(API_STAGES, FAILED).toJson();
    assertThat(text).startsWith("{\n  \"applicationId\": null,\n  \"status\": \"FAIL\",");
  }

  @Test
  void passAndErrorPayloads() throws Exception {
    JsonNode pass = json(run(API_STAGES, rule("NONE", "false")), OutputContract.AGENT);
    assertThat(pass.get("status").asText()).isEqualTo("PASS");
    assertThat(pass.get("violations").size()).isZero();

    StageDiagnostics error = StageDiagnostics.error(Optional.of("app-1"), "No Spark application found", List.of());
    JsonNode agent = json(error, OutputContract.AGENT);
    assertThat(agent.toString())
        .isEqualTo("{\"status\":\"ERROR\",\"errorMessage\":\"No Spark application found\",\"violations\":[],\"stageMetrics\":[],\"summary\":null,\"warnings\":[]}");
    JsonNode ours = json(error, OutputContract.SPARKRCA);
    assertThat(ours.get("applicationId").asText()).isEqualTo("app-1");
    assertThat(ours.get("status").asText()).isEqualTo("ERROR");
    // The error shape every sparkrca JSON document shares; the agent's shape above has none of it.
    assertThat(ours.get("exitCode").asInt()).isEqualTo(2);
    assertThat(ours.get("error").get("message").asText()).isEqualTo("No Spark application found");
    assertThat(error.status().exitCode()).isEqualTo(2);
  }

  @Test
  void theAgentShapeKeepsTheFirstAttemptPerStageWhileOursKeepsEveryAttempt() throws Exception {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"11\", \"numFailedTasks\": 3, \"numKilledTasks\": 2}, {\"stageId\": \"11\", \"stageAttemptId\": 1, \"numFailedTasks\": 1, \"numKilledTasks\": 1}]",
            FAILED);
    assertThat(json(d, OutputContract.AGENT).get("stageMetrics").size()).isEqualTo(1);
    assertThat(json(d, OutputContract.AGENT).get("summary").get("killedTasks").asLong()).isEqualTo(3);
    JsonNode ours = json(d, OutputContract.SPARKRCA);
    assertThat(ours.get("stageMetrics").size()).isEqualTo(2);
    assertThat(ours.get("summary").get("killedTasks").asLong()).isEqualTo(1);
    assertThat(ours.get("summary").get("killedTasksAllAttempts").asLong()).isEqualTo(3);
    assertThat(ours.get("violations").get(0).get("violatingStageIds").toString()).isEqualTo("[11,11]");
  }

  @Test
  void markdownReportHasTheAgentLabels() {
    String md = run(API_STAGES, FAILED).toMarkdown();
    assertThat(md)
        .startsWith("# Spark Stage Diagnostics Report\n\n")
        .contains("- **Status**: FAIL\n")
        .contains("- **Rules Evaluated**: 1\n")
        .contains("#### [FAILED] FAILED description")
        .contains("- **Remediation / Recommendation**: Read the failed tasks' errors.")
        .contains("  - **Stage 2**: 4 failed")
        .contains("### Violating Stage Metrics")
        .contains("| 2 | 4 (1) |")
        .contains("- **Tasks**: 10 completed, 4 failed, 1 killed, 0 active")
        .contains("- **Executor Run Time** (summed over every stage attempt): 2.0 s; **JVM GC Time**: 200 ms"
            + " (10.0% of executor run time); **Input**: 2.0 KiB")
        .doesNotContain("Total Task Time");
  }

  @Test
  void markdownCountsSkippedRulesAndListsWarnings() {
    String md =
        Fixtures.runSkippingBroken(
                API_STAGES,
                rule("OK", "s.num_failed_tasks > 0"),
                rule("BAD", "s.num_tasks >"),
                rule("BAD_DETAIL", "s.num_failed_tasks > 0").withDetail("str(s.num_tasks)"))
            .toMarkdown();
    assertThat(md)
        .contains("**Rules Evaluated**: 2 (1 skipped, see Warnings)")
        .contains("rule 'BAD' could not be evaluated")
        .contains("detail of rule 'BAD\\_DETAIL' could not be rendered".replace("\\_", "_"))
        .contains("**Stage 2**: Rule expression matched.");
  }

  @Test
  void markdownEscapesTextThatCouldAddStructure() {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"1\", \"name\": \"x\", \"failureReason\": \"boom | <script> [link](http://x) `code`\\n# heading\"}]",
            rule("R", "s.failure_reason != ''").withDetail("s.failure_reason"));
    String md = d.toMarkdown();
    assertThat(md).contains("boom \\| \\<script\\> \\[link\\](http://x) \\`code\\` # heading");
    assertThat(md).doesNotContain("\n# heading");
  }

  @Test
  void passWithNoMatchSaysItIsNotAGuarantee() {
    assertThat(run(API_STAGES, rule("NONE", "false")).toMarkdown())
        .contains("### Result: None of the supplied rules matched");
  }
}
