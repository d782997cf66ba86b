package io.sparkrca.core.model;

/** A task resource request of a resource profile (cpus per task, GPUs per task). */
public record TaskResourceRequest(String resourceName, double amount) {}
