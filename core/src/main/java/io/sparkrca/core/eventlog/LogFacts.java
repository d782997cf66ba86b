package io.sparkrca.core.eventlog;

import java.util.List;

/**
 * Evidence gathered while replaying, with where each piece is in the log: failed tasks folded by
 * cause, failed stages, removed executors, and totals. These keep line numbers, which the model
 * (shaped like the History Server API) has no place for.
 *
 * <pre>{@code
 * app.facts().stageFailures().forEach(f -> System.out.println("stage " + f.stageId() + " at line " + f.line()));
 * }</pre>
 *
 * @param taskFailures at most 200 groups; {@code taskFailureGroupsDropped} counts the rest
 * @param stageSpills stage attempts whose completion reported spill, in log order (at most 1000)
 * @param totalGcTimeMs JVM GC time summed over every task end, failed ones included
 */
public record LogFacts(
    String sparkVersion,
    int jobsStarted,
    int jobsFailed,
    int stagesSubmitted,
    long tasksEnded,
    long tasksFailed,
    long tasksKilled,
    long totalGcTimeMs,
    long totalTaskTimeMs,
    List<TaskFailureGroup> taskFailures,
    long taskFailureGroupsDropped,
    List<StageFailure> stageFailures,
    List<StageSpill> stageSpills,
    List<ExecutorRemoval> executorRemovals) {
  public LogFacts {
    stageSpills = List.copyOf(stageSpills);
    taskFailures = List.copyOf(taskFailures);
    stageFailures = List.copyOf(stageFailures);
    executorRemovals = List.copyOf(executorRemovals);
  }
}
