package io.sparkrca.core.model;

import java.util.List;
import java.util.Optional;

/**
 * A persisted RDD ({@code /applications/[app-id]/storage/rdd/[id]}).
 *
 * <pre>{@code
 * app.rdds().forEach(r -> System.out.println(r.name() + " " + r.memoryUsed()));
 * }</pre>
 */
public record RDDStorageInfo(
    int id,
    String name,
    int numPartitions,
    int numCachedPartitions,
    String storageLevel,
    long memoryUsed,
    long diskUsed,
    Optional<List<RDDDataDistribution>> dataDistribution,
    Optional<List<RDDPartitionInfo>> partitions) {
  public RDDStorageInfo {
    dataDistribution = dataDistribution.map(List::copyOf);
    partitions = partitions.map(List::copyOf);
  }
}
