package io.sparkrca.core.model;

/** Counts of speculative task attempts in a stage attempt. */
public record SpeculationStageSummary(
    int numTasks, int numActiveTasks, int numCompletedTasks, int numFailedTasks, int numKilledTasks) {}
