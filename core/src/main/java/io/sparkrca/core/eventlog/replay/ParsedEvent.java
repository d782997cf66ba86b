package io.sparkrca.core.eventlog.replay;

/**
 * Scratch objects for one event read by {@link TaskEventScanner}: which of them holds the event
 * is what {@link TaskEventScanner#scan} returns. Reused between events.
 */
final class ParsedEvent {
  final TaskStartEvent taskStart = new TaskStartEvent();
  final TaskEndEvent taskEnd = new TaskEndEvent();
  final StageExecutorMetricsEvent stageMetrics = new StageExecutorMetricsEvent();
}
