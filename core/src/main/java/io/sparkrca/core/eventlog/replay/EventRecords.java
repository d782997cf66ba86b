package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/**
 * Events parsed by {@link TaskEventScanner} as flat records of longs, so that one thread can parse
 * and another apply them: a record holds no object references (strings are indices into a {@link
 * Strings} table), so writing it costs the garbage collector nothing, where filling long-lived
 * event objects from another thread made its write barriers cost more than the parsing moved.
 *
 * <p>{@link #encode} writes a parsed event, {@link #decode} restores exactly the scratch state the
 * scanner produced. Events the records do not carry (user accumulators, a failure's details, a
 * string the table cannot index) are not encoded; the caller passes their line on instead.
 */
final class EventRecords {
  private EventRecords() {}

  /** The most longs one record takes: a task end with its SQL metric updates. */
  static int maxLength(ParsedEvent e) {
    return 8 + INFO_FIXED + 2 * e.taskEnd.info.sqlAccumCount + 2 * e.taskStart.info.sqlAccumCount
        + Metrics.COUNT + PeakMetrics.COUNT;
  }

  private static final int INFO_FIXED = 14;

  /**
   * Appends the event of {@code kind} (a {@link TaskEventScanner} kind) held by {@code e} to
   * {@code out} at {@code at}, which has room for {@link #maxLength}; returns the end, or -1 when
   * the event cannot be recorded.
   */
  static int encode(int kind, ParsedEvent e, Strings strings, long[] out, int at) {
    switch (kind) {
      case TaskEventScanner.TASK_START:
        {
          TaskStartEvent s = e.taskStart;
          out[at++] = s.stageId;
          out[at++] = s.stageAttemptId;
          return encodeInfo(s.info, strings, out, at);
        }
      case TaskEventScanner.TASK_END:
        {
          TaskEndEvent t = e.taskEnd;
          if (t.reason.hasDetails()) {
            return -1; // a failure's details: rare, left to the applying thread
          }
          int reason = strings.id(t.reason.reason);
          if (reason < 0) {
            return -1;
          }
          out[at++] = t.stageId;
          out[at++] = t.stageAttemptId;
          out[at++] = t.infoMissing ? 1 : 0;
          out[at++] = reason;
          at = encodeInfo(t.info, strings, out, at);
          if (at < 0) {
            return -1;
          }
          System.arraycopy(t.metrics, 0, out, at, Metrics.COUNT);
          at += Metrics.COUNT;
          System.arraycopy(t.executorMetrics, 0, out, at, PeakMetrics.COUNT);
          return at + PeakMetrics.COUNT;
        }
      case TaskEventScanner.STAGE_EXECUTOR_METRICS:
        {
          StageExecutorMetricsEvent m = e.stageMetrics;
          int executor = strings.id(m.executorId);
          if (executor < 0) {
            return -1;
          }
          out[at++] = executor;
          out[at++] = m.stageId;
          out[at++] = m.stageAttemptId;
          System.arraycopy(m.metrics, 0, out, at, PeakMetrics.COUNT);
          return at + PeakMetrics.COUNT;
        }
      default:
        return -1;
    }
  }

  private static int encodeInfo(TaskInfoScratch i, Strings strings, long[] out, int at) {
    if (!i.userAccumulables.isEmpty()) {
      return -1;
    }
    int executor = strings.id(i.executorId);
    int host = strings.id(i.host);
    int locality = strings.id(i.locality);
    if (executor < -1 || host < -1 || locality < -1) {
      return -1;
    }
    out[at++] = i.taskId;
    out[at++] = i.index;
    out[at++] = i.attempt;
    out[at++] = i.partitionId;
    out[at++] = i.launchTime;
    out[at++] = executor;
    out[at++] = host;
    out[at++] = locality;
    out[at++] = (i.speculative ? 1 : 0) | (i.failed ? 2 : 0) | (i.killed ? 4 : 0);
    out[at++] = i.gettingResultTime;
    out[at++] = i.finishTime;
    out[at++] = i.sqlAccumCount;
    System.arraycopy(i.sqlAccumIds, 0, out, at, i.sqlAccumCount);
    at += i.sqlAccumCount;
    System.arraycopy(i.sqlAccumUpdates, 0, out, at, i.sqlAccumCount);
    return at + i.sqlAccumCount;
  }

  /** Restores the event of {@code kind} recorded at {@code in[at]} into {@code e}. */
  static void decode(int kind, long[] in, int at, Strings strings, ParsedEvent e) {
    switch (kind) {
      case TaskEventScanner.TASK_START:
        {
          TaskStartEvent s = e.taskStart;
          s.reset();
          s.stageId = (int) in[at++];
          s.stageAttemptId = (int) in[at++];
          decodeInfo(in, at, strings, s.info);
          return;
        }
      case TaskEventScanner.TASK_END:
        {
          TaskEndEvent t = e.taskEnd;
          t.reset();
          t.stageId = (int) in[at++];
          t.stageAttemptId = (int) in[at++];
          t.infoMissing = in[at++] != 0;
          t.reason.reason = strings.get((int) in[at++]);
          at = decodeInfo(in, at, strings, t.info);
          System.arraycopy(in, at, t.metrics, 0, Metrics.COUNT);
          at += Metrics.COUNT;
          System.arraycopy(in, at, t.executorMetrics, 0, PeakMetrics.COUNT);
          return;
        }
      case TaskEventScanner.STAGE_EXECUTOR_METRICS:
        {
          StageExecutorMetricsEvent m = e.stageMetrics;
          m.reset();
          m.executorId = strings.get((int) in[at++]);
          m.stageId = (int) in[at++];
          m.stageAttemptId = (int) in[at++];
          System.arraycopy(in, at, m.metrics, 0, PeakMetrics.COUNT);
          return;
        }
      default:
        throw new AssertionError("not a recorded event kind: " + kind); // the scanner's constants
    }
  }

  private static int decodeInfo(long[] in, int at, Strings strings, TaskInfoScratch i) {
    i.taskId = in[at++];
    i.index = (int) in[at++];
    i.attempt = (int) in[at++];
    i.partitionId = (int) in[at++];
    i.launchTime = in[at++];
    i.executorId = strings.get((int) in[at++]);
    i.host = strings.get((int) in[at++]);
    i.locality = strings.get((int) in[at++]);
    long flags = in[at++];
    i.speculative = (flags & 1) != 0;
    i.failed = (flags & 2) != 0;
    i.killed = (flags & 4) != 0;
    i.gettingResultTime = in[at++];
    i.finishTime = in[at++];
    int count = (int) in[at++];
    for (int k = 0; k < count; k++) {
      i.addSqlUpdate(in[at + k], in[at + count + k]);
    }
    return at + 2 * count;
  }

  /**
   * The strings of records: written by the parsing thread, read by the applying thread. Indices
   * only grow; an index read from a record handed over through a queue (which orders the two
   * threads' memory) always finds its string, in the array published with it.
   */
  static final class Strings {
    /** Beyond this many distinct strings, events with new ones are not recorded (bounded memory). */
    static final int MAX = 1 << 16;

    private volatile String[] values = new String[64];
    private int size;
    private final java.util.HashMap<String, Integer> ids = new java.util.HashMap<>();

    /** The index of {@code s} (-1 for null), or -2 when the table is full. Parsing thread only. */
    int id(String s) {
      if (s == null) {
        return -1;
      }
      Integer id = ids.get(s);
      if (id != null) {
        return id;
      }
      if (size == MAX) {
        return -2;
      }
      String[] v = values;
      if (size == v.length) {
        v = Arrays.copyOf(v, v.length * 2);
      }
      v[size] = s;
      values = v;
      ids.put(s, size);
      return size++;
    }

    /** The string of index {@code id} (null for -1). */
    String get(int id) {
      return id < 0 ? null : values[id];
    }
  }
}
