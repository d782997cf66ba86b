package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.app.internal.TaskErrors;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.redaction.Redactor;

/**
 * Task attempts, from the driver's {@code TaskSetManager} lines and the executors' {@code
 * Executor} lines, in the forms of Spark 2.4 to 4.x:
 *
 * <ul>
 *   <li>{@code Starting task 0.0 in stage 1.0 (TID 4) (host, executor 1, partition 0, PROCESS_LOCAL, 7000 bytes)}
 *       (2.4/3.0: {@code (TID 4, host, executor 1, ...)}; 4.x: {@code (host,executor 1, ...)});
 *   <li>{@code Finished task 13.0 in stage 4.0 (TID 40) in 7311 ms on host (executor 1) (1/4)};
 *   <li>{@code Lost task 2.0 in stage 0.0 (TID 2) (host executor 1): java.lang.X: msg} and its
 *       trace (2.4/3.0: {@code (TID 2, host, executor 1)}), {@code Lost task 2.1 ... on host,
 *       executor 1: java.lang.X (msg) [duplicate 1]}, {@code TaskKilled (...)}, {@code
 *       FetchFailed(...)}, {@code ExecutorLostFailure (...)};
 *   <li>{@code task 1.0 in stage 1.0 (TID 9) failed because while it was being computed, its
 *       executor exited for a reason unrelated to the task};
 *   <li>{@code Marking task 2 in stage 0.0 (on host) as speculatable ...};
 *   <li>the executor's {@code Running task 1.0 in stage 0.0 (TID 1)}, {@code Finished task ...
 *       result sent to driver}, {@code Exception in task ...} with its trace, {@code Executor
 *       killed task ..., reason: ...}.
 * </ul>
 *
 * <pre>{@code
 * Pending p = taskLines.driver(section, head, scan.set(head.buf, head.msgStart, head.msgEnd));
 * }</pre>
 */
final class TaskLines {
  private static final byte[] STARTING = Scan.lit("Starting task ");
  private static final byte[] FINISHED = Scan.lit("Finished task ");
  private static final byte[] LOST = Scan.lit("Lost task ");
  private static final byte[] TASK = Scan.lit("task ");
  private static final byte[] IN_STAGE = Scan.lit(" in stage ");
  private static final byte[] TID = Scan.lit(" (TID ");
  private static final byte[] NEW_FORM = Scan.lit(") (");
  private static final byte[] COMMA = Scan.lit(", ");
  private static final byte[] EXECUTOR = Scan.lit("executor ");
  private static final byte[] PARTITION = Scan.lit("partition ");
  private static final byte[] IN = Scan.lit(") in ");
  private static final byte[] MS_ON = Scan.lit(" ms on ");
  private static final byte[] OPEN_EXECUTOR = Scan.lit("(executor ");
  private static final byte[] ON = Scan.lit(") on ");
  private static final byte[] DUPLICATE = Scan.lit(" [duplicate ");
  private static final byte[] UNRELATED = Scan.lit(" failed because while it was being computed, its executor exited for a reason unrelated");
  private static final byte[] SPECULATABLE = Scan.lit("Marking task ");
  private static final byte[] RUNNING = Scan.lit("Running task ");
  private static final byte[] EXCEPTION_IN = Scan.lit("Exception in task ");
  private static final byte[] KILLED_TASK = Scan.lit("Executor killed task ");
  private static final byte[] INTERRUPTED_TASK = Scan.lit("Executor interrupted and killed task ");
  private static final byte[] REASON = Scan.lit("reason: ");

  private final ModelState m;
  // The task a line names, as {@link #task} read it.
  private int index;
  private int attempt;
  private int stageId;
  private int stageAttempt;
  private long tid;

  TaskLines(ModelState m) {
    this.m = m;
  }

  // ------------------------------------------------------------------ driver

  /** A {@code TaskSetManager} line. */
  Pending driver(Section s, RecordHead h, Scan c) {
    if (c.skip(STARTING)) {
      return task(c) ? starting(s, h, c) : null;
    }
    if (c.skip(FINISHED)) {
      return task(c) ? finished(s, h, c) : null;
    }
    if (c.skip(LOST)) {
      return task(c) ? lost(s, h, c) : null;
    }
    if (c.skip(TASK)) {
      return task(c) && c.find(UNRELATED) ? unrelatedExecutorLoss(s, h) : null;
    }
    if (c.skip(SPECULATABLE)) {
      int i = c.integer();
      if (i >= 0 && c.skip(IN_STAGE)) {
        int sid = c.integer();
        c.skip('.');
        int sa = c.integer();
        StageState st = m.stage(sid, sa);
        if (st != null) {
          st.speculatable.set(i);
        }
      }
      return Pending.DONE;
    }
    return null;
  }

  /** Reads {@code I.A in stage S.SA (TID T} at the cursor; false when the text is not that. */
  private boolean task(Scan c) {
    index = c.integer();
    if (index < 0 || !c.skip('.')) {
      return false;
    }
    attempt = c.integer();
    if (attempt < 0 || !c.skip(IN_STAGE)) {
      return false;
    }
    stageId = c.integer();
    if (stageId < 0 || !c.skip('.')) {
      return false;
    }
    stageAttempt = c.integer();
    if (stageAttempt < 0 || !c.skip(TID)) {
      return false;
    }
    tid = c.number();
    return tid >= 0;
  }

  private Pending starting(Section s, RecordHead h, Scan c) {
    int host;
    int executor;
    int partition = -1;
    int locality = -1;
    if (c.skip(NEW_FORM) || c.skip(COMMA)) {
      host = field(c, ',');
      c.skipSpaces();
      c.skip(EXECUTOR);
      executor = field(c, ',');
      c.skipSpaces();
      if (c.skip(PARTITION)) {
        partition = c.integer();
        c.skip(',');
        c.skipSpaces();
        locality = field(c, ',');
      }
    } else {
      return null;
    }
    StageState st = m.taskStage(stageId, stageAttempt);
    int row = row(st, false, true);
    if (st.firstLaunch == TimeParser.NO_TIME || h.time != TimeParser.NO_TIME && h.time < st.firstLaunch) {
      st.firstLaunch = h.time;
    }
    if (row < 0) {
      return Pending.DONE;
    }
    TaskTable t = st.tasks;
    t.index[row] = index;
    t.attempt[row] = attempt;
    t.partition[row] = partition;
    t.launch[row] = h.time;
    t.executor[row] = executor;
    t.host[row] = host;
    t.locality[row] = locality;
    if (t.driverStatus[row] == TaskTable.NONE) {
      t.driverStatus[row] = TaskTable.RUNNING;
    }
    t.startSection[row] = s.index;
    t.startLine[row] = h.line;
    if (attempt > 0 && st.speculatable.get(index)) {
      t.speculative.set(row);
    }
    return Pending.DONE;
  }

  private Pending finished(Section s, RecordHead h, Scan c) {
    if (!c.skip(IN)) {
      return null;
    }
    long ms = c.number();
    int host = c.skip(MS_ON) ? field(c, ' ') : -1;
    int executor = c.skip(OPEN_EXECUTOR) ? field(c, ')') : -1;
    StageState st = m.taskStage(stageId, stageAttempt);
    int row = row(st, false, false);
    if (row < 0) {
      st.droppedComplete++;
      st.droppedDuration += Math.max(0, ms);
      return Pending.DONE;
    }
    TaskTable t = st.tasks;
    fill(t, row, host, executor);
    t.driverStatus[row] = TaskTable.SUCCESS;
    t.duration[row] = ms;
    end(t, row, s, h.line);
    return Pending.DONE;
  }

  private Pending lost(Section s, RecordHead h, Scan c) {
    int host;
    int executor;
    boolean duplicate = false;
    boolean onForm = false;
    if (c.skip(NEW_FORM)) {
      host = field(c, ' ');
      c.skip(EXECUTOR);
      executor = field(c, ')');
      c.skip(':');
      c.skipSpaces();
    } else if (c.skip(COMMA)) {
      host = field(c, ',');
      c.skipSpaces();
      c.skip(EXECUTOR);
      executor = field(c, ')');
      c.skip(':');
      c.skipSpaces();
    } else if (c.skip(ON)) {
      host = field(c, ',');
      c.skipSpaces();
      c.skip(EXECUTOR);
      executor = field(c, ':');
      c.skipSpaces();
      duplicate = c.lastIndexOf(DUPLICATE) >= 0;
      onForm = true;
    } else {
      return null;
    }
    String text = c.rest();
    if (duplicate) {
      text = shortForm(text);
    }
    byte status = text.startsWith("TaskKilled") ? TaskTable.KILLED : TaskTable.FAILED;
    StageState st = m.taskStage(stageId, stageAttempt);
    int row = row(st, true, false);
    TaskTable t = st.tasks;
    fill(t, row, host, executor);
    t.driverStatus[row] = status;
    end(t, row, s, h.line);
    if (duplicate) {
      t.duplicate.set(row);
      setError(t, row, status, text, true);
      return Pending.DONE;
    }
    String head = text;
    boolean shortFormLine = onForm;
    return (sec, continuation) -> {
      String all = Pending.join(head, continuation);
      // A repeated error whose message spans lines ends its short form on a later line.
      if (shortFormLine && all.lastIndexOf(" [duplicate ") >= 0) {
        t.duplicate.set(row);
        setError(t, row, status, shortForm(all), true);
      } else {
        setError(t, row, status, all, true);
      }
    };
  }

  /** {@code java.lang.X (message) [duplicate 1]} as the error it repeats: {@code java.lang.X: message}. */
  private static String shortForm(String text) {
    int dup = text.lastIndexOf(" [duplicate ");
    String t = dup >= 0 ? text.substring(0, dup) : text;
    int open = t.indexOf(" (");
    if (open > 0 && t.endsWith(")")) {
      String description = t.substring(open + 2, t.length() - 1);
      return t.substring(0, open) + (description.isEmpty() || description.equals("null") ? "" : ": " + description);
    }
    return t;
  }

  private Pending unrelatedExecutorLoss(Section s, RecordHead h) {
    StageState st = m.taskStage(stageId, stageAttempt);
    int row = row(st, true, false);
    TaskTable t = st.tasks;
    t.driverStatus[row] = TaskTable.FAILED;
    end(t, row, s, h.line);
    String executor = m.string(t.executor[row]);
    ExecutorState e = executor == null ? null : m.executors.get(executor);
    // Spark's own text for this end reason, with the loss reason the driver logged for the executor
    String text = "ExecutorLostFailure (executor " + (executor == null ? "?" : executor)
        + " exited unrelated to the running tasks)" + (e != null && e.removeReason != null ? " Reason: " + e.removeReason : "");
    setError(t, row, TaskTable.FAILED, text, true);
    return Pending.DONE;
  }

  // ------------------------------------------------------------------ executor

  /** An {@code Executor} line in an executor's log (or the driver's, in local mode). */
  Pending executor(Section s, RecordHead h, Scan c) {
    if (c.skip(RUNNING)) {
      if (!task(c)) {
        return null;
      }
      StageState st = m.taskStage(stageId, stageAttempt);
      s.running.put(tid, StageState.key(stageId, stageAttempt));
      int row = row(st, false, false);
      if (row >= 0) {
        TaskTable t = st.tasks;
        if (t.index[row] < 0) {
          t.index[row] = index;
          t.attempt[row] = attempt;
        }
        if (t.launch[row] == TimeParser.NO_TIME) {
          t.launch[row] = h.time;
        }
        fill(t, row, hostOf(s), executorOf(s));
        if (t.executorStatus[row] == TaskTable.NONE) {
          t.executorStatus[row] = TaskTable.RUNNING;
        }
        if (t.startSection[row] < 0) {
          t.startSection[row] = s.index;
          t.startLine[row] = h.line;
        }
      }
      return Pending.DONE;
    }
    if (c.skip(FINISHED)) {
      return task(c) ? executorEnd(s, h, TaskTable.SUCCESS, null) : null;
    }
    if (c.skip(EXCEPTION_IN)) {
      if (!task(c)) {
        return null;
      }
      int[] row = {-1};
      TaskTable t = executorEndRow(s, h, TaskTable.FAILED, row);
      return (sec, continuation) -> {
        if (t != null && row[0] >= 0) {
          setError(t, row[0], TaskTable.FAILED, continuation.isEmpty() ? "UnknownReason" : Pending.join(continuation, ""), false);
        }
      };
    }
    if (c.skip(KILLED_TASK) || c.skip(INTERRUPTED_TASK)) {
      if (!task(c)) {
        return null;
      }
      String reason = c.find(REASON) ? c.rest() : "unknown reason";
      return executorEnd(s, h, TaskTable.KILLED, "TaskKilled (" + reason + ")");
    }
    return null;
  }

  private Pending executorEnd(Section s, RecordHead h, byte status, String error) {
    int[] row = {-1};
    TaskTable t = executorEndRow(s, h, status, row);
    if (t != null && row[0] >= 0 && error != null) {
      setError(t, row[0], status, error, false);
    }
    return Pending.DONE;
  }

  private TaskTable executorEndRow(Section s, RecordHead h, byte status, int[] rowOut) {
    StageState st = m.taskStage(stageId, stageAttempt);
    s.running.remove(tid);
    int row = row(st, status != TaskTable.SUCCESS, false);
    if (row < 0) {
      return null;
    }
    TaskTable t = st.tasks;
    if (t.index[row] < 0) {
      t.index[row] = index;
      t.attempt[row] = attempt;
    }
    fill(t, row, hostOf(s), executorOf(s));
    t.executorStatus[row] = status;
    if (t.driverStatus[row] <= TaskTable.RUNNING) {
      end(t, row, s, h.line);
    }
    rowOut[0] = row;
    return t;
  }

  // ------------------------------------------------------------------ rows

  /**
   * The row of {@link #tid} in the stage, added when missing while the stage has room; -1 when
   * the stage is full. A failed or killed attempt is kept even then ({@code failure}): failures
   * are few, and each is evidence. A launch not kept ({@code launch}) counts as a dropped row.
   */
  private int row(StageState st, boolean failure, boolean launch) {
    TaskTable t = st.tasks;
    int row = t.find(tid);
    if (row >= 0) {
      return row;
    }
    if (t.size >= m.maxTaskRowsPerStage && !failure) {
      if (launch) {
        m.droppedTaskRows++;
      }
      return -1;
    }
    row = t.add(tid);
    t.index[row] = index;
    t.attempt[row] = attempt;
    return row;
  }

  private static void fill(TaskTable t, int row, int host, int executor) {
    if (t.host[row] < 0) {
      t.host[row] = host;
    }
    if (t.executor[row] < 0) {
      t.executor[row] = executor;
    }
  }

  /** The id of the text from the cursor to {@code stop} (moving past it), or -1 when there is no {@code stop}. */
  private int field(Scan c, char stop) {
    int i = c.indexOf(stop, c.pos);
    if (i < 0) {
      return -1;
    }
    int id = m.string(c.b, c.pos, i);
    c.pos = i + 1;
    return id;
  }

  // The ids of the last section's host and executor, looked up again only when they change.
  private String idsHost;
  private int hostId = -1;
  private String idsExecutor;
  private int executorId = -1;

  private int hostOf(Section s) {
    if (s.host != idsHost) {
      idsHost = s.host;
      hostId = m.string(s.host);
    }
    return hostId;
  }

  private int executorOf(Section s) {
    if (s.executorId != idsExecutor) {
      idsExecutor = s.executorId;
      executorId = m.string(s.executorId);
    }
    return executorId;
  }

  /**
   * {@code TaskKilled (another attempt succeeded)} as the History Server shows a killed task's
   * error: the reason alone.
   */
  private static String killReason(String text) {
    if (text.startsWith("TaskKilled (")) {
      int close = text.lastIndexOf(')');
      return close > "TaskKilled (".length() ? text.substring("TaskKilled (".length(), close) : text;
    }
    return text;
  }

  private static void end(TaskTable t, int row, Section s, long line) {
    t.endSection[row] = s.index;
    t.endLine[row] = line;
  }

  private static void setError(TaskTable t, int row, byte status, String text, boolean driver) {
    String redacted = Redactor.standard().redactText(status == TaskTable.KILLED ? killReason(text) : text);
    if (redacted.length() > io.sparkrca.core.app.TaskFailureGroup.MAX_DETAIL_CHARS) {
      redacted = redacted.substring(0, io.sparkrca.core.app.TaskFailureGroup.MAX_DETAIL_CHARS);
    }
    if (driver) {
      t.driverErrors.put(row, redacted);
    } else {
      t.executorErrors.put(row, redacted);
    }
    String reason = TaskErrors.parse(TaskTable.STATUS_NAMES[status], redacted).reason();
    if (driver || !t.reasons.containsKey(row)) {
      t.reasons.put(row, reason);
    }
  }
}
