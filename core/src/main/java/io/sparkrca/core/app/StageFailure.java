package io.sparkrca.core.app;

/**
 * A stage attempt that completed with a failure reason.
 *
 * <pre>{@code
 * app.facts().stageFailures().forEach(f -> System.out.println(f.stageId() + ": " + f.reason()));
 * }</pre>
 *
 * @param reason Spark's failure reason, e.g. "Job aborted due to stage failure: ..."
 * @param source where it was found: a log file, or a History Server path
 * @param line its line in {@code source}, 0 when the source has no lines
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
