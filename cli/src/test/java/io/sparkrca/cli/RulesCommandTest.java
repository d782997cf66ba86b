package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RulesCommandTest {
  private static final String EMPTY_APP =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
          + "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"Demo\",\"App ID\":\"app-1\",\"Timestamp\":1704067200000,\"User\":\"u\"}\n"
          + "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1704067202000}\n";

  private static Path failedStageLog() {
    Optional<Path> shs = SharedData.shsConformance();
    assumeTrue(shs.isPresent(), "../shared/conformance is absent");
    return shs.get().resolve("spark-events/local-1422981780767");
  }

  @Test
  void listPrintsTheRecommendedCatalog() {
    CliRun run = CliRun.of("rules", "--list");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("| Rule | Severity | Detects |").contains("| CLEAR_DATA_SKEW | HIGH |");
  }

  @Test
  void noRulesIsAnErrorOnOneLine(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), EMPTY_APP);
    CliRun run = CliRun.of("rules", log.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(run.err()).startsWith("sparkrca: no diagnostic rules supplied");
  }

  @Test
  void aFailedStageFailsWithExitOne() {
    CliRun run = CliRun.of("rules", "--recommended", failedStageLog().toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("- **Status**: FAIL").contains("[STAGE\\_FAILED]".replace("\\_", "_"));
  }

  @Test
  void aRuleThatDoesNotMatchPassesWithExitZeroAsJson() throws IOException {
    CliRun run =
        CliRun.of("rules", "--format", "json", "--rule", "{\"ruleId\": \"NONE\", \"expression\": \"s.num_tasks > 1000000\"}", failedStageLog().toString());
    assertThat(run.exitCode()).isZero();
    JsonNode j = new ObjectMapper().readTree(run.out());
    assertThat(j.get("status").asText()).isEqualTo("PASS");
    assertThat(j.get("applicationId").asText()).isEqualTo("local-1422981780767");
  }

  @Test
  void theAgentContractHasOnlyTheAgentKeys() throws IOException {
    CliRun run =
        CliRun.of("rules", "--format", "json", "--contract", "agent", "--rule",
            "[{\"ruleId\": \"FAILED\", \"expression\": \"s.num_failed_tasks > 0\"}]", failedStageLog().toString());
    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode v = new ObjectMapper().readTree(run.out()).get("violations").get(0);
    assertThat(v.fieldNames()).toIterable().containsExactly("ruleId", "description", "violatingStageIds", "remediation", "details");
  }

  @Test
  void anUnreadableLogIsAnErrorNeverAPass(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("garbage"), "this is not an event log\n");
    CliRun run = CliRun.of("rules", "--recommended", "--format", "json", log.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(run.out()).get("status").asText()).isEqualTo("ERROR");
    CliRun missing = CliRun.of("rules", "--recommended", dir.resolve("missing").toString());
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("sparkrca: ");
  }

  @Test
  void zeroStagesPassButWarn(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), EMPTY_APP);
    CliRun run = CliRun.of("rules", "--recommended", log.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("NOT a clean bill of health");
    assertThat(run.err()).contains("Warning: No stage telemetry");
  }

  @Test
  void badRuleJsonIsOneLineExitTwo(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), EMPTY_APP);
    CliRun run = CliRun.of("rules", "--rule", "{not json", log.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("sparkrca: --rule is not valid JSON");
    CliRun file = CliRun.of("rules", "--rules", dir.resolve("nope.json").toString(), log.toString());
    assertThat(file.exitCode()).isEqualTo(2);
    assertThat(file.err()).contains("rule file " + dir.resolve("nope.json") + " not found");
  }

  private static final String TYPO_AND_FAILED =
      "[{\"ruleId\": \"TYPO\", \"expression\": \"s.stage_metrics.jvm_gc_ms > 0\"}, {\"ruleId\": \"FAILED\", \"expression\": \"s.num_failed_tasks > 0\"}]";

  @Test
  void aRuleNamingAFieldThatDoesNotExistIsAnErrorWithExitTwoNeverAPass() throws IOException {
    CliRun md = CliRun.of("rules", "--rule", TYPO_AND_FAILED, failedStageLog().toString());
    assertThat(md.exitCode()).isEqualTo(2);
    assertThat(md.out()).isEmpty();
    assertThat(md.err().strip().lines()).hasSize(1);
    assertThat(md.err())
        .startsWith("sparkrca: rule 'TYPO' does not compile: CelTypeError: undefined field 'jvm_gc_ms' on StageMetrics"
            + " (did you mean jvm_gc_time_millis")
        .contains("pass --skip-broken-rules")
        .doesNotContain("skipBrokenRules(true)");

    CliRun json = CliRun.of("rules", "--format", "json", "--rule", TYPO_AND_FAILED, failedStageLog().toString());
    assertThat(json.exitCode()).isEqualTo(2);
    JsonNode j = new ObjectMapper().readTree(json.out());
    assertThat(j.get("status").asText()).isEqualTo("ERROR");
    assertThat(j.get("errorMessage").asText())
        .contains("rule 'TYPO' does not compile")
        .contains("did you mean jvm_gc_time_millis");
    assertThat(j.get("violations")).isEmpty();
  }

  @Test
  void aRuleThatDoesNotParseOrABrokenDetailIsAnErrorToo() throws IOException {
    CliRun syntax = CliRun.of("rules", "--format", "json", "--rule", "{\"ruleId\": \"BAD\", \"expression\": \"s.num_tasks >\"}", failedStageLog().toString());
    assertThat(syntax.exitCode()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(syntax.out()).get("errorMessage").asText()).contains("rule 'BAD' does not compile: CelSyntaxError");
    CliRun detail = CliRun.of("rules", "--rule",
        "{\"ruleId\": \"D\", \"expression\": \"s.num_tasks > 0\", \"detail\": \"string(s.num_tsks)\"}", failedStageLog().toString());
    assertThat(detail.exitCode()).isEqualTo(2);
    assertThat(detail.err()).contains("the detail of rule 'D' does not compile").contains("did you mean num_tasks");
  }

  @Test
  void skipBrokenRulesRunsTheOthersAndKeepsTheWarning() {
    CliRun run = CliRun.of("rules", "--skip-broken-rules", "--rule", TYPO_AND_FAILED, failedStageLog().toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.err()).contains("Warning: rule 'TYPO'").contains("did you mean jvm_gc_time_millis");
    assertThat(run.out()).contains("**Rules Evaluated**: 1 (1 skipped, see Warnings)");
  }

  @Test
  void aRuleThatFailsWhenEvaluatedIsAWarningThatSaysSo() {
    CliRun run =
        CliRun.of("rules", "--rule",
            "[{\"ruleId\": \"DIV\", \"expression\": \"s.num_tasks / s.num_failed_tasks > 1\"}, {\"ruleId\": \"NONE\", \"expression\": \"s.num_tasks > 1000000\"}]",
            failedStageLog().toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.err())
        .contains("Warning: rule 'DIV' could not be evaluated and was skipped: CelEvalError: division by zero")
        .contains("the rule compiles, but failed when evaluated on stage");
    assertThat(run.out()).contains("1 rule was skipped (see Warnings) and could not match.");
  }

  @Test
  void theHelpNamesTheRuleVariablesAndHelpers() {
    CliRun run = CliRun.of("rules", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out())
        .contains("  s       the stage attempt")
        .contains("  stages  every stage attempt")
        .contains("  total_executor_summary")
        .contains("  conf    in advice conditions");
    // Prose paragraphs are wrapped to the terminal's width (picocli may break a line before a "(").
    assertThat(run.out().replaceAll("\\s+", " ").replace(" (", "("))
        .contains("ratio(a, b)", "mb(n)", "gb(n)", "seconds_between(t1, t2)", "sum(list)", "round(x, digits)",
            "human_bytes(n)", "human_millis(ms)", "truncate(text, n)")
        .contains("--skip-broken-rules")
        .contains("${...}");
  }

  @Test
  void aDataprocTelemetryExportRunsTheAgentsRulesUnchanged(@TempDir Path dir) throws IOException {
    Path telemetry =
        Files.writeString(
            dir.resolve("telemetry.json"),
            "{\"sparkApplicationStages\": [{\"numTasks\": 2}, {\"stageId\": \"2\", \"status\": \"STAGE_STATUS_FAILED\","
                + " \"numTasks\": 4, \"numFailedTasks\": 4}], \"totalExecutorSummary\": {\"failedTasks\": 4}}");
    Path rules =
        Files.writeString(
            dir.resolve("rules.json"),
            "[{\"ruleId\": \"FAILED\", \"description\": \"Failed tasks\", \"expression\": \"stages.filter(s, s.num_failed_tasks > 0)\","
                + " \"detail\": \"string(s.num_failed_tasks) + ' failed'\"}, {\"ruleId\": \"BROKEN\", \"expression\": \"s.nope > 0\"}]");
    // The agent skips broken rules; sparkrca does so only when asked.
    CliRun strict = CliRun.of("rules", "--format", "json", "--rules", rules.toString(), "--telemetry", telemetry.toString());
    assertThat(strict.exitCode()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(strict.out()).get("errorMessage").asText()).contains("rule 'BROKEN'");
    CliRun run = CliRun.of("rules", "--format", "json", "--skip-broken-rules", "--rules", rules.toString(), "--telemetry", telemetry.toString());
    assertThat(run.exitCode()).isEqualTo(1);
    JsonNode j = new ObjectMapper().readTree(run.out());
    assertThat(j.get("summary").get("failedTasks").asInt()).isEqualTo(4);
    assertThat(j.get("violations").get(0).get("violatingStageIds").toString()).isEqualTo("[2]");
    assertThat(j.get("warnings").get(0).asText()).contains("rule 'BROKEN'").contains("undefined field 'nope'");
    CliRun missing = CliRun.of("rules", "--format", "json", "--rules", rules.toString(), "--telemetry", dir.resolve("none.json").toString());
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(missing.out()).get("status").asText()).isEqualTo("ERROR");
  }

  @Test
  void showTelemetryPrintsTheValuesRulesSee() {
    CliRun run = CliRun.of("rules", "--show-telemetry", failedStageLog().toString());
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("\"stage_metrics\"").contains("\"total_executor_summary\"");
  }
}
