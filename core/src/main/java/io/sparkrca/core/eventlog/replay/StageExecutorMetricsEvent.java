package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/**
 * A parsed {@code SparkListenerStageExecutorMetrics} event (an executor's peak metrics for one
 * stage attempt, logged at every stage end for every executor), reused between events.
 */
final class StageExecutorMetricsEvent {
  String executorId;
  int stageId;
  int stageAttemptId;
  /** In {@link PeakMetrics} order; absent metrics are 0, as in Spark. */
  final long[] metrics = new long[PeakMetrics.COUNT];

  void reset() {
    executorId = null;
    stageId = 0;
    stageAttemptId = 0;
    Arrays.fill(metrics, 0);
  }
}
