package io.sparkrca.core.logs.replay.internal;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The task attempts of one stage attempt, one row per attempt in packed columns (about 80 bytes a
 * row). What the driver's lines say ({@code Starting task}, {@code Finished task ... in 180 ms},
 * {@code Lost task}) and what the executor's say ({@code Running task}, {@code Finished task ...
 * result sent to driver}, {@code Exception in task}) are kept apart: the driver decides, the
 * executor fills in what the driver's log lacks. Rows are found by task id: by binary search while
 * they were added in id order (the driver launches tasks in id order), else through an index.
 *
 * <pre>{@code
 * int row = table.find(tid);
 * if (row < 0) row = table.add(tid);
 * table.driverStatus[row] = TaskTable.SUCCESS;
 * }</pre>
 */
final class TaskTable {
  static final byte NONE = 0;
  static final byte RUNNING = 1;
  static final byte SUCCESS = 2;
  static final byte FAILED = 3;
  static final byte KILLED = 4;
  static final String[] STATUS_NAMES = {"UNKNOWN", "RUNNING", "SUCCESS", "FAILED", "KILLED"};

  int size;
  long[] tid = new long[8];
  int[] index = new int[8];
  int[] attempt = new int[8];
  int[] partition = new int[8];
  long[] launch = new long[8];
  long[] duration = new long[8];
  int[] executor = new int[8];
  int[] host = new int[8];
  int[] locality = new int[8];
  byte[] driverStatus = new byte[8];
  byte[] executorStatus = new byte[8];
  final BitSet speculative = new BitSet();
  int[] startSection = new int[8];
  long[] startLine = new long[8];
  int[] endSection = new int[8];
  long[] endLine = new long[8];
  /** The driver's error text of failed rows (the full text, or a duplicate's short form). */
  final Map<Integer, String> driverErrors = new HashMap<>();
  /** Whether a row's driver error is the short form of a {@code [duplicate N]} line. */
  final BitSet duplicate = new BitSet();
  /** The executor's error text of failed rows ({@code Exception in task} and its trace). */
  final Map<Integer, String> executorErrors = new HashMap<>();
  /** The end reason of failed or killed rows: ExceptionFailure, FetchFailed, ExecutorLostFailure, TaskKilled, ... */
  final Map<Integer, String> reasons = new HashMap<>();
  private boolean ordered = true;
  private Map<Long, Integer> byTid;

  /** The row of task {@code id}, or -1. */
  int find(long id) {
    if (ordered) {
      int r = Arrays.binarySearch(tid, 0, size, id);
      return r >= 0 ? r : -1;
    }
    Integer r = byTid.get(id);
    return r == null ? -1 : r;
  }

  /** Adds a row for task {@code id} (not yet in the table); its fields start unknown. */
  int add(long id) {
    if (size == tid.length) {
      grow();
    }
    int r = size++;
    if (ordered && r > 0 && tid[r - 1] >= id) {
      ordered = false;
      byTid = new HashMap<>();
      for (int i = 0; i < r; i++) {
        byTid.put(tid[i], i);
      }
    }
    if (!ordered) {
      byTid.put(id, r);
    }
    tid[r] = id;
    index[r] = -1;
    attempt[r] = -1;
    partition[r] = -1;
    launch[r] = TimeParser.NO_TIME;
    duration[r] = -1;
    executor[r] = -1;
    host[r] = -1;
    locality[r] = -1;
    startSection[r] = -1;
    endSection[r] = -1;
    return r;
  }

  /** The status that counts: the driver's, or the executor's where the driver's log ends first or is missing. */
  byte status(int r) {
    byte d = driverStatus[r];
    byte e = executorStatus[r];
    if (d == NONE || d == RUNNING && e > RUNNING) {
      return e;
    }
    return d;
  }

  /** The error text that counts: the driver's full text, else the executor's trace, else a duplicate's short form. */
  String error(int r) {
    String d = driverErrors.get(r);
    if (d != null && !duplicate.get(r)) {
      return d;
    }
    String e = executorErrors.get(r);
    return e != null ? e : d;
  }

  /** Makes room for {@code rows} rows at least (a task set's size, known when it is added). */
  void reserve(int rows) {
    while (tid.length < rows) {
      grow(Math.max(rows, tid.length * 2));
    }
  }

  private void grow() {
    grow(tid.length * 2);
  }

  private void grow(int n) {
    tid = Arrays.copyOf(tid, n);
    index = Arrays.copyOf(index, n);
    attempt = Arrays.copyOf(attempt, n);
    partition = Arrays.copyOf(partition, n);
    launch = Arrays.copyOf(launch, n);
    duration = Arrays.copyOf(duration, n);
    executor = Arrays.copyOf(executor, n);
    host = Arrays.copyOf(host, n);
    locality = Arrays.copyOf(locality, n);
    driverStatus = Arrays.copyOf(driverStatus, n);
    executorStatus = Arrays.copyOf(executorStatus, n);
    startSection = Arrays.copyOf(startSection, n);
    startLine = Arrays.copyOf(startLine, n);
    endSection = Arrays.copyOf(endSection, n);
    endLine = Arrays.copyOf(endLine, n);
  }
}
