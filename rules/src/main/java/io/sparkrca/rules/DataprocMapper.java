package io.sparkrca.rules;

import com.google.protobuf.Message;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.model.AccumulableInfo;
import io.sparkrca.core.model.ExecutorMetrics;
import io.sparkrca.core.model.ExecutorMetricsDistributions;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.InputMetrics;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.MemoryMetrics;
import io.sparkrca.core.model.OutputMetrics;
import io.sparkrca.core.model.ShufflePushReadMetricDistributions;
import io.sparkrca.core.model.ShufflePushReadMetrics;
import io.sparkrca.core.model.ShuffleReadMetrics;
import io.sparkrca.core.model.ShuffleWriteMetrics;
import io.sparkrca.core.model.SpeculationStageSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskMetrics;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.model.TaskTotals;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The one mapping from the core model (whatever source produced it) to the Dataproc v1 messages
 * rules read. Every value is the History Server's value for the same stage attempt:
 *
 * <ul>
 *   <li>{@code stage_metrics}: the stage attempt's totals ({@code executorRunTime},
 *       {@code jvmGcTime}, spill, input, output; shuffle read {@code bytes_read} is local plus
 *       remote bytes; shuffle write {@code write_time_nanos} is Spark's nanoseconds).
 *   <li>{@code task_quantile_metrics}: {@code taskSummary} at quantiles 0, 0.25, 0.5, 0.75 and 1
 *       (minimum, percentile_25/50/75, maximum), over the successful tasks as the History Server
 *       computes it; {@code count} is the number of those tasks and {@code sum} their total.
 *       Unset when no task reported metrics.
 *   <li>{@code executor_metrics_distributions}: the same quantiles across the attempt's executors;
 *       {@code peak_memory_metrics} has one {@code ExecutorMetrics} per quantile.
 *   <li>{@code job_ids} from the jobs that list the stage. {@code parent_stage_ids},
 *       {@code locality} and {@code tasks} are not in the History Server's stage data and stay
 *       empty.
 *   <li>{@code total_executor_summary}: sums over every executor the application had, live or
 *       dead, and the driver, as the Spark UI's "Total" row; {@code count} counts them and
 *       {@code is_excluded} counts excluded ones.
 * </ul>
 */
final class DataprocMapper {
  /** The quantiles Dataproc's {@code Quantiles} message holds. */
  static final List<Double> QUANTILES = List.of(0.0, 0.25, 0.5, 0.75, 1.0);

  private DataprocMapper() {}

  /** Every stage attempt, oldest stage first and attempts in order. */
  static List<Message> stages(SparkApplication app) {
    List<StageData> list = new ArrayList<>(app.stages(StageQuery.all()));
    list.sort(Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId));
    Map<Integer, Set<Integer>> jobsByStage = new LinkedHashMap<>();
    for (JobData j : app.jobs(Set.of())) {
      for (Integer s : j.stageIds()) {
        jobsByStage.computeIfAbsent(s, k -> new TreeSet<>()).add(j.jobId());
      }
    }
    StageQuery detailed =
        StageQuery.all()
            .withDetails(true)
            .withTaskStatuses(Set.of(TaskStatus.SUCCESS))
            .withSummaries(QUANTILES)
            // the quantiles' sums come from taskTotals: a record per task would cost the
            // mapping of a 1M-task log as much as its replay
            .withoutTasks();
    List<Message> out = new ArrayList<>(list.size());
    Messages.EntryCache entries = new Messages.EntryCache();
    for (StageData s : list) {
      StageData full = app.stageAttempt(s.stageId(), s.attemptId(), detailed).orElse(s);
      TaskTotals totals =
          full.tasks()
              .map(tasks -> TaskTotals.of(tasks.values()))
              .or(() -> app.taskTotals(s.stageId(), s.attemptId()))
              .orElseGet(() -> TaskTotals.of(List.of()));
      out.add(stage(full, jobsByStage.getOrDefault(s.stageId(), Set.of()), totals, entries));
    }
    return out;
  }

  static Message stage(StageData s, Set<Integer> jobIds, TaskTotals totals, Messages.EntryCache entries) {
    Messages.B b =
        Messages.of("StageData", entries)
            .i64("stage_id", s.stageId())
            .i32("stage_attempt_id", s.attemptId())
            .enumValue("status", status(s.status()))
            .i32("num_tasks", s.numTasks())
            .i32("num_active_tasks", s.numActiveTasks())
            .i32("num_complete_tasks", s.numCompleteTasks())
            .i32("num_failed_tasks", s.numFailedTasks())
            .i32("num_killed_tasks", s.numKilledTasks())
            .i32("num_completed_indices", s.numCompletedIndices())
            .time("submission_time", s.submissionTime())
            .time("first_task_launched_time", s.firstTaskLaunchedTime())
            .time("completion_time", s.completionTime())
            .str("failure_reason", s.failureReason())
            .str("name", s.name())
            .str("description", s.description())
            .str("details", s.details())
            .str("scheduling_pool", s.schedulingPool())
            .ints64("job_ids", new ArrayList<>(jobIds))
            .ints64("rdd_ids", s.rddIds())
            .map("killed_tasks_summary", new TreeMap<>(s.killedTasksSummary()))
            .i32("resource_profile_id", s.resourceProfileId())
            .bool("is_shuffle_push_enabled", s.isShufflePushEnabled())
            .i32("shuffle_mergers_count", s.shuffleMergersCount())
            .messages("accumulator_updates", s.accumulatorUpdates().stream().map(DataprocMapper::accumulable).toList())
            .msg("stage_metrics", stageMetrics(s))
            .msg("peak_executor_metrics", s.peakExecutorMetrics().map(m -> executorMetrics(m, entries)))
            .msg("speculation_summary", s.speculationSummary().map(x -> speculation(x, s)));
    s.executorSummary()
        .ifPresent(
            m -> {
              Map<String, Message> ex = new TreeMap<>();
              m.forEach((id, e) -> ex.put(id, executorStage(id, e, s, entries)));
              b.map("executor_summary", ex);
            });
    s.taskMetricsDistributions()
        .ifPresent(d -> b.msg("task_quantile_metrics", taskQuantiles(d, totals)));
    s.executorMetricsDistributions().ifPresent(d -> b.msg("executor_metrics_distributions", executorDistributions(d, entries)));
    return b.build();
  }

  static int status(StageStatus s) {
    return switch (s) {
      case ACTIVE -> 1;
      case COMPLETE -> 2;
      case FAILED -> 3;
      case PENDING -> 4;
      case SKIPPED -> 5;
    };
  }

  private static Message accumulable(AccumulableInfo a) {
    return Messages.of("AccumulableInfo")
        .i64("accumullable_info_id", a.id())
        .str("name", a.name())
        .str("update", a.update())
        .str("value", a.value())
        .build();
  }

  private static Message stageMetrics(StageData s) {
    return Messages.of("StageMetrics")
        .i64("executor_deserialize_time_millis", s.executorDeserializeTime())
        .i64("executor_deserialize_cpu_time_nanos", s.executorDeserializeCpuTime())
        .i64("executor_run_time_millis", s.executorRunTime())
        .i64("executor_cpu_time_nanos", s.executorCpuTime())
        .i64("result_size", s.resultSize())
        .i64("jvm_gc_time_millis", s.jvmGcTime())
        .i64("result_serialization_time_millis", s.resultSerializationTime())
        .i64("memory_bytes_spilled", s.memoryBytesSpilled())
        .i64("disk_bytes_spilled", s.diskBytesSpilled())
        .i64("peak_execution_memory_bytes", s.peakExecutionMemory())
        .msg(
            "stage_input_metrics",
            Messages.of("StageInputMetrics")
                .i64("bytes_read", s.inputBytes())
                .i64("records_read", s.inputRecords())
                .build())
        .msg(
            "stage_output_metrics",
            Messages.of("StageOutputMetrics")
                .i64("bytes_written", s.outputBytes())
                .i64("records_written", s.outputRecords())
                .build())
        .msg(
            "stage_shuffle_read_metrics",
            Messages.of("StageShuffleReadMetrics")
                .i64("bytes_read", s.shuffleReadBytes())
                .i64("records_read", s.shuffleReadRecords())
                .i64("fetch_wait_time_millis", s.shuffleFetchWaitTime())
                .i64("local_blocks_fetched", s.shuffleLocalBlocksFetched())
                .i64("local_bytes_read", s.shuffleLocalBytesRead())
                .i64("remote_blocks_fetched", s.shuffleRemoteBlocksFetched())
                .i64("remote_bytes_read", s.shuffleRemoteBytesRead())
                .i64("remote_bytes_read_to_disk", s.shuffleRemoteBytesReadToDisk())
                .i64("remote_reqs_duration", s.shuffleRemoteReqsDuration())
                .msg(
                    "stage_shuffle_push_read_metrics",
                    Messages.of("StageShufflePushReadMetrics")
                        .i64("corrupt_merged_block_chunks", s.shuffleCorruptMergedBlockChunks())
                        .i64("merged_fetch_fallback_count", s.shuffleMergedFetchFallbackCount())
                        .i64("remote_merged_blocks_fetched", s.shuffleMergedRemoteBlocksFetched())
                        .i64("local_merged_blocks_fetched", s.shuffleMergedLocalBlocksFetched())
                        .i64("remote_merged_chunks_fetched", s.shuffleMergedRemoteChunksFetched())
                        .i64("local_merged_chunks_fetched", s.shuffleMergedLocalChunksFetched())
                        .i64("remote_merged_bytes_read", s.shuffleMergedRemoteBytesRead())
                        .i64("local_merged_bytes_read", s.shuffleMergedLocalBytesRead())
                        .i64("remote_merged_reqs_duration", s.shuffleMergedRemoteReqsDuration())
                        .build())
                .build())
        .msg(
            "stage_shuffle_write_metrics",
            Messages.of("StageShuffleWriteMetrics")
                .i64("bytes_written", s.shuffleWriteBytes())
                .i64("records_written", s.shuffleWriteRecords())
                .i64("write_time_nanos", s.shuffleWriteTime())
                .build())
        .build();
  }

  static Message executorMetrics(ExecutorMetrics m, Messages.EntryCache entries) {
    return Messages.of("ExecutorMetrics", entries).map("metrics", m.values()).build();
  }

  private static Message speculation(SpeculationStageSummary x, StageData s) {
    return Messages.of("SpeculationStageSummary")
        .i32("stage_id", s.stageId())
        .i32("stage_attempt_id", s.attemptId())
        .i32("num_tasks", x.numTasks())
        .i32("num_active_tasks", x.numActiveTasks())
        .i32("num_completed_tasks", x.numCompletedTasks())
        .i32("num_failed_tasks", x.numFailedTasks())
        .i32("num_killed_tasks", x.numKilledTasks())
        .build();
  }

  private static Message executorStage(String id, ExecutorStageSummary e, StageData s, Messages.EntryCache entries) {
    return Messages.of("ExecutorStageSummary")
        .str("executor_id", id)
        .i64("stage_id", s.stageId())
        .i32("stage_attempt_id", s.attemptId())
        .i64("task_time_millis", e.taskTime())
        .i32("failed_tasks", e.failedTasks())
        .i32("succeeded_tasks", e.succeededTasks())
        .i32("killed_tasks", e.killedTasks())
        .i64("input_bytes", e.inputBytes())
        .i64("input_records", e.inputRecords())
        .i64("output_bytes", e.outputBytes())
        .i64("output_records", e.outputRecords())
        .i64("shuffle_read", e.shuffleRead())
        .i64("shuffle_read_records", e.shuffleReadRecords())
        .i64("shuffle_write", e.shuffleWrite())
        .i64("shuffle_write_records", e.shuffleWriteRecords())
        .i64("memory_bytes_spilled", e.memoryBytesSpilled())
        .i64("disk_bytes_spilled", e.diskBytesSpilled())
        .bool("is_excluded_for_stage", e.isExcludedForStage() || e.isBlacklistedForStage())
        .msg("peak_memory_metrics", e.peakMemoryMetrics().map(m -> executorMetrics(m, entries)))
        .build();
  }

  // ------------------------------------------------------------------ task quantiles

  private static Message taskQuantiles(TaskMetricDistributions d, TaskTotals totals) {
    long count = totals.count();
    TaskMetrics m = totals.metrics();
    InputMetrics im = m.inputMetrics();
    OutputMetrics om = m.outputMetrics();
    ShuffleReadMetrics rm = m.shuffleReadMetrics();
    ShuffleWriteMetrics wm = m.shuffleWriteMetrics();
    var in = d.inputMetrics();
    var out = d.outputMetrics();
    var sr = d.shuffleReadMetrics();
    var sw = d.shuffleWriteMetrics();
    return Messages.of("TaskQuantileMetrics")
        .msg("duration_millis", q(d.duration(), totals.duration(), count))
        .msg("executor_deserialize_time_millis", q(d.executorDeserializeTime(), m.executorDeserializeTime(), count))
        .msg("executor_deserialize_cpu_time_nanos", q(d.executorDeserializeCpuTime(), m.executorDeserializeCpuTime(), count))
        .msg("executor_run_time_millis", q(d.executorRunTime(), m.executorRunTime(), count))
        .msg("executor_cpu_time_nanos", q(d.executorCpuTime(), m.executorCpuTime(), count))
        .msg("result_size", q(d.resultSize(), m.resultSize(), count))
        .msg("jvm_gc_time_millis", q(d.jvmGcTime(), m.jvmGcTime(), count))
        .msg("result_serialization_time_millis", q(d.resultSerializationTime(), m.resultSerializationTime(), count))
        .msg("getting_result_time_millis", q(d.gettingResultTime(), totals.gettingResultTime(), count))
        .msg("scheduler_delay_millis", q(d.schedulerDelay(), totals.schedulerDelay(), count))
        .msg("peak_execution_memory_bytes", q(d.peakExecutionMemory(), m.peakExecutionMemory(), count))
        .msg("memory_bytes_spilled", q(d.memoryBytesSpilled(), m.memoryBytesSpilled(), count))
        .msg("disk_bytes_spilled", q(d.diskBytesSpilled(), m.diskBytesSpilled(), count))
        .msg(
            "input_metrics",
            Messages.of("InputQuantileMetrics")
                .msg("bytes_read", q(in.bytesRead(), im.bytesRead(), count))
                .msg("records_read", q(in.recordsRead(), im.recordsRead(), count))
                .build())
        .msg(
            "output_metrics",
            Messages.of("OutputQuantileMetrics")
                .msg("bytes_written", q(out.bytesWritten(), om.bytesWritten(), count))
                .msg("records_written", q(out.recordsWritten(), om.recordsWritten(), count))
                .build())
        .msg(
            "shuffle_read_metrics",
            Messages.of("ShuffleReadQuantileMetrics")
                .msg("read_bytes", q(sr.readBytes(), rm.totalBytesRead(), count))
                .msg("read_records", q(sr.readRecords(), rm.recordsRead(), count))
                .msg("remote_blocks_fetched", q(sr.remoteBlocksFetched(), rm.remoteBlocksFetched(), count))
                .msg("local_blocks_fetched", q(sr.localBlocksFetched(), rm.localBlocksFetched(), count))
                .msg("fetch_wait_time_millis", q(sr.fetchWaitTime(), rm.fetchWaitTime(), count))
                .msg("remote_bytes_read", q(sr.remoteBytesRead(), rm.remoteBytesRead(), count))
                .msg("remote_bytes_read_to_disk", q(sr.remoteBytesReadToDisk(), rm.remoteBytesReadToDisk(), count))
                .msg("total_blocks_fetched", q(sr.totalBlocksFetched(), rm.localBlocksFetched() + rm.remoteBlocksFetched(), count))
                .msg("remote_reqs_duration", q(sr.remoteReqsDuration(), rm.remoteReqsDuration(), count))
                .msg("shuffle_push_read_metrics", pushQuantiles(sr.shufflePushReadMetricsDist(), rm.shufflePushReadMetrics(), count))
                .build())
        .msg(
            "shuffle_write_metrics",
            Messages.of("ShuffleWriteQuantileMetrics")
                .msg("write_bytes", q(sw.writeBytes(), wm.bytesWritten(), count))
                .msg("write_records", q(sw.writeRecords(), wm.recordsWritten(), count))
                .msg("write_time_nanos", q(sw.writeTime(), wm.writeTime(), count))
                .build())
        .build();
  }

  private static Message pushQuantiles(ShufflePushReadMetricDistributions p, ShufflePushReadMetrics m, long count) {
    return Messages.of("ShufflePushReadQuantileMetrics")
        .msg("corrupt_merged_block_chunks", q(p.corruptMergedBlockChunks(), m.corruptMergedBlockChunks(), count))
        .msg("merged_fetch_fallback_count", q(p.mergedFetchFallbackCount(), m.mergedFetchFallbackCount(), count))
        .msg("remote_merged_blocks_fetched", q(p.remoteMergedBlocksFetched(), m.remoteMergedBlocksFetched(), count))
        .msg("local_merged_blocks_fetched", q(p.localMergedBlocksFetched(), m.localMergedBlocksFetched(), count))
        .msg("remote_merged_chunks_fetched", q(p.remoteMergedChunksFetched(), m.remoteMergedChunksFetched(), count))
        .msg("local_merged_chunks_fetched", q(p.localMergedChunksFetched(), m.localMergedChunksFetched(), count))
        .msg("remote_merged_bytes_read", q(p.remoteMergedBytesRead(), m.remoteMergedBytesRead(), count))
        .msg("local_merged_bytes_read", q(p.localMergedBytesRead(), m.localMergedBytesRead(), count))
        .msg("remote_merged_reqs_duration", q(p.remoteMergedReqsDuration(), m.remoteMergedReqsDuration(), count))
        .build();
  }

  /** A Quantiles message from values at {@link #QUANTILES}. */
  private static Message q(List<Double> values, long sum, long count) {
    return Messages.of("Quantiles")
        .i64("minimum", at(values, 0))
        .i64("percentile_25", at(values, 1))
        .i64("percentile_50", at(values, 2))
        .i64("percentile_75", at(values, 3))
        .i64("maximum", at(values, 4))
        .i64("sum", sum)
        .i64("count", count)
        .build();
  }

  private static long at(List<Double> values, int i) {
    return i < values.size() ? Math.round(values.get(i)) : 0;
  }

  private static Message executorDistributions(ExecutorMetricsDistributions d, Messages.EntryCache entries) {
    List<Message> peaks = new ArrayList<>();
    for (int i = 0; i < d.quantiles().size(); i++) {
      Map<String, Long> m = new LinkedHashMap<>();
      final int idx = i;
      d.peakMemoryMetrics().forEach((k, v) -> m.put(k, idx < v.size() ? Math.round(v.get(idx)) : 0L));
      if (!m.isEmpty()) {
        peaks.add(Messages.of("ExecutorMetrics", entries).map("metrics", m).build());
      }
    }
    Messages.B b =
        Messages.of("ExecutorMetricsDistributions")
            .doubles("quantiles", d.quantiles())
            .doubles("task_time_millis", d.taskTime())
            .doubles("failed_tasks", d.failedTasks())
            .doubles("succeeded_tasks", d.succeededTasks())
            .doubles("killed_tasks", d.killedTasks())
            .doubles("input_bytes", d.inputBytes())
            .doubles("input_records", d.inputRecords())
            .doubles("output_bytes", d.outputBytes())
            .doubles("output_records", d.outputRecords())
            .doubles("shuffle_read", d.shuffleRead())
            .doubles("shuffle_read_records", d.shuffleReadRecords())
            .doubles("shuffle_write", d.shuffleWrite())
            .doubles("shuffle_write_records", d.shuffleWriteRecords())
            .doubles("memory_bytes_spilled", d.memoryBytesSpilled())
            .doubles("disk_bytes_spilled", d.diskBytesSpilled());
    if (!peaks.isEmpty()) {
      b.msg(
          "peak_memory_metrics",
          Messages.of("ExecutorPeakMetricsDistributions")
              .messages("executor_metrics", peaks)
              .doubles("quantiles", d.quantiles())
              .build());
    }
    return b.build();
  }

  // ------------------------------------------------------------------ executors

  /** Sums over every executor and the driver, live or dead, as the Spark UI's "Total" row. */
  static Message totalExecutorSummary(List<ExecutorSummary> executors) {
    long active = 0, completed = 0, failed = 0, excluded = 0, rdd = 0, cores = 0, tasks = 0;
    long disk = 0, maxMem = 0, memUsed = 0, duration = 0, gc = 0, input = 0, sr = 0, sw = 0;
    long onTotal = 0, offTotal = 0, onUsed = 0, offUsed = 0;
    boolean anyMemory = false;
    for (ExecutorSummary e : executors) {
      active += e.activeTasks();
      completed += e.completedTasks();
      failed += e.failedTasks();
      excluded += e.isExcluded() || e.isBlacklisted() ? 1 : 0;
      rdd += e.rddBlocks();
      cores += e.totalCores();
      tasks += e.totalTasks();
      disk += e.diskUsed();
      maxMem += e.maxMemory();
      memUsed += e.memoryUsed();
      duration += e.totalDuration();
      gc += e.totalGCTime();
      input += e.totalInputBytes();
      sr += e.totalShuffleRead();
      sw += e.totalShuffleWrite();
      if (e.memoryMetrics().isPresent()) {
        MemoryMetrics m = e.memoryMetrics().get();
        anyMemory = true;
        onTotal += m.totalOnHeapStorageMemory();
        offTotal += m.totalOffHeapStorageMemory();
        onUsed += m.usedOnHeapStorageMemory();
        offUsed += m.usedOffHeapStorageMemory();
      }
    }
    Messages.B b =
        Messages.of("ConsolidatedExecutorSummary")
            .i32("count", executors.size())
            .i32("active_tasks", active)
            .i32("completed_tasks", completed)
            .i32("failed_tasks", failed)
            .i32("is_excluded", excluded)
            .i32("rdd_blocks", rdd)
            .i32("total_cores", cores)
            .i32("total_tasks", tasks)
            .i64("disk_used", disk)
            .i64("max_memory", maxMem)
            .i64("memory_used", memUsed)
            .i64("total_duration_millis", duration)
            .i64("total_gc_time_millis", gc)
            .i64("total_input_bytes", input)
            .i64("total_shuffle_read", sr)
            .i64("total_shuffle_write", sw);
    if (anyMemory) {
      b.msg(
          "memory_metrics",
          Messages.of("MemoryMetrics")
              .i64("total_on_heap_storage_memory", onTotal)
              .i64("total_off_heap_storage_memory", offTotal)
              .i64("used_on_heap_storage_memory", onUsed)
              .i64("used_off_heap_storage_memory", offUsed)
              .build());
    }
    return b.build();
  }

  static Optional<String> sparkVersion(SparkApplication app) {
    String v = app.sparkVersion();
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }
}
