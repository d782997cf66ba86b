package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.model.InputMetrics;
import io.sparkrca.core.model.OutputMetrics;
import io.sparkrca.core.model.ShufflePushReadMetrics;
import io.sparkrca.core.model.ShuffleReadMetrics;
import io.sparkrca.core.model.ShuffleWriteMetrics;
import io.sparkrca.core.model.TaskMetrics;

/**
 * The 34 task metrics of the History Server, as positions in a {@code long[]}, in the order of
 * Spark's {@code LiveEntityHelpers.createMetrics}. Aggregates (stage, executor-stage summary) are
 * plain {@code long[COUNT]} vectors, which keeps the hot path free of objects.
 */
final class Metrics {
  static final int EXECUTOR_DESERIALIZE_TIME = 0;
  static final int EXECUTOR_DESERIALIZE_CPU_TIME = 1;
  static final int EXECUTOR_RUN_TIME = 2;
  static final int EXECUTOR_CPU_TIME = 3;
  static final int RESULT_SIZE = 4;
  static final int JVM_GC_TIME = 5;
  static final int RESULT_SERIALIZATION_TIME = 6;
  static final int MEMORY_BYTES_SPILLED = 7;
  static final int DISK_BYTES_SPILLED = 8;
  static final int PEAK_EXECUTION_MEMORY = 9;
  static final int INPUT_BYTES = 10;
  static final int INPUT_RECORDS = 11;
  static final int OUTPUT_BYTES = 12;
  static final int OUTPUT_RECORDS = 13;
  static final int SHUFFLE_REMOTE_BLOCKS = 14;
  static final int SHUFFLE_LOCAL_BLOCKS = 15;
  static final int SHUFFLE_FETCH_WAIT = 16;
  static final int SHUFFLE_REMOTE_BYTES = 17;
  static final int SHUFFLE_REMOTE_BYTES_TO_DISK = 18;
  static final int SHUFFLE_LOCAL_BYTES = 19;
  static final int SHUFFLE_READ_RECORDS = 20;
  static final int PUSH_CORRUPT_CHUNKS = 21;
  static final int PUSH_FALLBACK_COUNT = 22;
  static final int PUSH_REMOTE_BLOCKS = 23;
  static final int PUSH_LOCAL_BLOCKS = 24;
  static final int PUSH_REMOTE_CHUNKS = 25;
  static final int PUSH_LOCAL_CHUNKS = 26;
  static final int PUSH_REMOTE_BYTES = 27;
  static final int PUSH_LOCAL_BYTES = 28;
  static final int SHUFFLE_REMOTE_REQS_DURATION = 29;
  static final int PUSH_REMOTE_REQS_DURATION = 30;
  static final int SHUFFLE_WRITE_BYTES = 31;
  static final int SHUFFLE_WRITE_TIME = 32;
  static final int SHUFFLE_WRITE_RECORDS = 33;
  static final int COUNT = 34;

  private Metrics() {}

  static void add(long[] into, long[] delta) {
    for (int i = 0; i < COUNT; i++) {
      into[i] += delta[i];
    }
  }

  static TaskMetrics toApi(long[] m) {
    return new TaskMetrics(
        m[EXECUTOR_DESERIALIZE_TIME],
        m[EXECUTOR_DESERIALIZE_CPU_TIME],
        m[EXECUTOR_RUN_TIME],
        m[EXECUTOR_CPU_TIME],
        m[RESULT_SIZE],
        m[JVM_GC_TIME],
        m[RESULT_SERIALIZATION_TIME],
        m[MEMORY_BYTES_SPILLED],
        m[DISK_BYTES_SPILLED],
        m[PEAK_EXECUTION_MEMORY],
        new InputMetrics(m[INPUT_BYTES], m[INPUT_RECORDS]),
        new OutputMetrics(m[OUTPUT_BYTES], m[OUTPUT_RECORDS]),
        new ShuffleReadMetrics(
            m[SHUFFLE_REMOTE_BLOCKS],
            m[SHUFFLE_LOCAL_BLOCKS],
            m[SHUFFLE_FETCH_WAIT],
            m[SHUFFLE_REMOTE_BYTES],
            m[SHUFFLE_REMOTE_BYTES_TO_DISK],
            m[SHUFFLE_LOCAL_BYTES],
            m[SHUFFLE_READ_RECORDS],
            m[SHUFFLE_REMOTE_REQS_DURATION],
            new ShufflePushReadMetrics(
                m[PUSH_CORRUPT_CHUNKS],
                m[PUSH_FALLBACK_COUNT],
                m[PUSH_REMOTE_BLOCKS],
                m[PUSH_LOCAL_BLOCKS],
                m[PUSH_REMOTE_CHUNKS],
                m[PUSH_LOCAL_CHUNKS],
                m[PUSH_REMOTE_BYTES],
                m[PUSH_LOCAL_BYTES],
                m[PUSH_REMOTE_REQS_DURATION])),
        new ShuffleWriteMetrics(
            m[SHUFFLE_WRITE_BYTES], m[SHUFFLE_WRITE_TIME], m[SHUFFLE_WRITE_RECORDS]));
  }
}
