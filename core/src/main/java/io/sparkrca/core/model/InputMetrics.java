package io.sparkrca.core.model;

/** Bytes and records a task read from its input. */
public record InputMetrics(long bytesRead, long recordsRead) {}
