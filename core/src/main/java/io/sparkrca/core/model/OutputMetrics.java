package io.sparkrca.core.model;

/** Bytes and records a task wrote to its output. */
public record OutputMetrics(long bytesWritten, long recordsWritten) {}
