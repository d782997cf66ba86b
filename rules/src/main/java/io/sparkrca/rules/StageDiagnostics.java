package io.sparkrca.rules;

import io.sparkrca.core.report.Report;
import io.sparkrca.core.report.Severity;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of evaluating rules on one application: a verdict, the violations, the metrics of
 * violating stage attempts, totals and warnings. Render it with {@link #toJson()} (the Dataproc
 * agent's {@code GetSparkStageDiagnostics} contract, see {@link OutputContract}) or
 * {@link #toMarkdown()}.
 *
 * <pre>{@code
 * StageDiagnostics d = engine.evaluate(app);
 * if (d.status() == DiagnosticStatus.FAIL) {
 *   System.out.println(d.toMarkdown());
 * }
 * System.exit(d.status().exitCode());
 * }</pre>
 *
 * @param status PASS, FAIL or ERROR
 * @param applicationId the application, when known (also in ERROR when it is known)
 * @param errorMessage why the source could not be read (ERROR only)
 * @param violations one per matched rule, in rule order
 * @param stageMetrics one per distinct violating stage attempt, in first-flagged order
 * @param summary application totals (empty for ERROR)
 * @param warnings skipped rules, rendering problems, and notes such as "no stages"
 * @param rulesEvaluated rules that ran (skipped rules excluded)
 * @param rulesSkipped rules that could not be compiled or evaluated
 * @param stagesAnalyzed stage attempts the rules saw
 */
public record StageDiagnostics(
    DiagnosticStatus status,
    Optional<String> applicationId,
    Optional<String> errorMessage,
    List<Violation> violations,
    List<ViolatingStage> stageMetrics,
    Optional<DiagnosticsSummary> summary,
    List<String> warnings,
    int rulesEvaluated,
    int rulesSkipped,
    int stagesAnalyzed) implements Report {
  public StageDiagnostics {
    violations = List.copyOf(violations);
    stageMetrics = List.copyOf(stageMetrics);
    warnings = List.copyOf(warnings);
  }

  /** An ERROR verdict: the source could not be read. */
  public static StageDiagnostics error(
      Optional<String> applicationId, String message, List<String> warnings) {
    return new StageDiagnostics(
        DiagnosticStatus.ERROR, applicationId, Optional.of(message), List.of(), List.of(),
        Optional.empty(), warnings, 0, 0, 0);
  }

  /** The JSON contract, sparkrca's shape. */
  @Override
  public String toJson() {
    return toJson(OutputContract.SPARKRCA);
  }

  /** The JSON contract in the given shape (2-space indent, keys in contract order). */
  public String toJson(OutputContract contract) {
    return DiagnosticsJson.render(this, contract);
  }

  /** The Markdown report (user-supplied text escaped). */
  @Override
  public String toMarkdown() {
    return DiagnosticsMarkdown.render(this);
  }

  /** The violation of a rule, if it matched. */
  public Optional<Violation> violation(String ruleId) {
    return violations.stream().filter(v -> v.ruleId().equals(ruleId)).findFirst();
  }

  /** The most severe violation's severity, empty when nothing matched. */
  public Optional<Severity> worstSeverity() {
    return violations.stream().map(Violation::severity).max(Enum::compareTo);
  }
}
