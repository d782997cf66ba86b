package io.sparkrca.rules;

import static io.sparkrca.rules.Fixtures.API_STAGES;
import static io.sparkrca.rules.Fixtures.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules are bounded: length, nesting, comprehension steps, and time; a rule over a cap is skipped. */
class RuleLimitsTest {
  private static StageDiagnostics run(RuleLimits limits, String stages, StageRule... rules) {
    return StageRuleEngine.builder().limits(limits).rules(List.of(rules)).build().evaluate(Fixtures.telemetry(stages));
  }

  /** Caps checked at compile time make a broken rule: these runs skip broken rules to see the warning. */
  private static StageDiagnostics runSkippingBroken(RuleLimits limits, String stages, StageRule... rules) {
    return StageRuleEngine.builder().limits(limits).rules(List.of(rules)).skipBrokenRules(true).build()
        .evaluate(Fixtures.telemetry(stages));
  }

  @Test
  void anExpressionOverTheLengthCapIsSkipped() {
    String longExpr = "s.num_tasks > 0" + " && s.num_tasks > 0".repeat(300);
    assertThatThrownBy(() -> run(RuleLimits.DEFAULT, API_STAGES, rule("LONG", longExpr), rule("OK", "s.num_tasks == 2")))
        .isInstanceOf(BrokenRuleException.class).hasMessageContaining("rule 'LONG' does not compile");
    StageDiagnostics d = runSkippingBroken(RuleLimits.DEFAULT, API_STAGES, rule("LONG", longExpr), rule("OK", "s.num_tasks == 2"));
    assertThat(d.warnings()).singleElement().asString().contains("rule 'LONG'").contains("over the limit of 4096");
    assertThat(d.violation("OK")).isPresent();
  }

  @Test
  void anExpressionNestedTooDeeplyIsSkipped() {
    String deep = "(".repeat(40) + "s.num_tasks > 0" + ")".repeat(40);
    StageDiagnostics d = runSkippingBroken(RuleLimits.DEFAULT, API_STAGES, rule("DEEP", deep));
    assertThat(d.warnings()).singleElement().asString().contains("rule 'DEEP'").contains("CelSyntaxError");
  }

  @Test
  void comprehensionStepsAreCappedPerEvaluation() {
    StringBuilder stages = new StringBuilder("[");
    for (int i = 0; i < 200; i++) {
      stages.append(i == 0 ? "" : ",").append("{\"stageId\": \"").append(i).append("\", \"numTasks\": ").append(i).append('}');
    }
    stages.append(']');
    StageDiagnostics d =
        run(
            RuleLimits.DEFAULT.withMaxIterations(10_000),
            stages.toString(),
            rule("QUADRATIC", "stages.filter(a, stages.exists(b, b.num_tasks > a.num_tasks * 1000))"),
            rule("LINEAR", "stages.filter(a, a.num_tasks > 198)"));
    assertThat(d.warnings()).singleElement().asString().contains("rule 'QUADRATIC'").contains("budget");
    assertThat(d.violation("LINEAR").orElseThrow().violatingStageIds()).containsExactly(199L);
  }

  @Test
  void aRuleThatRunsPastItsTimeBudgetIsSkipped() {
    StringBuilder stages = new StringBuilder("[");
    for (int i = 0; i < 2000; i++) {
      stages.append(i == 0 ? "" : ",").append("{\"stageId\": \"").append(i).append("\"}");
    }
    stages.append(']');
    StageDiagnostics d =
        run(
            RuleLimits.DEFAULT.withMaxRuleTime(Duration.ofNanos(1)),
            stages.toString(),
            rule("SLOW", "stages.exists(x, x.stage_id == s.stage_id + 5000)"));
    assertThat(d.warnings()).singleElement().asString().contains("rule 'SLOW'").contains("longer than the limit");
    assertThat(d.rulesSkipped()).isEqualTo(1);
  }
}
