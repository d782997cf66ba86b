package io.sparkrca.rules;

/**
 * Which JSON shape {@link StageDiagnostics#toJson(OutputContract)} writes.
 *
 * <ul>
 *   <li>{@link #SPARKRCA} (default): the Dataproc agent's keys plus {@code severity},
 *       {@code stageAttemptId} on every detail and stage-metrics entry, one stage-metrics entry
 *       per violating stage <em>attempt</em>, {@code applicationId} in ERROR payloads too,
 *       {@code killedTasks} counted over the latest attempt of each stage (and
 *       {@code killedTasksAllAttempts} over all), and {@code rulesEvaluated},
 *       {@code rulesSkipped}, {@code stagesAnalyzed}.
 *   <li>{@link #AGENT}: exactly the agent's {@code GetSparkStageDiagnostics} output, defects
 *       included: violations have only {@code ruleId, description, violatingStageIds,
 *       remediation, details} (and {@code detail}), stage metrics keep the first attempt per stage
 *       id, {@code killedTasks} sums every attempt, and the ERROR payload has no
 *       {@code applicationId}.
 * </ul>
 */
public enum OutputContract {
  SPARKRCA,
  AGENT
}
