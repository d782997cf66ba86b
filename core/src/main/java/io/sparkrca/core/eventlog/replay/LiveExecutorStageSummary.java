package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.ExecutorStageSummary;

/** What one executor did for one stage attempt. */
final class LiveExecutorStageSummary {
  long taskTime;
  int succeededTasks;
  int failedTasks;
  int killedTasks;
  boolean excluded;
  final long[] metrics = new long[Metrics.COUNT];
  final PeakMetrics peak = new PeakMetrics();

  ExecutorStageSummary toApi() {
    return new ExecutorStageSummary(
        taskTime,
        failedTasks,
        succeededTasks,
        killedTasks,
        metrics[Metrics.INPUT_BYTES],
        metrics[Metrics.INPUT_RECORDS],
        metrics[Metrics.OUTPUT_BYTES],
        metrics[Metrics.OUTPUT_RECORDS],
        metrics[Metrics.SHUFFLE_REMOTE_BYTES] + metrics[Metrics.SHUFFLE_LOCAL_BYTES],
        metrics[Metrics.SHUFFLE_READ_RECORDS],
        metrics[Metrics.SHUFFLE_WRITE_BYTES],
        metrics[Metrics.SHUFFLE_WRITE_RECORDS],
        metrics[Metrics.MEMORY_BYTES_SPILLED],
        metrics[Metrics.DISK_BYTES_SPILLED],
        excluded,
        peak.toApi(),
        excluded);
  }
}
