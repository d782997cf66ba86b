package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.StageSpill;
import io.sparkrca.core.app.internal.TaskErrors;
import io.sparkrca.core.app.internal.TaskFailureFolder;
import io.sparkrca.core.logs.replay.LogEvent;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The application's facts with the log lines they came from: failed tasks folded by cause (the
 * first of each at its {@code Lost task} or {@code Exception in task} line), failed stages at
 * their {@code failed in} line, spill at its first spill line, removed executors at their {@code
 * Lost executor} line. GC time and SQL failures are not in logs: 0 and none.
 *
 * <pre>{@code
 * ApplicationFacts f = LogFacts.of(model);
 * }</pre>
 */
final class LogFacts {
  private static final int MAX_ITEMS = 1000;

  private LogFacts() {}

  static ApplicationFacts of(ModelState m) {
    int jobsFailed = (int) m.jobs.values().stream().filter(j -> j.status == JobExecutionStatus.FAILED).count();
    int submitted = 0;
    long ended = 0;
    long failed = 0;
    long killed = 0;
    long taskTime = 0;
    List<StageFailure> stageFailures = new ArrayList<>();
    List<StageSpill> spills = new ArrayList<>();
    List<long[]> failures = new ArrayList<>(); // stage key, row
    for (StageState st : m.stages.values()) {
      if (st.status != StageStatus.PENDING && st.status != StageStatus.SKIPPED) {
        submitted++;
      }
      ended += st.complete + st.failed + st.killed;
      failed += st.failed;
      killed += st.killed;
      taskTime += st.taskTime;
      if (st.failureReason != null && stageFailures.size() < MAX_ITEMS) {
        stageFailures.add(new StageFailure(st.stageId, st.attempt, st.name, st.failureReason, Math.max(0, st.numTasks),
            st.completed == TimeParser.NO_TIME ? -1 : st.completed, log(m, st.endedSection), st.endedLine));
      }
      if (st.memorySpilled > 0 && spills.size() < MAX_ITEMS) {
        LogEvent first = firstSpill(m, st.stageId);
        spills.add(new StageSpill(st.stageId, st.attempt, st.name, st.memorySpilled, 0,
            first == null ? log(m, st.endedSection) : first.at().log(), first == null ? st.endedLine : first.at().line()));
      }
      TaskTable t = st.tasks;
      for (int r = 0; r < t.size; r++) {
        byte s = t.status(r);
        if (s == TaskTable.FAILED || s == TaskTable.KILLED) {
          failures.add(new long[] {StageState.key(st.stageId, st.attempt), r});
        }
      }
    }
    failures.sort(Comparator.comparingLong(f -> m.stages.get(f[0]).tasks.tid[(int) f[1]]));
    TaskFailureFolder folder = new TaskFailureFolder(ApplicationFacts.MAX_FAILURE_GROUPS);
    for (long[] f : failures) {
      StageState st = m.stages.get(f[0]);
      TaskTable t = st.tasks;
      int r = (int) f[1];
      String status = TaskTable.STATUS_NAMES[t.status(r)];
      String error = t.error(r);
      TaskErrors.Parsed p = TaskErrors.parse(status, error == null ? "" : error);
      long time = t.launch[r] == TimeParser.NO_TIME ? -1 : t.launch[r] + Math.max(0, t.duration[r]);
      folder.add(p.reason(), p.exceptionClass(), p.description(), () -> error == null ? "" : error,
          log(m, t.endSection[r]), t.endLine[r], time, t.tid[r], st.stageId, st.attempt, t.index[r], Math.max(0, t.attempt[r]),
          m.string(t.executor[r]), m.string(t.host[r]));
    }
    List<ExecutorRemoval> removals = new ArrayList<>();
    for (ExecutorState e : m.executors.values()) {
      if (!e.active && removals.size() < MAX_ITEMS) {
        removals.add(new ExecutorRemoval(e.id, e.removeReason == null ? "" : e.removeReason,
            e.removed == TimeParser.NO_TIME ? -1 : e.removed, log(m, e.removeSection), e.removeLine));
      }
    }
    removals.sort(Comparator.comparingLong(ExecutorRemoval::time));
    return new ApplicationFacts(m.sparkVersion == null ? "" : m.sparkVersion, m.jobs.size(), jobsFailed, submitted,
        ended, failed, killed, 0, taskTime, folder.groups(), folder.dropped(), stageFailures, spills, removals, List.of(),
        Optional.ofNullable(m.exitCode));
  }

  private static String log(ModelState m, int section) {
    return section < 0 ? "" : m.sections.get(section).log;
  }

  private static LogEvent firstSpill(ModelState m, int stageId) {
    for (LogEvent e : m.events) {
      if (e.kind() == LogEvent.Kind.SPILL && e.stageId().isPresent() && e.stageId().getAsInt() == stageId) {
        return e;
      }
    }
    return null;
  }
}
