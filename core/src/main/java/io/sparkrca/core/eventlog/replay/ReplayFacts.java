package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.JobFailure;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.StageSpill;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.app.internal.TaskFailureFolder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Collects evidence and reading statistics during a replay; bounded whatever the log size. */
final class ReplayFacts {
  static final int MAX_BAD_LINES = 100;
  static final int MAX_FAILURE_GROUPS = ApplicationFacts.MAX_FAILURE_GROUPS;
  static final int MAX_STAGE_FAILURES = 1000;
  static final int MAX_REMOVALS = 1000;

  final StringPool strings = new StringPool();
  long lastUpdateTime;
  /** The latest time any event carries: "now" for an application whose log has no end. */
  long latestEventTime = -1;
  String currentSource = "";

  long lines;
  long events;
  /** Events by name, in order of first appearance; counters, so counting allocates nothing. */
  private final Map<String, long[]> eventCounters = new LinkedHashMap<>();
  long badLineCount;
  final List<BadLine> badLines = new ArrayList<>();
  long overlongLines;
  boolean truncated;
  /** Parts of the log that could not be read at all (see {@link Replayer#partMissing}). */
  long missingParts;
  final List<String> notes = new ArrayList<>();

  int jobsStarted;
  int jobsFailed;
  int stagesSubmitted;
  long tasksEnded;
  long tasksFailed;
  long tasksKilled;
  long totalGcTime;
  long totalTaskTime;
  private final TaskFailureFolder failures = new TaskFailureFolder(MAX_FAILURE_GROUPS);
  final List<SqlFailure> sqlFailures = new ArrayList<>();
  final List<JobFailure> jobFailures = new ArrayList<>();
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
    eventCounters.computeIfAbsent(name, k -> new long[1])[0]++;
  }

  /** Events by name, in order of first appearance. */
  Map<String, Long> eventCounts() {
    Map<String, Long> out = new LinkedHashMap<>();
    eventCounters.forEach((name, n) -> out.put(name, n[0]));
    return out;
  }

  void badLine(long line, String reason) {
    badLineCount++;
    if (badLines.size() < MAX_BAD_LINES) {
      badLines.add(new BadLine(currentSource, line, reason));
    }
  }

  /** Events that contradict the others (damage, duplicates, events lost on the way), by kind: count and first line. */
  private final Map<String, long[]> inconsistencies = new LinkedHashMap<>();
  private final Map<String, String> firstInconsistency = new LinkedHashMap<>();

  /** Counts an event that contradicts the rest of the log (a task end without its start, a second end of one job). */
  void inconsistent(String what, long line) {
    inconsistencies.computeIfAbsent(what, k -> new long[1])[0]++;
    firstInconsistency.computeIfAbsent(what, k -> {
      String file = currentSource.substring(Math.max(currentSource.lastIndexOf('/'), currentSource.lastIndexOf('\\')) + 1);
      return "the first at " + (file.isEmpty() ? "" : file + " ") + "line " + line;
    });
  }

  /** Counts {@code count} contradictions found once the whole log was read. */
  void inconsistentAtEnd(String what, long count) {
    inconsistencies.computeIfAbsent(what, k -> new long[1])[0] += count;
    firstInconsistency.putIfAbsent(what, "found once the whole log was read");
  }

  /** One sentence per kind of contradiction: how many, and where the first is. */
  List<String> inconsistencies() {
    List<String> out = new ArrayList<>();
    inconsistencies.forEach((what, c) -> out.add(what + ": " + c[0] + ", " + firstInconsistency.get(what)));
    return out;
  }

  void note(String note) {
    if (notes.size() < 100 && !notes.contains(note)) {
      notes.add(note);
    }
  }

  void jobStarted(int jobId, long line) {
    jobsStarted++;
  }

  void jobEnded(int jobId, boolean succeeded, String error, long time, long line) {
    if (!succeeded) {
      jobsFailed++;
      if (jobFailures.size() < MAX_STAGE_FAILURES) {
        String text = error.length() > TaskFailureGroup.MAX_DETAIL_CHARS
            ? error.substring(0, TaskFailureGroup.MAX_DETAIL_CHARS) : error;
        jobFailures.add(new JobFailure(jobId, text, time, currentSource, line));
      }
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
    failures.add(r.reason, exceptionClass, r.shortDescription(), r::errorMessage, currentSource, line,
        e.info.finishTime, e.info.taskId, e.stageId, e.stageAttemptId, e.info.index, e.info.attempt,
        e.info.executorId, e.info.host);
  }

  void sqlFailed(long executionId, String description, String errorMessage, long time, long line) {
    if (sqlFailures.size() < MAX_STAGE_FAILURES) {
      String text = errorMessage.length() > TaskFailureGroup.MAX_DETAIL_CHARS
          ? errorMessage.substring(0, TaskFailureGroup.MAX_DETAIL_CHARS) : errorMessage;
      sqlFailures.add(new SqlFailure(executionId, description, text, time, currentSource, line));
    }
  }

  ApplicationFacts toFacts(String sparkVersion, java.util.Optional<Integer> exitCode) {
    return new ApplicationFacts(
        sparkVersion, jobsStarted, jobsFailed, stagesSubmitted, tasksEnded, tasksFailed,
        tasksKilled, totalGcTime, totalTaskTime, failures.groups(), failures.dropped(), stageFailures,
        spills, removals, sqlFailures, exitCode, jobFailures);
  }
}
