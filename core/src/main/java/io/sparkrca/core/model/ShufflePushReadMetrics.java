package io.sparkrca.core.model;

/** Push-based shuffle read metrics of a task (all zero when push-based shuffle is off). */
public record ShufflePushReadMetrics(
    long corruptMergedBlockChunks,
    long mergedFetchFallbackCount,
    long remoteMergedBlocksFetched,
    long localMergedBlocksFetched,
    long remoteMergedChunksFetched,
    long localMergedChunksFetched,
    long remoteMergedBytesRead,
    long localMergedBytesRead,
    long remoteMergedReqsDuration) {}
