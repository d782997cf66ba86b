package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import java.time.Instant;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A job as the History Server's listener tracks it. */
final class LiveJob {
  final int jobId;
  final String name;
  final Optional<String> description;
  final Optional<Instant> submissionTime;
  final List<Integer> stageIds;
  final Optional<String> jobGroup;
  final List<String> jobTags;
  final int numTasks;
  final Optional<Long> sqlExecutionId;

  int activeTasks;
  int completedTasks;
  int failedTasks;
  int killedTasks;
  int skippedTasks;
  int activeStages;
  int failedStages;
  Map<String, Integer> killedSummary = new LinkedHashMap<>();
  final Set<Integer> skippedStages = new HashSet<>();
  final Set<Integer> completedStages = new HashSet<>();
  /** Completed task indices per stage id (Spark packs them into longs in one hash set). */
  private final Map<Integer, BitSet> completedIndices = new HashMap<>();

  JobExecutionStatus status = JobExecutionStatus.RUNNING;
  Optional<Instant> completionTime = Optional.empty();

  /** What the History Server last wrote for this job (its answer), or null before any write. */
  JobData published;

  LiveJob(
      int jobId,
      String name,
      Optional<String> description,
      Optional<Instant> submissionTime,
      List<Integer> stageIds,
      Optional<String> jobGroup,
      List<String> jobTags,
      int numTasks,
      Optional<Long> sqlExecutionId) {
    this.jobId = jobId;
    this.name = name;
    this.description = description;
    this.submissionTime = submissionTime;
    this.stageIds = List.copyOf(stageIds);
    this.jobGroup = jobGroup;
    this.jobTags = List.copyOf(jobTags);
    this.numTasks = numTasks;
    this.sqlExecutionId = sqlExecutionId;
  }

  void addCompletedIndex(int stageId, int index) {
    if (index >= 0) {
      completedIndices.computeIfAbsent(stageId, k -> new BitSet()).set(index);
    }
  }

  int completedIndexCount() {
    int n = 0;
    for (BitSet b : completedIndices.values()) {
      n += b.cardinality();
    }
    return n;
  }

  /** Records the current state as the published answer (Spark's {@code update(job)}). */
  void publish() {
    published =
        new JobData(
            jobId,
            name,
            description,
            submissionTime,
            completionTime,
            stageIds,
            jobGroup,
            jobTags,
            status,
            numTasks,
            activeTasks,
            completedTasks,
            skippedTasks,
            failedTasks,
            killedTasks,
            completedIndexCount(),
            activeStages,
            completedStages.size(),
            skippedStages.size(),
            failedStages,
            killedSummary);
  }
}
