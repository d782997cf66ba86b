package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/** A parsed task end event, reused between events. */
final class TaskEndEvent {
  int stageId;
  int stageAttemptId;
  boolean infoMissing;
  final TaskInfoScratch info = new TaskInfoScratch();
  final TaskEndReason reason = new TaskEndReason();
  final long[] metrics = new long[Metrics.COUNT];
  final long[] executorMetrics = new long[PeakMetrics.COUNT];

  void reset() {
    stageId = 0;
    stageAttemptId = 0;
    infoMissing = false;
    info.reset();
    reason.reset();
    Arrays.fill(metrics, 0);
    Arrays.fill(executorMetrics, 0);
  }
}
