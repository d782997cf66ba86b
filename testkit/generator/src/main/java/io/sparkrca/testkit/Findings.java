package io.sparkrca.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a fault check established about one run: where the fault is (culprit stages, partition,
 * executor), the evidence that proves it, and the numbers it measured. Becomes part of
 * {@code label.json}.
 *
 * @param stageIds culprit stage ids (empty when the fault is outside any stage)
 * @param partition culprit partition, or null
 * @param executorId culprit executor, or null
 * @param evidence facts that prove the fault (exception class and message, exit code, ...)
 * @param measured numbers measured from the log that characterise the fault
 */
public record Findings(
    List<Integer> stageIds,
    Integer partition,
    String executorId,
    Map<String, Object> evidence,
    Map<String, Object> measured) {

  public Findings {
    stageIds = List.copyOf(stageIds);
    evidence = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
    measured = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(measured));
  }

  /** A mutable builder, for checks that collect evidence step by step. */
  public static Builder builder() {
    return new Builder();
  }

  /** Collects findings in insertion order. */
  public static final class Builder {
    private List<Integer> stageIds = List.of();
    private Integer partition;
    private String executorId;
    private final Map<String, Object> evidence = new LinkedHashMap<>();
    private final Map<String, Object> measured = new LinkedHashMap<>();

    public Builder stages(List<Integer> ids) {
      this.stageIds = ids;
      return this;
    }

    public Builder partition(Integer p) {
      this.partition = p;
      return this;
    }

    public Builder executor(String id) {
      this.executorId = id;
      return this;
    }

    public Builder evidence(String key, Object value) {
      evidence.put(key, value);
      return this;
    }

    public Builder measured(String key, Object value) {
      measured.put(key, value);
      return this;
    }

    public Findings build() {
      return new Findings(stageIds, partition, executorId, evidence, measured);
    }
  }
}
