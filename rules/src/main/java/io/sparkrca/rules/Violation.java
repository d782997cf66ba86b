package io.sparkrca.rules;

import io.sparkrca.core.report.Severity;
import java.util.List;
import java.util.Optional;

/**
 * A rule that matched: the stage attempts it flagged, or an application-level finding.
 *
 * <pre>{@code
 * for (Violation v : diagnostics.violations()) {
 *   System.out.println(v.severity() + " " + v.ruleId() + " " + v.violatingStageIds());
 * }
 * }</pre>
 *
 * @param remediation the rule's remediation with the advice that applies to this application's
 *     configuration appended
 * @param stages the flagged attempts, in the order the rule produced them (empty for the
 *     application scope)
 * @param detail the rendered detail of an application-level finding
 */
public record Violation(
    String ruleId,
    String description,
    Severity severity,
    String remediation,
    Scope scope,
    List<StageFinding> stages,
    Optional<String> detail) {
  public Violation {
    stages = List.copyOf(stages);
  }

  /** The flagged stage ids in order; a stage flagged on two attempts appears twice. */
  public List<Long> violatingStageIds() {
    return stages.stream().map(StageFinding::stageId).toList();
  }
}
