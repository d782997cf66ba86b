package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;

/** Reads an {@code Executor Metrics} object; absent metrics are 0, as in Spark. */
final class ExecutorMetricsJson {
  private ExecutorMetricsJson() {}

  static long[] parse(JsonNode n) {
    long[] values = new long[PeakMetrics.COUNT];
    if (!Json.present(n)) {
      return values;
    }
    for (int i = 0; i < PeakMetrics.COUNT; i++) {
      values[i] = Json.optLong(n, io.sparkrca.core.model.ExecutorMetrics.NAMES.get(i), 0L);
    }
    return values;
  }
}
