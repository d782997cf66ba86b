package io.sparkrca.core.model;

import java.util.Optional;

/** How much of a cached RDD one executor holds. */
public record RDDDataDistribution(
    String address,
    long memoryUsed,
    long memoryRemaining,
    long diskUsed,
    Optional<Long> onHeapMemoryUsed,
    Optional<Long> offHeapMemoryUsed,
    Optional<Long> onHeapMemoryRemaining,
    Optional<Long> offHeapMemoryRemaining) {}
