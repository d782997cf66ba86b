package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/**
 * Where the numbers of a task end's {@code "Task Metrics"} land: for the object itself and for
 * each object nested in it, the numeric fields in the order Spark writes them, the {@link Metrics}
 * index each fills, and whether it may be null (fields that older Spark versions did not write, or
 * wrote as null). Both readers of task ends, Jackson's ({@link StreamingEvents}) and the byte-level
 * one ({@link TaskEventScanner}), name the metrics through these tables, so a metric is named once.
 */
final class TaskMetricFields {
  /**
   * One JSON object's metric fields. Arrays, not lists: the byte-level reader indexes them for
   * every task.
   */
  record Group(String[] names, int[] targets, boolean[] optional) {
    /** The position of {@code name} in {@link #names}, or -1. */
    int indexOf(String name) {
      for (int i = 0; i < names.length; i++) {
        if (names[i].equals(name)) {
          return i;
        }
      }
      return -1;
    }

    /** This group's names followed by {@code more} (the objects nested after them). */
    String[] namesThen(String... more) {
      String[] all = Arrays.copyOf(names, names.length + more.length);
      System.arraycopy(more, 0, all, names.length, more.length);
      return all;
    }
  }

  /** The numbers directly in {@code "Task Metrics"}. */
  static final Group TASK =
      new Group(
          new String[] {
            "Executor Deserialize Time", "Executor Deserialize CPU Time", "Executor Run Time",
            "Executor CPU Time", "Peak Execution Memory", "Result Size", "JVM GC Time",
            "Result Serialization Time", "Memory Bytes Spilled", "Disk Bytes Spilled"
          },
          new int[] {
            Metrics.EXECUTOR_DESERIALIZE_TIME, Metrics.EXECUTOR_DESERIALIZE_CPU_TIME,
            Metrics.EXECUTOR_RUN_TIME, Metrics.EXECUTOR_CPU_TIME, Metrics.PEAK_EXECUTION_MEMORY,
            Metrics.RESULT_SIZE, Metrics.JVM_GC_TIME, Metrics.RESULT_SERIALIZATION_TIME,
            Metrics.MEMORY_BYTES_SPILLED, Metrics.DISK_BYTES_SPILLED
          },
          new boolean[] {false, true, false, true, true, false, false, false, false, false});

  /** The objects nested in {@code "Task Metrics"}, by these names. */
  static final String SHUFFLE_READ_OBJECT = "Shuffle Read Metrics";
  static final String SHUFFLE_WRITE_OBJECT = "Shuffle Write Metrics";
  static final String INPUT_OBJECT = "Input Metrics";
  static final String OUTPUT_OBJECT = "Output Metrics";
  static final String PUSH_READ_OBJECT = "Shuffle Push Read Metrics";

  /** {@code "Shuffle Read Metrics"} (besides the nested push-read object). */
  static final Group SHUFFLE_READ =
      new Group(
          new String[] {
            "Remote Blocks Fetched", "Local Blocks Fetched", "Fetch Wait Time", "Remote Bytes Read",
            "Remote Bytes Read To Disk", "Local Bytes Read", "Total Records Read",
            "Remote Requests Duration"
          },
          new int[] {
            Metrics.SHUFFLE_REMOTE_BLOCKS, Metrics.SHUFFLE_LOCAL_BLOCKS, Metrics.SHUFFLE_FETCH_WAIT,
            Metrics.SHUFFLE_REMOTE_BYTES, Metrics.SHUFFLE_REMOTE_BYTES_TO_DISK,
            Metrics.SHUFFLE_LOCAL_BYTES, Metrics.SHUFFLE_READ_RECORDS,
            Metrics.SHUFFLE_REMOTE_REQS_DURATION
          },
          new boolean[] {false, false, false, false, true, true, true, true});

  /** {@code "Shuffle Push Read Metrics"} (Spark 3.2+), inside the shuffle read object. */
  static final Group PUSH_READ =
      new Group(
          new String[] {
            "Corrupt Merged Block Chunks", "Merged Fallback Count", "Merged Remote Blocks Fetched",
            "Merged Local Blocks Fetched", "Merged Remote Chunks Fetched",
            "Merged Local Chunks Fetched", "Merged Remote Bytes Read", "Merged Local Bytes Read",
            "Merged Remote Requests Duration"
          },
          new int[] {
            Metrics.PUSH_CORRUPT_CHUNKS, Metrics.PUSH_FALLBACK_COUNT, Metrics.PUSH_REMOTE_BLOCKS,
            Metrics.PUSH_LOCAL_BLOCKS, Metrics.PUSH_REMOTE_CHUNKS, Metrics.PUSH_LOCAL_CHUNKS,
            Metrics.PUSH_REMOTE_BYTES, Metrics.PUSH_LOCAL_BYTES, Metrics.PUSH_REMOTE_REQS_DURATION
          },
          new boolean[] {true, true, true, true, true, true, true, true, true});

  /** {@code "Shuffle Write Metrics"}. */
  static final Group SHUFFLE_WRITE =
      new Group(
          new String[] {"Shuffle Bytes Written", "Shuffle Write Time", "Shuffle Records Written"},
          new int[] {
            Metrics.SHUFFLE_WRITE_BYTES, Metrics.SHUFFLE_WRITE_TIME, Metrics.SHUFFLE_WRITE_RECORDS
          },
          new boolean[] {false, false, true});

  /** {@code "Input Metrics"}. */
  static final Group INPUT =
      new Group(
          new String[] {"Bytes Read", "Records Read"},
          new int[] {Metrics.INPUT_BYTES, Metrics.INPUT_RECORDS},
          new boolean[] {false, true});

  /** {@code "Output Metrics"}. */
  static final Group OUTPUT =
      new Group(
          new String[] {"Bytes Written", "Records Written"},
          new int[] {Metrics.OUTPUT_BYTES, Metrics.OUTPUT_RECORDS},
          new boolean[] {false, true});

  private TaskMetricFields() {}
}
