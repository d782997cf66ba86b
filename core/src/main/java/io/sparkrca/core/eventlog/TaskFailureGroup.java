package io.sparkrca.core.eventlog;

import java.util.List;

/**
 * Failed task attempts that failed the same way (same end reason and exception), folded into one
 * entry with a count, in order of first occurrence. The first occurrence is the evidence: where it
 * is in the log and which task it was.
 *
 * <pre>{@code
 * for (TaskFailureGroup g : app.facts().taskFailures()) {
 *   System.out.println(g.count() + "x " + g.description() + " (first at line " + g.firstLine() + ")");
 * }
 * }</pre>
 *
 * @param reason Spark's end reason: ExceptionFailure, FetchFailed, ExecutorLostFailure, TaskKilled, ...
 * @param exceptionClass the exception class for ExceptionFailure, else empty
 * @param description "Class: message" or the reason's own text
 * @param stageIds the stages in which this failure occurred, ascending
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
    List<Integer> stageIds) {
  public TaskFailureGroup {
    stageIds = List.copyOf(stageIds);
  }
}
