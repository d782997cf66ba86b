package io.sparkrca.rules.examples;

import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.rules.RulesRunner;
import io.sparkrca.rules.RulesRequest;
import com.google.protobuf.Descriptors.Descriptor;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.Severity;
import io.sparkrca.rules.Advice;
import io.sparkrca.rules.BrokenRule;
import io.sparkrca.rules.BrokenRuleException;
import io.sparkrca.rules.DataprocSchema;
import io.sparkrca.rules.DiagnosticStatus;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.RuleFileException;
import io.sparkrca.rules.RuleLimits;
import io.sparkrca.rules.Scope;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRule;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.rules.StageTelemetry;
import io.sparkrca.rules.ViolatingStage;
import io.sparkrca.rules.Violation;
import java.nio.file.Path;
import java.time.Duration;

/** The Javadoc examples of {@code io.sparkrca.rules}, compiled (see {@link JavadocExamplesTest}). */
class RulesExamples {
  /** The example of {@code Advice}. */
  void advice() throws Exception {
    new Advice("conf['spark.sql.adaptive.enabled'] != 'true'",
        "Enable AQE (spark.sql.adaptive.enabled=true) so that Spark splits skewed partitions.");
    new Advice("conf['spark.sql.adaptive.enabled'] == 'true'",
        "s.stage_metrics.stage_shuffle_read_metrics.bytes_read > 0",
        "AQE coalesces this stage's ${conf['spark.sql.shuffle.partitions']} shuffle partitions.");
  }

  /** The example of {@code BrokenRule}. */
  void brokenRule(String json) throws Exception {
    try {
      StageRuleEngine.builder().rulesJson(json).build();
    } catch (BrokenRuleException e) {
      for (BrokenRule b : e.brokenRules()) {
        System.err.println(b.ruleId() + ": " + b.message()); // "TYPO: CelTypeError: undefined field ..."
      }
    }
  }

  /** The example of {@code BrokenRuleException}. */
  void brokenRuleException(StageRuleEngine engine, Path file) throws Exception {
    try {
      engine = StageRuleEngine.builder().rules(RuleCatalog.load(file)).build();
    } catch (BrokenRuleException e) {
      System.err.println(e.getMessage()); // "rule 'TYPO' does not compile: CelTypeError: ..."
    }
  }

  /** The example of {@code DataprocSchema}. */
  void dataprocSchema() throws Exception {
    Descriptor stage = DataprocSchema.message("StageData");
    stage.getFields().forEach(f -> System.out.println(f.getName()));
  }

  /** The example of {@code DiagnosticStatus}. */
  void diagnosticStatus(StageDiagnostics diagnostics) throws Exception {
    System.exit(diagnostics.status().exitCode());
  }

  /** The example of {@code DiagnosticsSummary}. */
  void diagnosticsSummary(StageDiagnostics diagnostics) throws Exception {
    diagnostics.summary().ifPresent(s -> System.out.println(s.failedTasks() + " failed tasks, "
        + s.jvmGcTimeMs() + " ms GC in " + s.executorRunTimeMs() + " ms of executor run time"));
  }

  /** The example of {@code NoRulesException}. */
  void noRulesException() throws Exception {
    StageRuleEngine.builder().build(); // throws NoRulesException
  }

  /** The example of {@code RuleCatalog}. */
  void ruleCatalog() throws Exception {
    RuleCatalog mine = RuleCatalog.load(Path.of("rules.json"));
    RuleCatalog all = RuleCatalog.recommended().plus(mine);
    all.rules().forEach(r -> System.out.println(r.ruleId() + " " + r.severity()));
  }

  /** The example of {@code RuleFileException}. */
  void ruleFileException() throws Exception {
    try {
      RuleCatalog.load(Path.of("rules.json"));
    } catch (RuleFileException e) {
      System.err.println(e.getMessage()); // "rule file rules.json is not valid JSON: ..."
    }
  }

  /** The example of {@code RuleLimits}. */
  void ruleLimits() throws Exception {
    StageRuleEngine.builder().limits(RuleLimits.DEFAULT.withMaxRuleTime(Duration.ofSeconds(1))).recommended().build();
  }

  /** The example of {@code Scope}. */
  void scope(Violation violation) throws Exception {
    if (violation.scope() == Scope.APPLICATION) System.out.println(violation.detail().orElse(""));
  }

  /** The example of {@code StageDiagnostics}. */
  void stageDiagnostics(StageRuleEngine engine, SparkApplication app) throws Exception {
    StageDiagnostics d = engine.evaluate(app);
    if (d.status() == DiagnosticStatus.FAIL) {
      System.out.println(d.toMarkdown());
    }
    System.exit(d.status().exitCode());
  }

  /** The example of {@code StageFinding}. */
  void stageFinding(Violation violation) throws Exception {
    violation.stages().forEach(f -> System.out.println(f.stageId() + "." + f.stageAttemptId() + ": " + f.detail()));
  }

  /** The example of {@code StageRule}. */
  void stageRule() throws Exception {
    StageRule gc = StageRule.of("GC_PRESSURE", "GC exceeds 15% of run time",
            "s.stage_metrics.executor_run_time_millis > 60000"
                + " && ratio(s.stage_metrics.jvm_gc_time_millis, s.stage_metrics.executor_run_time_millis) > 0.15")
        .withDetail("string(s.stage_metrics.jvm_gc_time_millis) + ' ms GC'")
        .withSeverity(Severity.MEDIUM);
  }

  /** The example of {@code StageRuleEngine}. */
  void stageRuleEngine() throws Exception {
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    StageDiagnostics result = engine.evaluateEventLog("/tmp/spark-events/app-1");
    System.out.println(result.toMarkdown());
  }

  /** The example of {@code StageRuleEngine}. */
  void stageRuleEngineBuilder() throws Exception {
    StageRuleEngine engine = StageRuleEngine.builder()
        .recommended()
        .rules(RuleCatalog.load(Path.of("team-rules.json")))
        .skipBrokenRules(true) // run the others; each broken rule becomes a warning
        .build();
  }

  /** The example of {@code StageTelemetry}. */
  void stageTelemetry() throws Exception {
    StageTelemetry t = StageTelemetry.from(EventLogs.replay(Path.of("/logs/app-1")));
    System.out.println(t.stageCount() + " stage attempts");
    System.out.println(t.toJson()); // the values rules see, field names as in CEL
  }

  /** The example of {@code ViolatingStage}. */
  void violatingStage(StageDiagnostics diagnostics) throws Exception {
    for (ViolatingStage s : diagnostics.stageMetrics()) {
      System.out.println(s.stageId() + " spilled " + s.stageMetrics().diskBytesSpilled() + " bytes");
    }
  }

  /** The example of {@code Violation}. */
  void violation(StageDiagnostics diagnostics) throws Exception {
    for (Violation v : diagnostics.violations()) {
      System.out.println(v.severity() + " " + v.ruleId() + " " + v.violatingStageIds());
    }
  }

  /** The example of {@code io.sparkrca.rules}. */
  void overview() throws Exception {
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    StageDiagnostics result = engine.evaluateEventLog("/tmp/spark-events/app-1");
    System.out.println(result.toMarkdown());   // or result.toJson()
  }

  /** The example of {@code RulesRequest}. */
  void rulesRequest() throws Exception {
    RulesRequest request = RulesRequest.builder().application("/tmp/spark-events/app-1").recommended(true).build();
    StageDiagnostics d = RulesRunner.standard().run(request);
    System.out.println(d.status());
  }

  /** The example of {@code RulesRunner}. */
  void rulesRunner() throws Exception {
    RulesRunner runner = RulesRunner.builder().settings(SourceSettings.defaults()).parallelism(4).build();
    StageDiagnostics d = runner.run(RulesRequest.builder().application("gs://b/events/app-1").ruleFile(Path.of("rules.json")).build());
  }
}
