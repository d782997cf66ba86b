package io.sparkrca.core.model;

/** One SQL metric of a plan node, formatted the way the Spark UI shows it. */
public record SqlMetric(String name, String value) {}
