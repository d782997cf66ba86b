package io.sparkrca.core.model;

import java.util.List;

/** Quantiles of push-based shuffle read metrics. */
public record ShufflePushReadMetricDistributions(
    List<Double> corruptMergedBlockChunks,
    List<Double> mergedFetchFallbackCount,
    List<Double> remoteMergedBlocksFetched,
    List<Double> localMergedBlocksFetched,
    List<Double> remoteMergedChunksFetched,
    List<Double> localMergedChunksFetched,
    List<Double> remoteMergedBytesRead,
    List<Double> localMergedBytesRead,
    List<Double> remoteMergedReqsDuration) {}
