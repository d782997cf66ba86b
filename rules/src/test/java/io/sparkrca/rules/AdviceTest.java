package io.sparkrca.rules;

import static io.sparkrca.rules.Fixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Advice: offered per configuration and per flagged stage, with values from the configuration embedded in its text. */
class AdviceTest {
  private static final String STAGES =
      "[{\"stageId\": \"1\", \"numTasks\": 4, \"stageMetrics\": {\"stageShuffleReadMetrics\": {\"bytesRead\": \"100\"}}},"
          + " {\"stageId\": \"2\", \"numTasks\": 4, \"stageMetrics\": {\"stageInputMetrics\": {\"bytesRead\": \"100\"}}},"
          + " {\"stageId\": \"3\", \"numTasks\": 1}]";

  private static StageDiagnostics run(Optional<Map<String, String>> conf, StageRule r) {
    StageTelemetry t = Fixtures.telemetry(STAGES);
    if (conf.isPresent()) {
      t = t.withConfiguration(conf.get(), Optional.of("3.5.1"));
    }
    return StageRuleEngine.builder().rule(r).build().evaluate(t);
  }

  private static StageRule withAdvice(String expression, Advice... advice) {
    return rule("R", expression).withRemediation("Look.").withAdvice(List.of(advice));
  }

  @Test
  void aTextEmbedsTheEffectiveValueOfAProperty() {
    StageDiagnostics d = run(Optional.of(Map.of("spark.sql.shuffle.partitions", "64")),
        withAdvice("s.num_tasks == 4",
            new Advice("", "Partitions: ${conf['spark.sql.shuffle.partitions']}; AQE ${conf['spark.sql.adaptive.enabled']}."),
            new Advice("", "Overhead: ${'spark.executor.memoryOverhead' in conf ? conf['spark.executor.memoryOverhead'] : 'unset'}.")));
    assertThat(d.violations().get(0).remediation())
        .isEqualTo("Look. Partitions: 64; AQE true. Overhead: unset.");
    assertThat(d.warnings()).isEmpty();
  }

  @Test
  void aValueThatCannotBeReadLeavesTheAdviceOutWithAWarning() {
    StageDiagnostics d = run(Optional.of(Map.of()),
        withAdvice("s.num_tasks == 4", new Advice("", "Overhead: ${conf['spark.executor.memoryOverhead']}.")));
    assertThat(d.violations().get(0).remediation()).isEqualTo("Look.");
    assertThat(d.warnings()).singleElement().asString()
        .startsWith("advice of rule 'R' was left out: a value its text embeds could not be read from the configuration");
  }

  @Test
  void adviceEmbeddingValuesIsNotOfferedWhenTheConfigurationIsUnknown() {
    StageDiagnostics d = run(Optional.empty(),
        withAdvice("s.num_tasks == 4",
            new Advice("", "Partitions: ${conf['spark.sql.shuffle.partitions']}."),
            new Advice("conf['spark.speculation'] != 'true'", "Turn on speculation.")));
    assertThat(d.violations().get(0).remediation())
        .isEqualTo("Look. If not already set (the configuration is unknown): Turn on speculation.");
  }

  @Test
  void aStageConditionKeepsAdviceToTheStagesItFits() {
    Advice shuffleOnly = new Advice("", "s.stage_metrics.stage_shuffle_read_metrics.bytes_read > 0", "Coalesce.");
    StageDiagnostics all = run(Optional.of(Map.of()), withAdvice("s.num_tasks == 4", shuffleOnly));
    assertThat(all.violations().get(0).remediation()).isEqualTo("Look. For stage 1: Coalesce.");
    StageDiagnostics shuffle = run(Optional.of(Map.of()), withAdvice("s.stage_id == 1", shuffleOnly));
    assertThat(shuffle.violations().get(0).remediation()).isEqualTo("Look. Coalesce.");
    StageDiagnostics scan = run(Optional.of(Map.of()), withAdvice("s.stage_id == 2", shuffleOnly));
    assertThat(scan.violations().get(0).remediation()).isEqualTo("Look.");
  }

  @Test
  void aStageConditionIsNeverTrueForAnApplicationLevelFinding() {
    StageDiagnostics d = run(Optional.of(Map.of()),
        withAdvice("size(stages) == 3",
            new Advice("", "s.num_tasks > 0", "Per stage."),
            new Advice("", "total_executor_summary.failed_tasks == 4", "Totals.")));
    assertThat(d.violations().get(0).remediation()).isEqualTo("Look. Totals.");
  }

  @Test
  void theStageConditionAndTheValuesRoundTripThroughTheRuleFormat() {
    StageRule r = withAdvice("s.num_tasks == 4",
        new Advice("conf['spark.sql.adaptive.enabled'] == 'true'", "s.num_tasks > 1", "AQE: ${conf['spark.sql.adaptive.enabled']}."),
        new Advice("", "Always."));
    RuleCatalog c = RuleCatalog.of(List.of(r));
    String json = c.toJson();
    assertThat(json).contains("\"stageWhen\" : \"s.num_tasks > 1\"");
    assertThat(RuleCatalog.parse(json, "round trip")).isEqualTo(c);
  }

  @Test
  void sumTotalsAStageMetricForApplicationRules() {
    StageDiagnostics d = run(Optional.empty(),
        rule("R", "sum(stages.map(x, x.num_tasks)) == 9 && sum([0.5, 0.25]) == 0.75 && sum([]) == 0")
            .withDetail("string(sum(stages.map(x, x.num_tasks)))"));
    assertThat(d.violations().get(0).detail()).contains("9");
  }
}
