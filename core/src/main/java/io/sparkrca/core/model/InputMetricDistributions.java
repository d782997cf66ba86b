package io.sparkrca.core.model;

import java.util.List;

/** Quantiles of task input metrics. */
public record InputMetricDistributions(List<Double> bytesRead, List<Double> recordsRead) {}
