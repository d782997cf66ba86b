package io.sparkrca.core.model;

import java.util.List;

/** One cached partition (block) of an RDD and the executors holding it. */
public record RDDPartitionInfo(
    String blockName, String storageLevel, long memoryUsed, long diskUsed, List<String> executors) {
  public RDDPartitionInfo {
    executors = List.copyOf(executors);
  }
}
