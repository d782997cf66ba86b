package io.sparkrca.core.eventlog;

/**
 * An executor removal event: when, why (Spark's {@code Removed Reason}) and where in the log.
 *
 * @param reason e.g. "Container killed by YARN for exceeding memory limits", or empty
 */
public record ExecutorRemoval(String executorId, String reason, long time, String source, long line) {}
