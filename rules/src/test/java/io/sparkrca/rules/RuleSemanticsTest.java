package io.sparkrca.rules;

import static io.sparkrca.rules.Fixtures.API_STAGES;
import static io.sparkrca.rules.Fixtures.flagged;
import static io.sparkrca.rules.Fixtures.rule;
import static io.sparkrca.rules.Fixtures.run;
import static io.sparkrca.rules.Fixtures.runSkippingBroken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rule semantics: the Python stage-diagnostics rule tests (G1 and G2), ported to CEL-Java. */
class RuleSemanticsTest {
  private static final String GC_RULE =
      "ratio(s.stage_metrics.jvm_gc_time_millis, s.stage_metrics.executor_run_time_millis) > 0.10";

  @Test
  void noRulesAtAllIsAnError() {
    assertThatThrownBy(() -> StageRuleEngine.builder().build())
        .isInstanceOf(NoRulesException.class)
        .hasMessageContaining("no diagnostic rules supplied");
  }

  @Test
  void aPerStageRuleFlagsEachMatchingStageWithoutWarnings() {
    StageDiagnostics d =
        run(API_STAGES, rule("GC", GC_RULE).withRemediation("Raise executor memory or cache less data."));
    assertThat(flagged(d)).isEqualTo(Map.of("GC", List.of(1L)));
    Violation v = d.violations().get(0);
    assertThat(v.scope()).isEqualTo(Scope.STAGE);
    assertThat(v.remediation()).isEqualTo("Raise executor memory or cache less data.");
    assertThat(d.warnings()).isEmpty();
    assertThat(d.status()).isEqualTo(DiagnosticStatus.FAIL);
  }

  @Test
  void aNonMatchingRuleIsSilent() {
    StageDiagnostics d = run(API_STAGES, rule("GC", "ratio(s.stage_metrics.jvm_gc_time_millis, s.stage_metrics.executor_run_time_millis) > 0.5"));
    assertThat(d.violations()).isEmpty();
    assertThat(d.status()).isEqualTo(DiagnosticStatus.PASS);
  }

  @Test
  void filterReturningStagesFlagsThoseStages() {
    assertThat(flagged(run(API_STAGES, rule("R", "stages.filter(x, x.stage_metrics.memory_bytes_spilled > 0)"))))
        .isEqualTo(Map.of("R", List.of(1L)));
  }

  @Test
  void anAbsentStageIdReadsAsZero() {
    assertThat(flagged(run(API_STAGES, rule("R", "s.num_tasks == 2")))).isEqualTo(Map.of("R", List.of(0L)));
  }

  @Test
  void absentFieldsReadAsProtoDefaultsWithoutErrors() {
    StageDiagnostics d =
        run(
            API_STAGES,
            rule("RATIO", "ratio(s.stage_metrics.stage_output_metrics.bytes_written, s.stage_metrics.stage_input_metrics.bytes_read) > 1.0"),
            rule("DEFAULTS", "s.name == '' && s.parent_stage_ids == [] && s.completion_time == timestamp(0) && !has(s.task_quantile_metrics.input_metrics)"));
    assertThat(flagged(d)).isEqualTo(Map.of("DEFAULTS", List.of(0L, 1L, 2L)));
    assertThat(d.warnings()).isEmpty();
  }

  @Test
  void trueIsAnApplicationLevelViolation() {
    StageDiagnostics d = run(API_STAGES, rule("APP", "stages.exists(x, x.num_failed_tasks > 0)"));
    Violation v = d.violations().get(0);
    assertThat(v.scope()).isEqualTo(Scope.APPLICATION);
    assertThat(v.violatingStageIds()).isEmpty();
    assertThat(v.detail()).contains(StageRuleEngine.FALLBACK_DETAIL);
  }

  @Test
  void falseAndEmptyListsAreNotViolations() {
    StageDiagnostics d =
        run(
            API_STAGES,
            rule("A", "false"),
            rule("B", "stages.filter(x, x.num_tasks > 999)"),
            rule("C", "[]"),
            rule("D", "s.num_tasks > 999"));
    assertThat(d.violations()).isEmpty();
    assertThat(d.warnings()).isEmpty();
  }

  @Test
  void aListOfStageIdsIsMappedToStagesAndTheirDetail() {
    StageDiagnostics d =
        run(
            API_STAGES,
            rule("R", "stages.filter(s, s.num_failed_tasks > 0).map(s, s.stage_id)")
                .withDetail("string(s.num_failed_tasks) + ' failed'"));
    assertThat(d.violations().get(0).stages()).containsExactly(new StageFinding(2, 0, "4 failed"));
  }

  @Test
  void constructedStageMessagesFlagTheirStageId() {
    StageDiagnostics d = run(API_STAGES, rule("R", "[google.cloud.dataproc.v1.StageData{stage_id: 2}]"));
    assertThat(flagged(d)).isEqualTo(Map.of("R", List.of(2L)));
  }

  @Test
  void anUnknownStageIdIsStillReportedWithTheGenericDetail() {
    StageDiagnostics d = run(API_STAGES, rule("R", "[42]"));
    assertThat(d.violations().get(0).stages()).containsExactly(new StageFinding(42, 0, StageRuleEngine.FALLBACK_DETAIL));
  }

  @Test
  void aListWithoutStagesIsAnUnattributedApplicationViolation() {
    Violation v = run(API_STAGES, rule("R", "stages.map(s, s.name)")).violations().get(0);
    assertThat(v.scope()).isEqualTo(Scope.APPLICATION);
    assertThat(v.detail().orElseThrow()).contains("3 value(s)");
  }

  @Test
  void aRuleYieldingNeitherBoolNorListIsBrokenAndRefusedByDefault() {
    assertThatThrownBy(() -> run(API_STAGES, rule("R", "size(stages)"), rule("GC", GC_RULE)))
        .isInstanceOf(BrokenRuleException.class)
        .hasMessageStartingWith("rule 'R' does not compile: CelTypeError: a rule must yield a bool or a list, not int")
        .hasMessageContaining("No rule was evaluated");
  }

  @Test
  void aRuleYieldingNeitherBoolNorListIsSkippedWithAWarningWhenBrokenRulesAreSkipped() {
    StageDiagnostics d = runSkippingBroken(API_STAGES, rule("R", "size(stages)"));
    assertThat(d.violations()).isEmpty();
    assertThat(d.warnings()).singleElement().asString().contains("rule 'R'").contains("must yield a bool or a list");
  }

  @Test
  void anEvaluationErrorSkipsTheWholeRuleOnceNotPerStageAndSaysItHappenedAtEvaluation() {
    StageDiagnostics d =
        run(API_STAGES, rule("BROKEN", "s.num_tasks / s.num_failed_tasks > 1"), rule("GC", GC_RULE));
    assertThat(d.status()).isEqualTo(DiagnosticStatus.FAIL);
    assertThat(flagged(d)).isEqualTo(Map.of("GC", List.of(1L)));
    assertThat(d.warnings()).singleElement().asString()
        .startsWith("rule 'BROKEN' could not be evaluated and was skipped: CelEvalError:")
        .contains("division by zero")
        .contains("the rule compiles, but failed when evaluated on stage 0 (attempt 0); the other rules ran");
    assertThat(d.rulesSkipped()).isEqualTo(1);
    assertThat(d.rulesEvaluated()).isEqualTo(1);
  }

  @Test
  void anEvaluationErrorOfAnApplicationRuleSaysItFailedOnTheApplicationsStages() {
    StageDiagnostics d = run(API_STAGES, rule("APP", "stages[5].num_tasks > 0"));
    assertThat(d.status()).isEqualTo(DiagnosticStatus.PASS);
    assertThat(d.warnings()).singleElement().asString()
        .startsWith("rule 'APP' could not be evaluated and was skipped: CelEvalError:")
        .endsWith("(the rule compiles, but failed when evaluated on this application's stages; the other rules ran)");
    assertThat(d.toMarkdown()).contains("1 rule was skipped (see Warnings) and could not match.");
  }

  @Test
  void aRuleNamingAFieldThatDoesNotExistIsRefusedWithTheClosestFieldNames() {
    assertThatThrownBy(() -> run(API_STAGES, rule("GC", GC_RULE), rule("TYPO", "s.stage_metrics.jvm_gc_ms > 0")))
        .isInstanceOfSatisfying(BrokenRuleException.class, e -> {
          assertThat(e.brokenRules()).singleElement().satisfies(b -> {
            assertThat(b.ruleId()).isEqualTo("TYPO");
            assertThat(b.part()).isEqualTo(BrokenRule.Part.EXPRESSION);
            assertThat(b.message()).contains("undefined field 'jvm_gc_ms' on StageMetrics (did you mean jvm_gc_time_millis");
          });
          assertThat(e.getMessage())
              .startsWith("rule 'TYPO' does not compile: CelTypeError: undefined field 'jvm_gc_ms'")
              .contains("skipBrokenRules(true)")
              .doesNotContain("--");
        });
  }

  @Test
  void aBrokenDetailOrAdviceIsABrokenRuleToo() {
    assertThatThrownBy(() -> run(API_STAGES, rule("R", "s.num_failed_tasks > 0").withDetail("s.num_failed")))
        .isInstanceOfSatisfying(BrokenRuleException.class, e -> assertThat(e.brokenRules())
            .singleElement().extracting(BrokenRule::part).isEqualTo(BrokenRule.Part.DETAIL))
        .hasMessageContaining("the detail of rule 'R' does not compile")
        .hasMessageContaining("did you mean num_failed_tasks");
    for (Advice broken : List.of(
        new Advice("conf['spark.speculation'] = 'true'", "Speculate."),
        new Advice("", "s.stage_metrics.nope > 0", "Look at it."),
        new Advice("", "Now ${conf['spark.sql.shuffle.partitions'] + 1} partitions."),
        new Advice("", "Now ${conf['spark.sql.shuffle.partitions'] partitions."))) {
      assertThatThrownBy(() -> run(API_STAGES, rule("R", "s.num_failed_tasks > 0").withAdvice(List.of(broken))))
          .as(broken.toString())
          .isInstanceOfSatisfying(BrokenRuleException.class, e -> assertThat(e.brokenRules())
              .singleElement().extracting(BrokenRule::part).isEqualTo(BrokenRule.Part.ADVICE))
          .hasMessageContaining("an advice of rule 'R' does not compile");
    }
  }

  @Test
  void skippingBrokenRulesRunsTheOthersAndKeepsEachBrokenOneAsAWarning() {
    StageRuleEngine engine =
        StageRuleEngine.builder()
            .rules(List.of(rule("TYPO", "s.stage_metrics.jvm_gc_ms > 0"), rule("GC", GC_RULE)))
            .skipBrokenRules(true)
            .build();
    assertThat(engine.brokenRules()).extracting(BrokenRule::ruleId).containsExactly("TYPO");
    StageDiagnostics d = engine.evaluate(Fixtures.telemetry(API_STAGES));
    assertThat(d.status()).isEqualTo(DiagnosticStatus.FAIL);
    assertThat(flagged(d)).containsOnlyKeys("GC");
    assertThat(d.warnings()).singleElement().asString()
        .isEqualTo(engine.buildWarnings().get(0))
        .startsWith("rule 'TYPO' could not be evaluated and was skipped: CelTypeError: undefined field 'jvm_gc_ms'");
    assertThat(d.rulesSkipped()).isEqualTo(1);
  }

  @Test
  void invalidRuleFileEntriesAreBrokenRules() {
    RuleCatalog c = RuleCatalog.parse("[{\"ruleId\": \"NO_EXPR\"}, {\"ruleId\": \"OK\", \"expression\": \"s.num_tasks > 0\"}]", "test");
    assertThat(c.broken()).singleElement().isEqualTo(
        new BrokenRule("NO_EXPR", BrokenRule.Part.ENTRY, "rule is missing an 'expression' string"));
    assertThatThrownBy(() -> StageRuleEngine.builder().rules(c).build())
        .isInstanceOf(BrokenRuleException.class)
        .hasMessageStartingWith("rule 'NO_EXPR' is invalid: rule is missing an 'expression' string");
    assertThat(StageRuleEngine.builder().rules(c).skipBrokenRules(true).build().buildWarnings())
        .containsExactly("rule 'NO_EXPR' could not be evaluated and was skipped: rule is missing an 'expression' string");
  }

  @Test
  void doubleDivisionByZeroFollowsIeee() {
    StageDiagnostics d = run(API_STAGES, rule("R", "double(s.num_tasks) / double(0) > 1000.0"));
    assertThat(flagged(d)).isEqualTo(Map.of("R", List.of(0L, 1L, 2L)));
    assertThat(d.warnings()).isEmpty();
  }

  @Test
  void theStatusEnumIsAnIntOrItsQualifiedConstant() {
    assertThat(flagged(run(API_STAGES, rule("A", "s.status == 3")))).isEqualTo(Map.of("A", List.of(2L)));
    assertThat(flagged(run(API_STAGES, rule("B", "s.status == google.cloud.dataproc.v1.StageStatus.STAGE_STATUS_FAILED"))))
        .isEqualTo(Map.of("B", List.of(2L)));
  }

  @Test
  void typeErrorsSkipTheRuleWithAWarningNamingItWhenBrokenRulesAreSkipped() {
    StageDiagnostics d =
        runSkippingBroken(
            API_STAGES,
            rule("UNDEFINED", "s.stage_metrics.jvm_gc_ms > 0"),
            rule("MIXED", "s.num_tasks * 1.5 > 3.0"),
            rule("ENUM", "s.status == 'STAGE_STATUS_FAILED'"),
            rule("NOT_BOOL", "stages.filter(x, x.num_tasks)"),
            rule("UNDECLARED", "nope > 1"),
            rule("GC", GC_RULE));
    assertThat(flagged(d)).containsOnlyKeys("GC");
    assertThat(d.warnings()).hasSize(5);
    assertThat(d.warnings().get(0))
        .contains("rule 'UNDEFINED'")
        .contains("undefined field 'jvm_gc_ms' on StageMetrics (did you mean jvm_gc_time_millis");
    assertThat(d.warnings().get(1)).contains("rule 'MIXED'").contains("does not mix int, uint and double");
    assertThat(d.warnings().get(2)).contains("rule 'ENUM'").contains("enum fields are ints");
    assertThat(d.warnings().get(3)).contains("rule 'NOT_BOOL'");
    assertThat(d.warnings().get(4)).contains("rule 'UNDECLARED'").contains("undeclared reference to 'nope'");
  }

  @Test
  void camelCaseFieldNamesAreACompileErrorThatSuggestsTheSnakeCaseName() {
    String w = runSkippingBroken(API_STAGES, rule("CAMEL", "s.stageMetrics.jvmGcTimeMillis > 0")).warnings().get(0);
    assertThat(w).contains("undefined field 'stageMetrics' on StageData (did you mean stage_metrics");
  }

  @Test
  void aMisspeltQuantileFieldIsNamedOnItsMessage() {
    String w = runSkippingBroken(API_STAGES, rule("Q", "s.task_quantile_metrics.duration_millis.p50 > 0")).warnings().get(0);
    assertThat(w).contains("undefined field 'p50' on Quantiles (did you mean");
    String w2 = runSkippingBroken(API_STAGES, rule("T", "total_executor_summary.gc > 0")).warnings().get(0);
    assertThat(w2).contains("undefined field 'gc' on ConsolidatedExecutorSummary");
  }

  @Test
  void rulesAreNeverExecutedAsCode() {
    StageDiagnostics d =
        runSkippingBroken(
            API_STAGES,
            rule("PY_AND", "s.num_tasks > 0 and True"),
            rule("ESCAPE", "().__class__.__base__.__subclasses__()"),
            rule("IMPORT", "__import__('os').system('true') == 0"));
    assertThat(d.violations()).isEmpty();
    assertThat(d.warnings().get(0)).contains("CelSyntaxError");
    assertThat(d.warnings().get(1)).contains("CelSyntaxError");
    assertThat(d.warnings().get(2)).contains("undeclared reference to '__import__'");
  }

  @Test
  void theApplicationScopeRuleReadsTheExecutorSummaryAndRendersItsDetail() {
    StageDiagnostics d =
        run(
            API_STAGES,
            rule(
                    "APP_GC",
                    "ratio(total_executor_summary.total_gc_time_millis, total_executor_summary.total_duration_millis) > 0.1")
                .withDetail(
                    "string(100 * total_executor_summary.total_gc_time_millis / total_executor_summary.total_duration_millis) + '%'"));
    assertThat(d.violations().get(0).detail()).contains("20%");
  }

  @Test
  void aStageDetailIsNotRenderedForApplicationFindings() {
    StageDiagnostics d = run(API_STAGES, rule("R", "size(stages) > 0").withDetail("string(s.num_tasks)"));
    assertThat(d.violations().get(0).detail()).contains(StageRuleEngine.FALLBACK_DETAIL);
  }

  @Test
  void aPerStageRuleCanCompareAgainstAllStages() {
    assertThat(flagged(run(API_STAGES, rule("MAX", "stages.all(x, s.num_tasks >= x.num_tasks)"))))
        .isEqualTo(Map.of("MAX", List.of(1L)));
  }

  @Test
  void theDetailSeesTheTopLevelFilterVariable() {
    StageDiagnostics d =
        run(
            API_STAGES,
            rule("R", "stages.filter(x, x.num_failed_tasks > 0)")
                .withDetail("string(x.num_failed_tasks) + ' of ' + string(x.num_tasks) + ' tasks failed'"));
    assertThat(d.violations().get(0).stages().get(0).detail()).isEqualTo("4 of 4 tasks failed");
  }

  @Test
  void aDetailRendersMeasuredValues() {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"5\", \"stageMetrics\": {\"memoryBytesSpilled\": \"2147483648\"}}]",
            rule("R", "s.stage_metrics.memory_bytes_spilled > 0")
                .withDetail("string(double(s.stage_metrics.memory_bytes_spilled) / 1073741824.0) + ' GiB'"));
    assertThat(d.violations().get(0).stages().get(0).detail()).isEqualTo("2.0 GiB");
  }

  @Test
  void brokenDetailsStillReportTheFindingWithOneWarning() {
    String stage5 = "[{\"stageId\": \"5\", \"numFailedTasks\": 2}, {\"stageId\": \"6\", \"numFailedTasks\": 1}]";
    for (String[] c :
        new String[][] {
          {"this is not valid CEL (", "CelSyntaxError"},
          {"s.name.split(',')", "CelTypeError"},
          {"str(s.num_failed_tasks)", "undeclared reference to 'str'"},
          {"string(s.num_failed_tasks / 0)", "division by zero"},
          {"s.num_failed", "undefined field 'num_failed' on StageData (did you mean num_failed_tasks"},
        }) {
      // The compile errors need an engine that skips broken rules; the evaluation error does not.
      StageDiagnostics d = runSkippingBroken(stage5, rule("R", "s.num_failed_tasks > 0").withDetail(c[0]));
      assertThat(d.violations().get(0).stages())
          .extracting(StageFinding::detail)
          .containsOnly(StageRuleEngine.FALLBACK_DETAIL);
      assertThat(d.warnings()).as(c[0]).singleElement().asString()
          .startsWith("detail of rule 'R' could not be rendered, so its findings use a generic text:")
          .contains(c[1]);
    }
    StageDiagnostics evaluationError = run(stage5, rule("R", "s.num_failed_tasks > 0").withDetail("string(s.num_failed_tasks / 0)"));
    assertThat(evaluationError.warnings()).singleElement().asString()
        .contains("division by zero")
        .contains("failed when evaluated on stage 5 (attempt 0)");
  }

  @Test
  void multipleAttemptsOfAStageKeepTheirOwnDetails() {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"11\", \"numFailedTasks\": 3}, {\"stageId\": \"11\", \"stageAttemptId\": 1, \"numFailedTasks\": 1}]",
            rule("R", "s.num_failed_tasks > 0")
                .withDetail("'attempt=' + string(s.stage_attempt_id) + ' failed=' + string(s.num_failed_tasks)"));
    Violation v = d.violations().get(0);
    assertThat(v.violatingStageIds()).containsExactly(11L, 11L);
    assertThat(v.stages())
        .containsExactly(new StageFinding(11, 0, "attempt=0 failed=3"), new StageFinding(11, 1, "attempt=1 failed=1"));
    assertThat(d.stageMetrics()).extracting(ViolatingStage::stageAttemptId).containsExactly(0, 1);
  }

  @Test
  void helpersFollowThePythonToolsDefinitions() {
    assertThat(CelHelpers.ratio(1, 0)).isZero();
    assertThat(CelHelpers.gb(2.0 * 1073741824)).isEqualTo(2.0);
    assertThat(CelHelpers.mb(1.125 * 1048576)).isEqualTo(1.12);
    assertThat(CelHelpers.humanBytes(0)).isEqualTo("0 B");
    assertThat(CelHelpers.humanBytes(1536)).isEqualTo("1.5 KiB");
    assertThat(CelHelpers.humanBytes(3.0 * 1073741824)).isEqualTo("3.0 GiB");
    assertThat(CelHelpers.humanBytes(-1)).isEqualTo("n/a");
    assertThat(CelHelpers.humanMillis(250)).isEqualTo("250 ms");
    assertThat(CelHelpers.humanMillis(2500)).isEqualTo("2.5 s");
    assertThat(CelHelpers.humanMillis(90000)).isEqualTo("1.5 min");
    assertThat(io.sparkrca.core.format.Formats.fixed(1.25, 1)).isEqualTo("1.2");
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"1\", \"submissionTime\": \"2026-01-01T00:00:00.000Z\", \"completionTime\": \"2026-01-01T00:01:30.500Z\"}]",
            rule("T", "seconds_between(s.submission_time, s.completion_time) == 90.5"),
            rule("UNSET", "seconds_between(s.first_task_launched_time, s.completion_time) == 0.0"),
            rule("MB", "mb(2097152) == 2.0 && gb(1073741824) == 1.0 && ratio(1, 0) == 0.0 && ratio(1.0, 4) == 0.25"));
    assertThat(flagged(d)).containsOnlyKeys("T", "UNSET", "MB");
  }

  @Test
  void fieldsReadFromEitherJsonSpellingWithInt64Strings() {
    StageDiagnostics d =
        run(
            "[{\"stage_id\": \"9\", \"stage_metrics\": {\"jvmGcTimeMillis\": \"900\", \"executor_run_time_millis\": 1000},"
                + " \"locality\": {\"PROCESS_LOCAL\": \"5\"}, \"parentStageIds\": [\"1\", \"2\"]}]",
            rule("GC", GC_RULE),
            rule("MAPS", "s.locality['PROCESS_LOCAL'] == 5 && 2 in s.parent_stage_ids && has(s.locality.PROCESS_LOCAL)"));
    assertThat(flagged(d)).isEqualTo(Map.of("GC", List.of(9L), "MAPS", List.of(9L)));
  }

  @Test
  void hasFollowsProto3Presence() {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"11\", \"stageMetrics\": {\"memoryBytesSpilled\": \"0\"}}]",
            rule("SCALAR", "has(s.stage_metrics.memory_bytes_spilled)"),
            rule("MESSAGE", "has(s.stage_metrics)"),
            rule("ABSENT", "has(s.task_quantile_metrics)"));
    assertThat(flagged(d)).isEqualTo(Map.of("MESSAGE", List.of(11L)));
  }

  @Test
  void stringRulesWorkOnAbsentFields() {
    StageDiagnostics d =
        run(
            "[{\"stageId\": \"1\", \"failureReason\": \"java.lang.OutOfMemoryError: Java heap space\"}, {\"stageId\": \"2\"}]",
            rule("OOM", "s.failure_reason.contains('OutOfMemory')"));
    assertThat(flagged(d)).isEqualTo(Map.of("OOM", List.of(1L)));
  }

  @Test
  void zeroStagesPassWithAWarningThatPassIsNotHealthy() {
    StageDiagnostics d = run("[]", rule("R", "s.num_tasks > 0"));
    assertThat(d.status()).isEqualTo(DiagnosticStatus.PASS);
    assertThat(d.warnings()).singleElement().asString().contains("No stage telemetry").contains("PASS does not mean healthy");
    assertThat(d.toMarkdown()).contains("NOT a clean bill of health");
  }
}
