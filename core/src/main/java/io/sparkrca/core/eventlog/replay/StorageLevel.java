package io.sparkrca.core.eventlog.replay;

/** Spark's {@code StorageLevel}, with its {@code description} text. */
record StorageLevel(
    boolean useDisk, boolean useMemory, boolean useOffHeap, boolean deserialized, int replication) {

  static final StorageLevel NONE = new StorageLevel(false, false, false, false, 1);

  boolean isValid() {
    return (useMemory || useDisk) && replication > 0;
  }

  /** Spark's {@code StorageLevel.description}, e.g. "Memory Deserialized 1x Replicated". */
  String description() {
    StringBuilder result = new StringBuilder();
    if (useDisk) {
      result.append("Disk ");
    }
    if (useMemory) {
      result.append(useOffHeap ? "Memory (off heap) " : "Memory ");
    }
    result.append(deserialized ? "Deserialized " : "Serialized ");
    result.append(replication).append("x Replicated");
    return result.toString();
  }
}
