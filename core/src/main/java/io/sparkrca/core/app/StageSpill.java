package io.sparkrca.core.app;

/**
 * Spill a completed stage attempt reported, and where it was found.
 *
 * <pre>{@code
 * app.facts().stageSpills().forEach(s -> System.out.println(s.stageId() + ": " + s.diskBytes() + " bytes to disk"));
 * }</pre>
 *
 * @param memoryBytes {@code internal.metrics.memoryBytesSpilled}
 * @param diskBytes {@code internal.metrics.diskBytesSpilled}
 * @param source where it was found: a log file, or a History Server path
 * @param line its line in {@code source}, 0 when the source has no lines
 */
public record StageSpill(
    int stageId, int attemptId, String name, long memoryBytes, long diskBytes, String source, long line) {}
