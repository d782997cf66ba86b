package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.AccumulableInfo;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The task attempts of one stage attempt, stored column-wise. A row is created when a task starts
 * and completed when it ends; nothing is allocated per task except on the rare paths (error
 * messages, user accumulators).
 *
 * <p>Cost per task, measured on real logs: about 60 to 110 bytes (34 packed metric columns of one
 * or two bytes, ids and times of two to four bytes, flags), against roughly 2 KB for the History
 * Server's in-memory store.
 */
final class TaskTable {
  static final byte STATUS_RUNNING = 0;
  static final byte STATUS_GET_RESULT = 1;
  static final byte STATUS_SUCCESS = 2;
  static final byte STATUS_FAILED = 3;
  static final byte STATUS_KILLED = 4;
  static final byte STATUS_UNKNOWN = 5;
  static final String[] STATUS_NAMES = {
    "RUNNING", "GET RESULT", "SUCCESS", "FAILED", "KILLED", "UNKNOWN"
  };

  /** The most rows made room for up front, whatever a stage claims. */
  private static final int MAX_INITIAL_ROWS = 1 << 16;

  final int stageId;
  final int stageAttemptId;
  private int rows;
  private int retainedLimit;
  private long dropped;

  final PackedLongColumn taskId;
  final PackedLongColumn index;
  final PackedLongColumn attempt;
  final PackedLongColumn partitionId;
  final PackedLongColumn launchTime;
  final PackedLongColumn resultFetchStart;
  final PackedLongColumn duration;
  final PackedLongColumn executor;
  final PackedLongColumn host;
  final PackedLongColumn locality;
  private byte[] status;
  final BitSet speculative = new BitSet();
  final BitSet hasMetrics = new BitSet();
  final PackedLongColumn[] metrics = new PackedLongColumn[Metrics.COUNT];
  final Map<Integer, String> errors = new HashMap<>();
  final Map<Integer, List<AccumulableInfo>> accumulators = new HashMap<>();
  /** Rows with an entry in {@link #errors} or {@link #accumulators}: spares lookups of the rest. */
  private final BitSet hasRareData = new BitSet();
  /** The columns {@link #setInfo} writes, in {@link #INFO_COLUMNS} order. */
  private final PackedLongColumn[] infoColumns;

  /** Positions of the values {@link #setInfo} takes. */
  static final int INFO_TASK_ID = 0;
  static final int INFO_INDEX = 1;
  static final int INFO_ATTEMPT = 2;
  static final int INFO_PARTITION_ID = 3;
  static final int INFO_LAUNCH_TIME = 4;
  static final int INFO_RESULT_FETCH_START = 5;
  static final int INFO_EXECUTOR = 6;
  static final int INFO_HOST = 7;
  static final int INFO_LOCALITY = 8;
  static final int INFO_COLUMNS = 9;

  /**
   * @param expectedRows rows to make room for up front (the stage's task count, when known), so
   *     that the columns are not copied as they grow; more rows are still accepted
   */
  TaskTable(int stageId, int stageAttemptId, int retainedLimit, int expectedRows) {
    this.stageId = stageId;
    this.stageAttemptId = stageAttemptId;
    this.retainedLimit = retainedLimit;
    // A little room beyond the task count for retried attempts: one retry must not copy every
    // column of the stage.
    int capacity = Math.max(16, Math.min(expectedRows + (expectedRows >>> 5) + 4, MAX_INITIAL_ROWS));
    taskId = new PackedLongColumn(capacity);
    index = new PackedLongColumn(capacity);
    attempt = new PackedLongColumn(capacity);
    partitionId = new PackedLongColumn(capacity);
    launchTime = new PackedLongColumn(capacity);
    resultFetchStart = new PackedLongColumn(capacity);
    duration = new PackedLongColumn(capacity);
    executor = new PackedLongColumn(capacity);
    host = new PackedLongColumn(capacity);
    locality = new PackedLongColumn(capacity);
    status = new byte[capacity];
    for (int i = 0; i < metrics.length; i++) {
      metrics[i] = new PackedLongColumn(capacity);
    }
    infoColumns =
        new PackedLongColumn[] {
          taskId, index, attempt, partitionId, launchTime, resultFetchStart, executor, host, locality
        };
  }

  /**
   * Writes a row's task info, {@link #INFO_COLUMNS} values in {@code INFO_*} order. (One loop,
   * so the column code is compiled once, not once per column.)
   */
  void setInfo(int row, long[] values) {
    PackedLongColumn[] columns = infoColumns;
    for (int i = 0; i < INFO_COLUMNS; i++) {
      columns[i].set(row, values[i]);
    }
  }

  /** Writes a row's {@link Metrics#COUNT} metrics. */
  void setMetrics(int row, long[] values) {
    PackedLongColumn[] columns = metrics;
    for (int i = 0; i < Metrics.COUNT; i++) {
      columns[i].set(row, values[i]);
    }
  }

  /** Sets or clears a row's error message and user accumulators (both rare). */
  void setRareData(int row, String error, List<AccumulableInfo> userAccumulables) {
    if (error == null && userAccumulables.isEmpty()) {
      if (hasRareData.get(row)) {
        clearRareData(row);
      }
      return;
    }
    hasRareData.set(row);
    if (error != null) {
      errors.put(row, error);
    } else {
      errors.remove(row);
    }
    if (!userAccumulables.isEmpty()) {
      accumulators.put(row, List.copyOf(userAccumulables));
    } else {
      accumulators.remove(row);
    }
  }

  private void clearRareData(int row) {
    errors.remove(row);
    accumulators.remove(row);
    hasRareData.clear(row);
  }

  int size() {
    return rows;
  }

  /** Task rows not kept because of the retention limit. */
  long dropped() {
    return dropped;
  }

  /** A new row, or -1 when the retention limit is reached (the task is counted as dropped). */
  int addRow() {
    if (rows >= retainedLimit) {
      dropped++;
      return -1;
    }
    int row = rows++;
    if (row >= status.length) {
      status = java.util.Arrays.copyOf(status, status.length * 2);
    }
    return row;
  }

  byte status(int row) {
    return status[row];
  }

  void status(int row, byte value) {
    status[row] = value;
  }

  String statusName(int row) {
    return STATUS_NAMES[status[row]];
  }

  /**
   * The metric value as the History Server indexes it: the value for successful tasks, {@code
   * -value - 1} for other tasks with metrics, and -1 for tasks without metrics. Quantiles and
   * run-time ordering use this, so failed tasks sort first and never enter a summary.
   */
  long indexedMetric(int row, int metric) {
    if (!hasMetrics.get(row)) {
      return -1L;
    }
    long v = metrics[metric].get(row);
    return status[row] == STATUS_SUCCESS ? v : -v - 1;
  }

  long metric(int row, int metric) {
    return metrics[metric].get(row);
  }

  long retainedBytes() {
    long total = (long) status.length + speculative.size() / 8 + hasMetrics.size() / 8;
    for (PackedLongColumn c :
        new PackedLongColumn[] {
          taskId, index, attempt, partitionId, launchTime, resultFetchStart, duration, executor,
          host, locality
        }) {
      total += c.retainedBytes();
    }
    for (PackedLongColumn c : metrics) {
      total += c.retainedBytes();
    }
    return total;
  }
}
