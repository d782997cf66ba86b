package io.sparkrca.core.logs.replay.internal;

/**
 * One executor (or the driver, id {@code driver}) as the logs tell it: when it registered and
 * where, its cores and memory when a line gives them, and when and why it was removed.
 *
 * <pre>{@code
 * ExecutorState e = new ExecutorState("3");
 * e.removeReason = "Container killed by YARN for exceeding physical memory limits";
 * }</pre>
 */
final class ExecutorState {
  final String id;
  String host;
  String hostPort;
  int cores;
  long maxMemory;
  long added = TimeParser.NO_TIME;
  long removed = TimeParser.NO_TIME;
  String removeReason;
  boolean active = true;
  Integer exitCode;
  String container;
  int addSection = -1;
  long addLine;
  int removeSection = -1;
  long removeLine;

  // Counts over the task rows, made once every log is read (Finisher).
  int activeTasks;
  int completedTasks;
  int failedTasks;
  int totalTasks;
  long totalDuration;

  ExecutorState(String id) {
    this.id = id;
  }
}
