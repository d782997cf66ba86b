package io.sparkrca.core.model;

import java.util.List;
import java.util.Optional;

/** One node of a SQL execution's physical plan graph, with its metrics. */
public record SqlNode(
    long nodeId, String nodeName, Optional<Long> wholeStageCodegenId, List<SqlMetric> metrics) {
  public SqlNode {
    metrics = List.copyOf(metrics);
  }
}
