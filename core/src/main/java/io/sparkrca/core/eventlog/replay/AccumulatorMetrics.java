package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Spark's {@code TaskMetrics.fromAccumulatorInfos}: task metrics rebuilt from the
 * {@code internal.metrics.*} accumulator updates of a heartbeat.
 */
final class AccumulatorMetrics {
  private static final Map<String, Integer> BY_NAME =
      Map.ofEntries(
          Map.entry("internal.metrics.executorDeserializeTime", Metrics.EXECUTOR_DESERIALIZE_TIME),
          Map.entry("internal.metrics.executorDeserializeCpuTime", Metrics.EXECUTOR_DESERIALIZE_CPU_TIME),
          Map.entry("internal.metrics.executorRunTime", Metrics.EXECUTOR_RUN_TIME),
          Map.entry("internal.metrics.executorCpuTime", Metrics.EXECUTOR_CPU_TIME),
          Map.entry("internal.metrics.resultSize", Metrics.RESULT_SIZE),
          Map.entry("internal.metrics.jvmGCTime", Metrics.JVM_GC_TIME),
          Map.entry("internal.metrics.resultSerializationTime", Metrics.RESULT_SERIALIZATION_TIME),
          Map.entry("internal.metrics.memoryBytesSpilled", Metrics.MEMORY_BYTES_SPILLED),
          Map.entry("internal.metrics.diskBytesSpilled", Metrics.DISK_BYTES_SPILLED),
          Map.entry("internal.metrics.peakExecutionMemory", Metrics.PEAK_EXECUTION_MEMORY),
          Map.entry("internal.metrics.input.bytesRead", Metrics.INPUT_BYTES),
          Map.entry("internal.metrics.input.recordsRead", Metrics.INPUT_RECORDS),
          Map.entry("internal.metrics.output.bytesWritten", Metrics.OUTPUT_BYTES),
          Map.entry("internal.metrics.output.recordsWritten", Metrics.OUTPUT_RECORDS),
          Map.entry("internal.metrics.shuffle.read.remoteBlocksFetched", Metrics.SHUFFLE_REMOTE_BLOCKS),
          Map.entry("internal.metrics.shuffle.read.localBlocksFetched", Metrics.SHUFFLE_LOCAL_BLOCKS),
          Map.entry("internal.metrics.shuffle.read.fetchWaitTime", Metrics.SHUFFLE_FETCH_WAIT),
          Map.entry("internal.metrics.shuffle.read.remoteBytesRead", Metrics.SHUFFLE_REMOTE_BYTES),
          Map.entry("internal.metrics.shuffle.read.remoteBytesReadToDisk", Metrics.SHUFFLE_REMOTE_BYTES_TO_DISK),
          Map.entry("internal.metrics.shuffle.read.localBytesRead", Metrics.SHUFFLE_LOCAL_BYTES),
          Map.entry("internal.metrics.shuffle.read.recordsRead", Metrics.SHUFFLE_READ_RECORDS),
          Map.entry("internal.metrics.shuffle.read.remoteReqsDuration", Metrics.SHUFFLE_REMOTE_REQS_DURATION),
          Map.entry("internal.metrics.shuffle.write.bytesWritten", Metrics.SHUFFLE_WRITE_BYTES),
          Map.entry("internal.metrics.shuffle.write.writeTime", Metrics.SHUFFLE_WRITE_TIME),
          Map.entry("internal.metrics.shuffle.write.recordsWritten", Metrics.SHUFFLE_WRITE_RECORDS));

  private AccumulatorMetrics() {}

  static long[] fromAccumulatorUpdates(JsonNode updates) {
    long[] m = new long[Metrics.COUNT];
    if (!Json.present(updates)) {
      return m;
    }
    for (JsonNode a : updates) {
      String name = Json.optText(a, "Name").orElse("");
      Integer idx = BY_NAME.get(name);
      JsonNode update = a.get("Update");
      if (idx != null && Json.present(update) && update.isIntegralNumber()) {
        m[idx] = update.longValue();
      }
    }
    return m;
  }
}
