package io.sparkrca.core.model;

/** Storage memory of an executor, on and off heap (absent for old event logs). */
public record MemoryMetrics(
    long usedOnHeapStorageMemory,
    long usedOffHeapStorageMemory,
    long totalOnHeapStorageMemory,
    long totalOffHeapStorageMemory) {}
