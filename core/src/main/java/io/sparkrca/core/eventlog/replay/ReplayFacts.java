package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.eventlog.BadLine;
import io.sparkrca.core.eventlog.ExecutorRemoval;
import io.sparkrca.core.eventlog.LogFacts;
import io.sparkrca.core.eventlog.StageFailure;
import io.sparkrca.core.eventlog.StageSpill;
import io.sparkrca.core.eventlog.TaskFailureGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Collects evidence and reading statistics during a replay; bounded whatever the log size. */
final class ReplayFacts {
  static final int MAX_BAD_LINES = 100;
  static final int MAX_FAILURE_GROUPS = 200;
  static final int MAX_STAGE_FAILURES = 1000;
  static final int MAX_REMOVALS = 1000;

  final StringPool strings = new StringPool();
  long lastUpdateTime;
  /** The latest time any event carries: "now" for an application whose log has no end. */
  long latestEventTime = -1;
  String currentSource = "";

  long lines;
  long events;
  final Map<String, Long> eventCounts = new LinkedHashMap<>();
  long badLineCount;
  final List<BadLine> badLines = new ArrayList<>();
  long overlongLines;
  boolean truncated;
  final List<String> notes = new ArrayList<>();

  int jobsStarted;
  int jobsFailed;
  int stagesSubmitted;
  long tasksEnded;
  long tasksFailed;
  long tasksKilled;
  long totalGcTime;
  long totalTaskTime;
  private final Map<String, FailureGroup> failureGroups = new LinkedHashMap<>();
  long failureGroupsDropped;
  final List<StageFailure> stageFailures = new ArrayList<>();
  final List<ExecutorRemoval> removals = new ArrayList<>();
  final List<StageSpill> spills = new ArrayList<>();

  void seeTime(long time) {
    if (time > latestEventTime) {
      latestEventTime = time;
    }
  }

  void countEvent(String name) {
    events++;
    eventCounts.merge(name, 1L, Long::sum);
  }

  void badLine(long line, String reason) {
    badLineCount++;
    if (badLines.size() < MAX_BAD_LINES) {
      badLines.add(new BadLine(currentSource, line, reason));
    }
  }

  void note(String note) {
    if (notes.size() < 100 && !notes.contains(note)) {
      notes.add(note);
    }
  }

  void jobStarted(int jobId, long line) {
    jobsStarted++;
  }

  void jobEnded(int jobId, boolean succeeded, long line) {
    if (!succeeded) {
      jobsFailed++;
    }
  }

  void stageSubmitted(int stageId, int attemptId, long line) {
    stagesSubmitted++;
  }

  void stageCompleted(StageInfo info, long line) {
    if ((info.accumulatedMemorySpill() > 0 || info.accumulatedDiskSpill() > 0)
        && spills.size() < MAX_STAGE_FAILURES) {
      spills.add(
          new StageSpill(
              info.stageId(), info.attemptId(), info.name(), info.accumulatedMemorySpill(),
              info.accumulatedDiskSpill(), currentSource, line));
    }
    if (info.failureReason().isPresent() && stageFailures.size() < MAX_STAGE_FAILURES) {
      stageFailures.add(
          new StageFailure(
              info.stageId(),
              info.attemptId(),
              info.name(),
              info.failureReason().get(),
              info.numTasks(),
              info.completionTime().orElse(-1L),
              currentSource,
              line));
    }
  }

  void executorAdded(String id, String host, int cores, long time) {}

  void executorRemoved(String id, String reason, long time, long line) {
    if (removals.size() < MAX_REMOVALS) {
      removals.add(new ExecutorRemoval(id, reason == null ? "" : reason, time, currentSource, line));
    }
  }

  void taskEnded(TaskEndEvent e, long line) {
    tasksEnded++;
    totalGcTime += e.metrics[Metrics.JVM_GC_TIME];
    totalTaskTime += e.info.duration();
    TaskEndReason r = e.reason;
    if (r.isSuccess()) {
      return;
    }
    if (r.isKilled()) {
      tasksKilled++;
    } else {
      tasksFailed++;
    }
    String exceptionClass = "ExceptionFailure".equals(r.reason) && r.className != null ? r.className : "";
    String description = r.shortDescription();
    String key = r.reason + "\u0000" + description;
    FailureGroup g = failureGroups.get(key);
    if (g == null) {
      if (failureGroups.size() >= MAX_FAILURE_GROUPS) {
        failureGroupsDropped++;
        return;
      }
      g =
          new FailureGroup(
              r.reason, exceptionClass, description, currentSource, line, e.info.finishTime,
              e.info.taskId, e.stageId, e.stageAttemptId, e.info.index, e.info.attempt,
              e.info.executorId, e.info.host);
      failureGroups.put(key, g);
    }
    g.count++;
    g.stageIds.add(e.stageId);
  }

  LogFacts toFacts(String sparkVersion) {
    List<TaskFailureGroup> groups = new ArrayList<>();
    for (FailureGroup g : failureGroups.values()) {
      groups.add(
          new TaskFailureGroup(
              g.reason, g.exceptionClass, g.description, g.count, g.source, g.line, g.time,
              g.taskId, g.stageId, g.stageAttemptId, g.index, g.attempt,
              g.executorId == null ? "" : g.executorId, g.host == null ? "" : g.host,
              new ArrayList<>(g.stageIds)));
    }
    return new LogFacts(
        sparkVersion, jobsStarted, jobsFailed, stagesSubmitted, tasksEnded, tasksFailed,
        tasksKilled, totalGcTime, totalTaskTime, groups, failureGroupsDropped, stageFailures,
        spills, removals);
  }

  private static final class FailureGroup {
    final String reason;
    final String exceptionClass;
    final String description;
    final String source;
    final long line;
    final long time;
    final long taskId;
    final int stageId;
    final int stageAttemptId;
    final int index;
    final int attempt;
    final String executorId;
    final String host;
    long count;
    final TreeSet<Integer> stageIds = new TreeSet<>();

    FailureGroup(
        String reason, String exceptionClass, String description, String source, long line,
        long time, long taskId, int stageId, int stageAttemptId, int index, int attempt,
        String executorId, String host) {
      this.reason = reason;
      this.exceptionClass = exceptionClass;
      this.description = description;
      this.source = source;
      this.line = line;
      this.time = time;
      this.taskId = taskId;
      this.stageId = stageId;
      this.stageAttemptId = stageAttemptId;
      this.index = index;
      this.attempt = attempt;
      this.executorId = executorId;
      this.host = host;
    }
  }
}
