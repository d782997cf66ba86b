package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.ResourceInformation;
import java.util.Map;
import java.util.TreeSet;

/** An executor (or the driver) as the History Server's listener tracks it. */
final class LiveExecutor {
  final String executorId;
  final long addTime;
  String hostPort;
  String host;
  boolean isActive = true;
  int totalCores;
  long removeTime = -1;
  String removeReason;
  int rddBlocks;
  long memoryUsed;
  long diskUsed;
  int maxTasks;
  long maxMemory;
  int totalTasks;
  int activeTasks;
  int completedTasks;
  int failedTasks;
  long totalDuration;
  long totalGcTime;
  long totalInputBytes;
  long totalShuffleRead;
  long totalShuffleWrite;
  boolean isExcluded;
  final TreeSet<Integer> excludedInStages = new TreeSet<>();
  Map<String, String> executorLogs = Map.of();
  Map<String, String> attributes = Map.of();
  Map<String, ResourceInformation> resources = Map.of();
  long totalOnHeap = -1;
  long totalOffHeap;
  long usedOnHeap;
  long usedOffHeap;
  int resourceProfileId;
  final PeakMetrics peak = new PeakMetrics();
  /** Where this executor was removed in the log, for evidence. */
  long removedAtLine;

  LiveExecutor(String executorId, long addTime) {
    this.executorId = executorId;
    this.addTime = addTime;
  }

  boolean hasMemoryInfo() {
    return totalOnHeap >= 0;
  }

  String hostname() {
    if (host != null) {
      return host;
    }
    if (hostPort == null) {
      return null;
    }
    int colon = hostPort.lastIndexOf(':');
    return colon > 0 ? hostPort.substring(0, colon) : hostPort;
  }
}
