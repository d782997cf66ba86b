package io.sparkrca.core.model;

import java.time.Instant;
import java.util.List;

/**
 * One SQL execution (query) with its plan and metrics ({@code /applications/[app-id]/sql/[id]}).
 *
 * <pre>{@code
 * app.sqlExecutions().stream()
 *     .filter(e -> e.planDescription().contains("SortMergeJoin"))
 *     .forEach(e -> System.out.println(e.id()));
 * }</pre>
 *
 * @param status RUNNING, COMPLETED or FAILED
 */
public record ExecutionData(
    long id,
    String status,
    String description,
    String planDescription,
    Instant submissionTime,
    long duration,
    List<Integer> runningJobIds,
    List<Integer> successJobIds,
    List<Integer> failedJobIds,
    List<SqlNode> nodes,
    List<SqlEdge> edges) {
  public ExecutionData {
    runningJobIds = List.copyOf(runningJobIds);
    successJobIds = List.copyOf(successJobIds);
    failedJobIds = List.copyOf(failedJobIds);
    nodes = List.copyOf(nodes);
    edges = List.copyOf(edges);
  }
}
