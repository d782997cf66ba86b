package io.sparkrca.core.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Peak executor metrics (JVM heap, execution and storage memory, process-tree memory, GC counts and
 * times), keyed by Spark's metric names in Spark's order. Written as a JSON object.
 *
 * <pre>{@code
 * long peakHeap = executor.peakMemoryMetrics().map(m -> m.get("JVMHeapMemory")).orElse(0L);
 * }</pre>
 */
public record ExecutorMetrics(Map<String, Long> values) {
  /** Spark's metric names, in the order Spark writes them (Spark 4.0). */
  public static final List<String> NAMES =
      List.of(
          "JVMHeapMemory",
          "JVMOffHeapMemory",
          "OnHeapExecutionMemory",
          "OffHeapExecutionMemory",
          "OnHeapStorageMemory",
          "OffHeapStorageMemory",
          "OnHeapUnifiedMemory",
          "OffHeapUnifiedMemory",
          "DirectPoolMemory",
          "MappedPoolMemory",
          "ProcessTreeJVMVMemory",
          "ProcessTreeJVMRSSMemory",
          "ProcessTreePythonVMemory",
          "ProcessTreePythonRSSMemory",
          "ProcessTreeOtherVMemory",
          "ProcessTreeOtherRSSMemory",
          "MinorGCCount",
          "MinorGCTime",
          "MajorGCCount",
          "MajorGCTime",
          "TotalGCTime",
          "ConcurrentGCCount",
          "ConcurrentGCTime");

  @JsonCreator
  public ExecutorMetrics {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** Metrics from values in {@link #NAMES} order. */
  public static ExecutorMetrics of(long[] valuesInNameOrder) {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      m.put(NAMES.get(i), i < valuesInNameOrder.length ? valuesInNameOrder[i] : 0L);
    }
    return new ExecutorMetrics(m);
  }

  /** The value of one metric, 0 when absent. */
  public long get(String name) {
    return values.getOrDefault(name, 0L);
  }

  @JsonValue
  @Override
  public Map<String, Long> values() {
    return values;
  }
}
