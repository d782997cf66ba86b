package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.logs.replay.LogOutcome;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageStatus;

/**
 * What can only be decided once every log is read: stages a finished job never ran are skipped
 * (as the History Server marks them); each task's status is the driver's, or the executor's where
 * the driver's log ends first; and the application's start, end and outcome.
 *
 * <pre>{@code
 * Finisher.finish(model);
 * }</pre>
 */
final class Finisher {
  private Finisher() {}

  static void finish(ModelState m) {
    for (JobState j : m.jobs.values()) {
      if (j.status == JobExecutionStatus.RUNNING) {
        continue;
      }
      for (int id : j.stageIds) {
        StageState st = m.latest.get(id);
        if (st != null && st.status == StageStatus.PENDING && !st.launched) {
          st.status = StageStatus.SKIPPED;
        }
      }
    }
    tally(m);
    times(m);
    outcome(m);
  }

  /** Counts each stage attempt's and executor's tasks by the status that counts. */
  private static void tally(ModelState m) {
    for (StageState st : m.stages.values()) {
      TaskTable t = st.tasks;
      java.util.BitSet indices = new java.util.BitSet();
      for (int r = 0; r < t.size; r++) {
        byte status = t.status(r);
        String executor = m.string(t.executor[r]);
        ExecutorState e = executor == null ? null : m.executor(executor);
        long d = Math.max(0, t.duration[r]);
        switch (status) {
          case TaskTable.SUCCESS -> {
            st.complete++;
            if (t.index[r] >= 0) {
              indices.set(t.index[r]);
            }
          }
          case TaskTable.FAILED -> st.failed++;
          case TaskTable.KILLED -> {
            st.killed++;
            String reason = t.error(r);
            st.killedSummary.merge(reason == null ? "unknown" : firstLine(reason), 1, Integer::sum);
          }
          case TaskTable.RUNNING -> st.active++;
          default -> {
          }
        }
        st.taskTime += d;
        if (e != null) {
          switch (status) {
            case TaskTable.SUCCESS -> e.completedTasks++;
            case TaskTable.FAILED, TaskTable.KILLED -> e.failedTasks++;
            case TaskTable.RUNNING -> e.activeTasks++;
            default -> {
            }
          }
          if (status >= TaskTable.SUCCESS) {
            e.totalTasks++;
          }
          e.totalDuration += d;
        }
      }
      st.complete += st.droppedComplete;
      st.taskTime += st.droppedDuration;
      st.completedIndices = indices.cardinality() + st.droppedComplete;
      if (st.status == StageStatus.ACTIVE && st.numTasks > 0 && st.completedIndices >= st.numTasks && st.completed == TimeParser.NO_TIME) {
        // every task done, but the log ends before the stage's end line: still active, as the History Server would show it
        st.active = 0;
      }
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** The application's start and end: the driver's first line, and its stop (or its last line when it never stopped). */
  private static void times(ModelState m) {
    long first = TimeParser.NO_TIME;
    long last = TimeParser.NO_TIME;
    for (Section s : m.sections) {
      if (s.role == LogRole.EXECUTOR) {
        continue;
      }
      if (s.firstTime != TimeParser.NO_TIME && (first == TimeParser.NO_TIME || s.firstTime < first)) {
        first = s.firstTime;
      }
      if (s.lastTime != TimeParser.NO_TIME && (last == TimeParser.NO_TIME || s.lastTime > last)) {
        last = s.lastTime;
      }
    }
    if (m.start == TimeParser.NO_TIME || first != TimeParser.NO_TIME && first < m.start) {
      m.start = first;
    }
    m.lastSeen = last;
  }

  private static void outcome(ModelState m) {
    if (m.status != null) {
      return;
    }
    m.status = LogOutcome.Status.UNKNOWN;
    m.statusReason = m.shutdownHook
        ? "the driver's JVM shut down without stopping its SparkContext (killed, or its main thread died)"
        : "the logs end while the application runs: it is still running, its log was cut off, or the driver was killed";
  }

  /** Whether the application ended, as the logs tell it: its context stopped, or its cluster manager reported a final status. */
  static boolean completed(ModelState m) {
    return m.contextStopped || m.finalStatus;
  }
}
