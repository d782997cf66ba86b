package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.StageStatus;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** A stage attempt as the History Server's listener tracks it. */
final class LiveStage {
  StageInfo info;
  List<LiveJob> jobs = new ArrayList<>();
  Set<Integer> jobIds = new HashSet<>();
  StageStatus status = StageStatus.PENDING;
  Optional<String> description = Optional.empty();
  String schedulingPool = "default";
  int activeTasks;
  int completedTasks;
  int failedTasks;
  int killedTasks;
  final BitSet completedIndices = new BitSet();
  Map<String, Integer> killedSummary = new LinkedHashMap<>();
  long firstLaunchTime = Long.MAX_VALUE;
  final Map<String, Long> localitySummary = new HashMap<>();
  final long[] metrics = new long[Metrics.COUNT];
  final Map<String, LiveExecutorStageSummary> executorSummaries = new TreeMap<>();
  final Map<String, Integer> activeTasksPerExecutor = new HashMap<>();
  final Set<String> excludedExecutors = new HashSet<>();
  final PeakMetrics peak = new PeakMetrics();
  SpeculationCounts speculation;

  LiveStage(StageInfo info) {
    this.info = info;
  }

  LiveExecutorStageSummary executorSummary(String executorId) {
    return executorSummaries.computeIfAbsent(executorId, k -> new LiveExecutorStageSummary());
  }

  SpeculationCounts speculation() {
    if (speculation == null) {
      speculation = new SpeculationCounts();
    }
    return speculation;
  }

  /** Speculative task counts of a stage attempt. */
  static final class SpeculationCounts {
    int numTasks;
    int numActiveTasks;
    int numCompletedTasks;
    int numFailedTasks;
    int numKilledTasks;
  }
}
