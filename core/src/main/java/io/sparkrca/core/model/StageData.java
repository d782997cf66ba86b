package io.sparkrca.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One stage attempt ({@code /applications/[app-id]/stages/[id]/[attempt]}) with the History
 * Server's fields. {@code tasks}, {@code executorSummary}, {@code speculationSummary} and the
 * distributions are present only when asked for ({@code details}, {@code withSummaries}).
 *
 * <pre>{@code
 * app.stages(StageQuery.all()).stream()
 *     .filter(s -> s.status() == StageStatus.FAILED)
 *     .forEach(s -> System.out.println(s.stageId() + ": " + s.failureReason().orElse("")));
 * }</pre>
 */
public record StageData(
    StageStatus status,
    int stageId,
    int attemptId,
    int numTasks,
    int numActiveTasks,
    int numCompleteTasks,
    int numFailedTasks,
    int numKilledTasks,
    int numCompletedIndices,
    Optional<Instant> submissionTime,
    Optional<Instant> firstTaskLaunchedTime,
    Optional<Instant> completionTime,
    Optional<String> failureReason,
    long executorDeserializeTime,
    long executorDeserializeCpuTime,
    long executorRunTime,
    long executorCpuTime,
    long resultSize,
    long jvmGcTime,
    long resultSerializationTime,
    long memoryBytesSpilled,
    long diskBytesSpilled,
    long peakExecutionMemory,
    long inputBytes,
    long inputRecords,
    long outputBytes,
    long outputRecords,
    long shuffleRemoteBlocksFetched,
    long shuffleLocalBlocksFetched,
    long shuffleFetchWaitTime,
    long shuffleRemoteBytesRead,
    long shuffleRemoteBytesReadToDisk,
    long shuffleLocalBytesRead,
    long shuffleReadBytes,
    long shuffleReadRecords,
    long shuffleCorruptMergedBlockChunks,
    long shuffleMergedFetchFallbackCount,
    long shuffleMergedRemoteBlocksFetched,
    long shuffleMergedLocalBlocksFetched,
    long shuffleMergedRemoteChunksFetched,
    long shuffleMergedLocalChunksFetched,
    long shuffleMergedRemoteBytesRead,
    long shuffleMergedLocalBytesRead,
    long shuffleRemoteReqsDuration,
    long shuffleMergedRemoteReqsDuration,
    long shuffleWriteBytes,
    long shuffleWriteTime,
    long shuffleWriteRecords,
    String name,
    Optional<String> description,
    String details,
    String schedulingPool,
    List<Integer> rddIds,
    List<AccumulableInfo> accumulatorUpdates,
    Optional<Map<Long, TaskData>> tasks,
    Optional<Map<String, ExecutorStageSummary>> executorSummary,
    Optional<SpeculationStageSummary> speculationSummary,
    Map<String, Integer> killedTasksSummary,
    int resourceProfileId,
    Optional<ExecutorMetrics> peakExecutorMetrics,
    Optional<TaskMetricDistributions> taskMetricsDistributions,
    Optional<ExecutorMetricsDistributions> executorMetricsDistributions,
    boolean isShufflePushEnabled,
    int shuffleMergersCount) {
  public StageData {
    rddIds = List.copyOf(rddIds);
    accumulatorUpdates = List.copyOf(accumulatorUpdates);
    killedTasksSummary = Copies.map(killedTasksSummary);
    tasks = tasks.map(Copies::map);
    executorSummary = executorSummary.map(Copies::map);
  }

  /** Wall-clock time from submission to completion, when both are known. */
  public Optional<java.time.Duration> wallClock() {
    if (submissionTime.isEmpty() || completionTime.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(java.time.Duration.between(submissionTime.get(), completionTime.get()));
  }

  /** This attempt with the given detail sections (used by queries with details or summaries). */
  public StageData withDetails(
      Optional<Map<Long, TaskData>> tasks,
      Optional<Map<String, ExecutorStageSummary>> executorSummary,
      Optional<SpeculationStageSummary> speculationSummary,
      Optional<TaskMetricDistributions> taskMetricsDistributions,
      Optional<ExecutorMetricsDistributions> executorMetricsDistributions) {
    return new StageData(
        status, stageId, attemptId, numTasks, numActiveTasks, numCompleteTasks, numFailedTasks,
        numKilledTasks, numCompletedIndices, submissionTime, firstTaskLaunchedTime, completionTime,
        failureReason, executorDeserializeTime, executorDeserializeCpuTime, executorRunTime,
        executorCpuTime, resultSize, jvmGcTime, resultSerializationTime, memoryBytesSpilled,
        diskBytesSpilled, peakExecutionMemory, inputBytes, inputRecords, outputBytes,
        outputRecords, shuffleRemoteBlocksFetched, shuffleLocalBlocksFetched, shuffleFetchWaitTime,
        shuffleRemoteBytesRead, shuffleRemoteBytesReadToDisk, shuffleLocalBytesRead,
        shuffleReadBytes, shuffleReadRecords, shuffleCorruptMergedBlockChunks,
        shuffleMergedFetchFallbackCount, shuffleMergedRemoteBlocksFetched,
        shuffleMergedLocalBlocksFetched, shuffleMergedRemoteChunksFetched,
        shuffleMergedLocalChunksFetched, shuffleMergedRemoteBytesRead, shuffleMergedLocalBytesRead,
        shuffleRemoteReqsDuration, shuffleMergedRemoteReqsDuration, shuffleWriteBytes,
        shuffleWriteTime, shuffleWriteRecords, name, description, details, schedulingPool, rddIds,
        accumulatorUpdates, tasks, executorSummary, speculationSummary, killedTasksSummary,
        resourceProfileId, peakExecutorMetrics, taskMetricsDistributions,
        executorMetricsDistributions, isShufflePushEnabled, shuffleMergersCount);
  }
}
