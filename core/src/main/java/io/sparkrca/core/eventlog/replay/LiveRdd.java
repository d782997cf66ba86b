package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.RDDDataDistribution;
import io.sparkrca.core.model.RDDPartitionInfo;
import io.sparkrca.core.model.RDDStorageInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A persisted RDD: its cached partitions and how much each executor holds. */
final class LiveRdd {
  final RddInfo info;
  long memoryUsed;
  long diskUsed;
  private final Map<String, Partition> partitions = new LinkedHashMap<>();
  private final Map<String, Distribution> distributions = new LinkedHashMap<>();
  private final Map<String, LiveExecutor> executorsSeen = new LinkedHashMap<>();

  LiveRdd(RddInfo info) {
    this.info = info;
  }

  /** Applies a block update; returns the change in the executor's RDD block count. */
  int updateBlock(
      String blockName, String execId, LiveExecutor exec, StorageLevel level, long memoryDelta, long diskDelta) {
    Partition partition = partitions.computeIfAbsent(blockName, Partition::new);
    int rddBlocksDelta = 0;
    List<String> executors;
    if (level.isValid()) {
      executors = new ArrayList<>(partition.executors);
      if (!executors.contains(execId)) {
        rddBlocksDelta = 1;
        executors.add(execId);
      }
    } else {
      rddBlocksDelta = -1;
      executors = new ArrayList<>(partition.executors);
      executors.remove(execId);
    }
    if (!executors.isEmpty()) {
      partition.update(
          executors,
          Math.max(0, partition.memoryUsed + memoryDelta),
          Math.max(0, partition.diskUsed + diskDelta),
          info.storageLevel());
    } else {
      partitions.remove(blockName);
    }
    if (exec != null) {
      executorsSeen.put(execId, exec);
      if (exec.rddBlocks + rddBlocksDelta > 0) {
        Distribution d = distributions.computeIfAbsent(execId, Distribution::new);
        d.memoryUsed = Math.max(0, d.memoryUsed + memoryDelta);
        d.diskUsed = Math.max(0, d.diskUsed + diskDelta);
        if (exec.hasMemoryInfo()) {
          if (level.useOffHeap()) {
            d.offHeapUsed = Math.max(0, d.offHeapUsed + memoryDelta);
          } else {
            d.onHeapUsed = Math.max(0, d.onHeapUsed + memoryDelta);
          }
        }
      } else {
        distributions.remove(execId);
      }
    }
    memoryUsed = Math.max(0, memoryUsed + memoryDelta);
    diskUsed = Math.max(0, diskUsed + diskDelta);
    return rddBlocksDelta;
  }

  void removeDistribution(String execId) {
    distributions.remove(execId);
  }

  void removeExecutorFromPartitions(String execId) {
    for (Partition p : new ArrayList<>(partitions.values())) {
      if (!p.executors.contains(execId)) {
        continue;
      }
      int n = p.executors.size();
      if (n == 1) {
        partitions.remove(p.blockName);
        memoryUsed = Math.max(0, memoryUsed - p.memoryUsed);
        diskUsed = Math.max(0, diskUsed - p.diskUsed);
      } else {
        memoryUsed = Math.max(0, memoryUsed - p.memoryUsed / n);
        diskUsed = Math.max(0, diskUsed - p.diskUsed / n);
        List<String> rest = new ArrayList<>(p.executors);
        rest.remove(execId);
        p.update(rest, Math.max(0, p.memoryUsed - p.memoryUsed / n), Math.max(0, p.diskUsed - p.diskUsed / n), info.storageLevel());
      }
    }
  }

  List<String> partitionExecutors() {
    List<String> all = new ArrayList<>();
    for (Partition p : partitions.values()) {
      all.addAll(p.executors);
    }
    return all;
  }

  List<Distribution> distributions() {
    return new ArrayList<>(distributions.values());
  }

  RDDStorageInfo toApi() {
    Optional<List<RDDDataDistribution>> dists = Optional.empty();
    if (!distributions.isEmpty()) {
      List<RDDDataDistribution> list = new ArrayList<>();
      for (Distribution d : distributions.values()) {
        LiveExecutor exec = executorsSeen.get(d.executorId);
        boolean memInfo = exec != null && exec.hasMemoryInfo();
        list.add(
            new RDDDataDistribution(
                exec == null ? d.executorId : (exec.hostPort != null ? exec.hostPort : exec.host),
                d.memoryUsed,
                exec == null ? 0 : exec.maxMemory - exec.memoryUsed,
                d.diskUsed,
                memInfo ? Optional.of(d.onHeapUsed) : Optional.empty(),
                memInfo ? Optional.of(d.offHeapUsed) : Optional.empty(),
                memInfo ? Optional.of(exec.totalOnHeap - exec.usedOnHeap) : Optional.empty(),
                memInfo ? Optional.of(exec.totalOffHeap - exec.usedOffHeap) : Optional.empty()));
      }
      dists = Optional.of(list);
    }
    List<RDDPartitionInfo> parts = new ArrayList<>();
    for (Partition p : partitions.values()) {
      parts.add(new RDDPartitionInfo(p.blockName, p.levelDescription, p.memoryUsed, p.diskUsed, p.executors));
    }
    return new RDDStorageInfo(
        info.id(),
        info.name(),
        info.numPartitions(),
        partitions.size(),
        info.storageLevel().description(),
        memoryUsed,
        diskUsed,
        dists,
        Optional.of(parts));
  }

  /** One cached block. */
  static final class Partition {
    final String blockName;
    List<String> executors = List.of();
    long memoryUsed;
    long diskUsed;
    String levelDescription = "";

    Partition(String blockName) {
      this.blockName = blockName;
    }

    void update(List<String> executors, long memoryUsed, long diskUsed, StorageLevel rddLevel) {
      this.executors = List.copyOf(executors);
      this.memoryUsed = memoryUsed;
      this.diskUsed = diskUsed;
      this.levelDescription =
          new StorageLevel(
                  diskUsed > 0,
                  memoryUsed > 0,
                  rddLevel.useOffHeap(),
                  memoryUsed > 0 && rddLevel.deserialized(),
                  executors.size())
              .description();
    }
  }

  /** What one executor holds of the RDD. */
  static final class Distribution {
    final String executorId;
    long memoryUsed;
    long diskUsed;
    long onHeapUsed;
    long offHeapUsed;

    Distribution(String executorId) {
      this.executorId = executorId;
    }
  }
}
