package io.sparkrca.core.model;

import java.util.List;

/** Quantiles of shuffle write metrics. */
public record ShuffleWriteMetricDistributions(
    List<Double> writeBytes, List<Double> writeRecords, List<Double> writeTime) {}
