package io.sparkrca.core.app;

import java.util.List;

/**
 * Failed task attempts that failed the same way (same end reason and exception), folded into one
 * entry with a count, in order of first occurrence. The first occurrence is the evidence: where it
 * is and which task it was; the partitions, executors and hosts it struck tell a deterministic
 * failure (one partition, every executor) from flaky infrastructure (one host, retries succeed).
 *
 * <pre>{@code
 * for (TaskFailureGroup g : app.facts().taskFailures()) {
 *   System.out.println(g.count() + "x " + g.description() + " (first at line " + g.firstLine() + ")");
 * }
 * }</pre>
 *
 * @param reason Spark's end reason: ExceptionFailure, FetchFailed, ExecutorLostFailure, TaskKilled, ...
 * @param exceptionClass the exception class for ExceptionFailure, else empty
 * @param description "Class: message" or the reason's own text, of the first occurrence
 * @param source where the first occurrence was found: a log file, or a History Server path
 * @param firstLine its line in {@code source}, 0 when the source has no lines
 * @param stageIds the stages in which this failure occurred, ascending
 * @param partitionIndices the distinct partition indices struck, ascending (at most {@value #MAX_LISTED})
 * @param executorIds the distinct executors it happened on, in order of first occurrence (at most {@value #MAX_LISTED})
 * @param hosts the distinct hosts it happened on, in order of first occurrence (at most {@value #MAX_LISTED})
 * @param firstDetail the first occurrence's whole error message (with its stack trace), at most
 *     {@value #MAX_DETAIL_CHARS} characters
 */
public record TaskFailureGroup(
    String reason,
    String exceptionClass,
    String description,
    long count,
    String source,
    long firstLine,
    long firstTime,
    long taskId,
    int stageId,
    int stageAttemptId,
    int partitionIndex,
    int attempt,
    String executorId,
    String host,
    List<Integer> stageIds,
    List<Integer> partitionIndices,
    List<String> executorIds,
    List<String> hosts,
    String firstDetail) {
  /** The most partitions, executors or hosts listed per group. */
  public static final int MAX_LISTED = 100;
  /** The most characters of the first occurrence's error message kept. */
  public static final int MAX_DETAIL_CHARS = 16 * 1024;

  public TaskFailureGroup {
    stageIds = List.copyOf(stageIds);
    partitionIndices = List.copyOf(partitionIndices);
    executorIds = List.copyOf(executorIds);
    hosts = List.copyOf(hosts);
    firstDetail = firstDetail == null ? "" : firstDetail;
  }

  /** Whether this is a task that threw (an {@code ExceptionFailure}). */
  public boolean isException() {
    return reason.equals("ExceptionFailure");
  }

  /** Whether this is a shuffle fetch failure. */
  public boolean isFetchFailure() {
    return reason.equals("FetchFailed");
  }

  /** Whether tasks failed because their executor was lost. */
  public boolean isExecutorLost() {
    return reason.equals("ExecutorLostFailure");
  }

  /** Whether the attempts were killed (speculation, a cancelled job, a stage abort) rather than failed. */
  public boolean isKilled() {
    return reason.equals("TaskKilled");
  }
}
