package io.sparkrca.core.model;

import java.util.List;

/** Quantiles of task output metrics. */
public record OutputMetricDistributions(List<Double> bytesWritten, List<Double> recordsWritten) {}
