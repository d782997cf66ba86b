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

  final int stageId;
  final int stageAttemptId;
  private int rows;
  private int retainedLimit;
  private long dropped;

  final PackedLongColumn taskId = new PackedLongColumn(16);
  final PackedLongColumn index = new PackedLongColumn(16);
  final PackedLongColumn attempt = new PackedLongColumn(16);
  final PackedLongColumn partitionId = new PackedLongColumn(16);
  final PackedLongColumn launchTime = new PackedLongColumn(16);
  final PackedLongColumn resultFetchStart = new PackedLongColumn(16);
  final PackedLongColumn duration = new PackedLongColumn(16);
  final PackedLongColumn executor = new PackedLongColumn(16);
  final PackedLongColumn host = new PackedLongColumn(16);
  final PackedLongColumn locality = new PackedLongColumn(16);
  private byte[] status = new byte[16];
  final BitSet speculative = new BitSet();
  final BitSet hasMetrics = new BitSet();
  final PackedLongColumn[] metrics = new PackedLongColumn[Metrics.COUNT];
  final Map<Integer, String> errors = new HashMap<>();
  final Map<Integer, List<AccumulableInfo>> accumulators = new HashMap<>();

  TaskTable(int stageId, int stageAttemptId, int retainedLimit) {
    this.stageId = stageId;
    this.stageAttemptId = stageAttemptId;
    this.retainedLimit = retainedLimit;
    for (int i = 0; i < metrics.length; i++) {
      metrics[i] = new PackedLongColumn(16);
    }
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
