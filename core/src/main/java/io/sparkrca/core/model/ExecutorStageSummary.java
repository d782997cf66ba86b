package io.sparkrca.core.model;

import java.util.Optional;

/**
 * What one executor did for one stage attempt (the {@code executorSummary} of a stage).
 *
 * <pre>{@code
 * stage.executorSummary().orElse(Map.of()).forEach((id, s) -> System.out.println(id + " " + s.taskTime()));
 * }</pre>
 */
public record ExecutorStageSummary(
    long taskTime,
    int failedTasks,
    int succeededTasks,
    int killedTasks,
    long inputBytes,
    long inputRecords,
    long outputBytes,
    long outputRecords,
    long shuffleRead,
    long shuffleReadRecords,
    long shuffleWrite,
    long shuffleWriteRecords,
    long memoryBytesSpilled,
    long diskBytesSpilled,
    boolean isBlacklistedForStage,
    Optional<ExecutorMetrics> peakMemoryMetrics,
    boolean isExcludedForStage) {}
