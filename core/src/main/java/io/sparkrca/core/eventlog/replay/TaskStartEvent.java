package io.sparkrca.core.eventlog.replay;

/** A parsed task start event, reused between events. */
final class TaskStartEvent {
  int stageId;
  int stageAttemptId;
  final TaskInfoScratch info = new TaskInfoScratch();

  void reset() {
    stageId = 0;
    stageAttemptId = 0;
    info.reset();
  }
}
