package io.sparkrca.core.eventlog;

/**
 * A stage attempt that completed with a failure reason.
 *
 * @param reason Spark's failure reason, e.g. "Job aborted due to stage failure: ..."
 */
public record StageFailure(
    int stageId,
    int attemptId,
    String name,
    String reason,
    int numTasks,
    long completionTime,
    String source,
    long line) {}
