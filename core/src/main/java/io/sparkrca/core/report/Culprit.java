package io.sparkrca.core.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a finding or a root cause concerns: stages, a partition, executors, a host, a SQL
 * execution and its operator.
 *
 * <pre>{@code
 * Culprit c = report.rootCause().culprit();
 * System.out.println("stages " + c.stageIds() + ", partition " + c.partitionIndex().orElse(-1));
 * }</pre>
 *
 * @param stageIds the stages, ascending
 * @param partitionIndex the partition (task index), when one partition is the culprit
 * @param executorIds the executors, in order of relevance
 * @param host the host, when one host is the culprit
 * @param sqlExecutionId the SQL execution (query), when the culprit is one
 * @param operator the plan operator, e.g. {@code SortMergeJoin [store_id#3L], [store_id#10L], Inner}
 */
public record Culprit(
    List<Integer> stageIds,
    Optional<Integer> partitionIndex,
    List<String> executorIds,
    Optional<String> host,
    Optional<Long> sqlExecutionId,
    Optional<String> operator) {
  private static final Culprit NONE =
      new Culprit(List.of(), Optional.empty(), List.of(), Optional.empty(), Optional.empty(), Optional.empty());

  public Culprit {
    stageIds = List.copyOf(stageIds);
    Objects.requireNonNull(partitionIndex, "partitionIndex");
    executorIds = List.copyOf(executorIds);
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(sqlExecutionId, "sqlExecutionId");
    Objects.requireNonNull(operator, "operator");
  }

  /** Nothing in particular (an application-wide finding). */
  public static Culprit none() {
    return NONE;
  }

  /** Some stages. */
  public static Culprit stages(List<Integer> stageIds) {
    return NONE.withStages(stageIds);
  }

  public Culprit withStages(List<Integer> ids) {
    return new Culprit(ids.stream().distinct().sorted().toList(), partitionIndex, executorIds, host, sqlExecutionId, operator);
  }

  public Culprit withPartition(int index) {
    return new Culprit(stageIds, Optional.of(index), executorIds, host, sqlExecutionId, operator);
  }

  public Culprit withExecutors(List<String> ids) {
    return new Culprit(stageIds, partitionIndex, ids, host, sqlExecutionId, operator);
  }

  public Culprit withHost(String h) {
    return new Culprit(stageIds, partitionIndex, executorIds, Optional.of(h), sqlExecutionId, operator);
  }

  public Culprit withSqlExecution(long id, Optional<String> op) {
    return new Culprit(stageIds, partitionIndex, executorIds, host, Optional.of(id), op);
  }

  /** A short description: {@code stage 4, partition 5, executor 1}. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    if (!stageIds.isEmpty()) {
      sb.append(stageIds.size() == 1 ? "stage " : "stages ").append(join(stageIds));
    }
    partitionIndex.ifPresent(p -> sb.append(sb.length() > 0 ? ", " : "").append("partition ").append(p));
    if (!executorIds.isEmpty()) {
      sb.append(sb.length() > 0 ? ", " : "").append(executorIds.size() == 1 ? "executor " : "executors ")
          .append(String.join(", ", executorIds.subList(0, Math.min(10, executorIds.size()))));
    }
    host.ifPresent(h -> sb.append(sb.length() > 0 ? ", " : "").append("host ").append(h));
    sqlExecutionId.ifPresent(x -> sb.append(sb.length() > 0 ? ", " : "").append("SQL execution ").append(x));
    return sb.toString();
  }

  private static String join(List<Integer> ids) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < ids.size() && i < 20; i++) {
      sb.append(i == 0 ? "" : ", ").append(ids.get(i));
    }
    if (ids.size() > 20) {
      sb.append(", ... (").append(ids.size()).append(")");
    }
    return sb.toString();
  }
}
