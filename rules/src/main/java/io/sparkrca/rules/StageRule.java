package io.sparkrca.rules;

import io.sparkrca.core.report.Severity;
import io.sparkrca.core.error.InvalidRequestException;
import java.util.List;
import java.util.Optional;

/**
 * One diagnostic rule: a CEL expression over the Dataproc stage schema ({@link DataprocSchema}).
 * A rule that reads {@code s} is evaluated once per stage attempt and flags each attempt for which
 * it is true; any other rule yields a bool (an application-level finding) or a list of stages or
 * stage ids.
 *
 * <pre>{@code
 * StageRule gc = StageRule.of("GC_PRESSURE", "GC exceeds 15% of run time",
 *         "s.stage_metrics.executor_run_time_millis > 60000"
 *             + " && ratio(s.stage_metrics.jvm_gc_time_millis, s.stage_metrics.executor_run_time_millis) > 0.15")
 *     .withDetail("string(s.stage_metrics.jvm_gc_time_millis) + ' ms GC'")
 *     .withSeverity(Severity.MEDIUM);
 * }</pre>
 *
 * @param ruleId a stable identifier, for example {@code HIGH_GC_OVERHEAD}
 * @param description one line saying what the rule detects
 * @param expression the CEL rule
 * @param detail a CEL string expression rendered per violating stage, with the stage bound to
 *     {@code s} (and to the variable of a top-level {@code stages.filter(x, ...)})
 * @param remediation what to do, in plain text
 * @param severity how much a violation matters
 * @param advice remediation offered only when the configuration calls for it
 */
public record StageRule(
    String ruleId,
    String description,
    String expression,
    Optional<String> detail,
    String remediation,
    Severity severity,
    List<Advice> advice) {
  /** The remediation a rule without one gets, as in the Dataproc agent. */
  public static final String DEFAULT_REMEDIATION = "Review stage execution metrics.";

  public StageRule {
    if (ruleId == null || ruleId.isBlank()) {
      throw new InvalidRequestException("a rule needs a ruleId: pass a non-blank id such as 'SPILL'");
    }
    if (expression == null) {
      throw new InvalidRequestException(
          "rule '" + ruleId + "' needs an expression: pass a CEL bool expression over s or stages");
    }
    description = description == null ? "" : description;
    detail = detail == null ? Optional.empty() : detail.filter(d -> !d.isEmpty());
    remediation = remediation == null || remediation.isEmpty() ? DEFAULT_REMEDIATION : remediation;
    severity = severity == null ? Severity.MEDIUM : severity;
    advice = advice == null ? List.of() : List.copyOf(advice);
  }

  /** A rule with no detail, the default remediation, severity {@link Severity#MEDIUM}. */
  public static StageRule of(String ruleId, String description, String expression) {
    return new StageRule(
        ruleId, description, expression, Optional.empty(), DEFAULT_REMEDIATION, Severity.MEDIUM, List.of());
  }

  public StageRule withDetail(String detailExpression) {
    return new StageRule(
        ruleId, description, expression, Optional.ofNullable(detailExpression), remediation, severity, advice);
  }

  public StageRule withRemediation(String text) {
    return new StageRule(ruleId, description, expression, detail, text, severity, advice);
  }

  public StageRule withSeverity(Severity s) {
    return new StageRule(ruleId, description, expression, detail, remediation, s, advice);
  }

  public StageRule withAdvice(List<Advice> a) {
    return new StageRule(ruleId, description, expression, detail, remediation, severity, a);
  }
}
