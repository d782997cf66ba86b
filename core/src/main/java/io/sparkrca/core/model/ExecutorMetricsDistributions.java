package io.sparkrca.core.model;

import java.util.List;
import java.util.Map;

/**
 * Quantiles, across the executors of a stage attempt, of what each executor did
 * ({@code withSummaries=true}). {@code peakMemoryMetrics} maps each metric name to its quantiles.
 */
public record ExecutorMetricsDistributions(
    List<Double> quantiles,
    List<Double> taskTime,
    List<Double> failedTasks,
    List<Double> succeededTasks,
    List<Double> killedTasks,
    List<Double> inputBytes,
    List<Double> inputRecords,
    List<Double> outputBytes,
    List<Double> outputRecords,
    List<Double> shuffleRead,
    List<Double> shuffleReadRecords,
    List<Double> shuffleWrite,
    List<Double> shuffleWriteRecords,
    List<Double> memoryBytesSpilled,
    List<Double> diskBytesSpilled,
    Map<String, List<Double>> peakMemoryMetrics) {
  public ExecutorMetricsDistributions {
    peakMemoryMetrics = Copies.map(peakMemoryMetrics);
  }
}
