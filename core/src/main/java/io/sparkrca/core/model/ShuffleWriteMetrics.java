package io.sparkrca.core.model;

/** Shuffle write metrics of a task; {@code writeTime} is in nanoseconds, as in Spark. */
public record ShuffleWriteMetrics(long bytesWritten, long writeTime, long recordsWritten) {}
