package io.sparkrca.core.app;

/**
 * An executor removal: when, why (Spark's {@code Removed Reason}) and where it was found.
 *
 * <pre>{@code
 * app.facts().executorRemovals().forEach(r -> System.out.println(r.executorId() + ": " + r.reason()));
 * }</pre>
 *
 * @param reason e.g. "Container killed by YARN for exceeding memory limits", or empty
 * @param source where it was found: a log file, or a History Server path
 * @param line its line in {@code source}, 0 when the source has no lines
 */
public record ExecutorRemoval(String executorId, String reason, long time, String source, long line) {}
