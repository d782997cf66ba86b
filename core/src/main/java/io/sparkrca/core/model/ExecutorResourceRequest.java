package io.sparkrca.core.model;

/** An executor resource request of a resource profile (cores, memory, GPUs, ...). */
public record ExecutorResourceRequest(
    String resourceName, long amount, String discoveryScript, String vendor) {}
