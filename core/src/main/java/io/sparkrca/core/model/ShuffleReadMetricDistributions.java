package io.sparkrca.core.model;

import java.util.List;

/** Quantiles of shuffle read metrics; {@code readBytes} is local plus remote bytes. */
public record ShuffleReadMetricDistributions(
    List<Double> readBytes,
    List<Double> readRecords,
    List<Double> remoteBlocksFetched,
    List<Double> localBlocksFetched,
    List<Double> fetchWaitTime,
    List<Double> remoteBytesRead,
    List<Double> remoteBytesReadToDisk,
    List<Double> totalBlocksFetched,
    List<Double> remoteReqsDuration,
    ShufflePushReadMetricDistributions shufflePushReadMetricsDist) {}
