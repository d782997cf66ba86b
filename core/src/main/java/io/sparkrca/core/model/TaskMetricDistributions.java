package io.sparkrca.core.model;

import java.util.List;

/**
 * Quantiles of task metrics over a stage attempt's successful tasks
 * ({@code .../taskSummary?quantiles=0.05,0.5,0.95}). Each list holds one value per quantile.
 *
 * <pre>{@code
 * TaskMetricDistributions d = app.taskSummary(2, 0, List.of(0.5, 1.0)).orElseThrow();
 * double skew = d.duration().get(1) / Math.max(1, d.duration().get(0));
 * }</pre>
 */
public record TaskMetricDistributions(
    List<Double> quantiles,
    List<Double> duration,
    List<Double> executorDeserializeTime,
    List<Double> executorDeserializeCpuTime,
    List<Double> executorRunTime,
    List<Double> executorCpuTime,
    List<Double> resultSize,
    List<Double> jvmGcTime,
    List<Double> resultSerializationTime,
    List<Double> gettingResultTime,
    List<Double> schedulerDelay,
    List<Double> peakExecutionMemory,
    List<Double> memoryBytesSpilled,
    List<Double> diskBytesSpilled,
    InputMetricDistributions inputMetrics,
    OutputMetricDistributions outputMetrics,
    ShuffleReadMetricDistributions shuffleReadMetrics,
    ShuffleWriteMetricDistributions shuffleWriteMetrics) {}
