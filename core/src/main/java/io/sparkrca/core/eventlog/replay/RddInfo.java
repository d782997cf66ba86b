package io.sparkrca.core.eventlog.replay;

/** Spark's {@code RDDInfo} as a stage event carries it. */
record RddInfo(
    int id,
    String name,
    int numPartitions,
    StorageLevel storageLevel,
    String callsite,
    java.util.List<Integer> parentIds) {}
