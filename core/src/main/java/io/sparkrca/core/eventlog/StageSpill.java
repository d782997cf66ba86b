package io.sparkrca.core.eventlog;

/**
 * Spill a completed stage attempt reported in its accumulators, and where in the log.
 *
 * @param memoryBytes {@code internal.metrics.memoryBytesSpilled}
 * @param diskBytes {@code internal.metrics.diskBytesSpilled}
 */
public record StageSpill(
    int stageId, int attemptId, String name, long memoryBytes, long diskBytes, String source, long line) {}
