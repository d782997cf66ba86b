package io.sparkrca.core.app;

import java.util.List;
import java.util.Optional;

/**
 * What went wrong in an application, folded and bounded, with where each piece was found: failed
 * tasks folded by cause, failed stages, removed executors, spills, failed SQL executions, and
 * totals. An event-log replay gathers these on its one pass with log line numbers; any other
 * source derives them from the model ({@link #of(SparkApplication)}), so analysis reads the same
 * facts whichever source served the application.
 *
 * <pre>{@code
 * ApplicationFacts f = app.facts();
 * f.stageFailures().forEach(s -> System.out.println("stage " + s.stageId() + " at " + s.source() + ":" + s.line()));
 * f.taskFailures().forEach(g -> System.out.println(g.count() + "x " + g.description()));
 * }</pre>
 *
 * @param taskFailures at most {@value #MAX_FAILURE_GROUPS} groups; {@code taskFailureGroupsDropped}
 *     counts the failed attempts that fitted no kept group
 * @param stageSpills stage attempts whose completion reported spill, in log order (at most 1000)
 * @param totalGcTimeMs JVM GC time summed over every task end, failed ones included
 * @param totalTaskTimeMs task durations (launch to finish) summed over every task end
 * @param sqlFailures SQL executions that ended with an error, oldest first (at most 1000)
 * @param exitCode the exit code the driver reported when the application ended (Spark 4.0+
 *     writes it; a driver that exits after stopping its context normally reports 0 there)
 * @param jobFailures failed jobs with the exception their end event records, oldest first (at
 *     most 1000); empty for a source that does not record it
 */
public record ApplicationFacts(
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
    List<ExecutorRemoval> executorRemovals,
    List<SqlFailure> sqlFailures,
    Optional<Integer> exitCode,
    List<JobFailure> jobFailures) {
  /** The most failure groups kept. */
  public static final int MAX_FAILURE_GROUPS = 200;

  public ApplicationFacts {
    stageSpills = List.copyOf(stageSpills);
    taskFailures = List.copyOf(taskFailures);
    stageFailures = List.copyOf(stageFailures);
    executorRemovals = List.copyOf(executorRemovals);
    sqlFailures = List.copyOf(sqlFailures);
    jobFailures = List.copyOf(jobFailures);
  }

  /** Facts without the failed jobs' exceptions (a source that does not record them). */
  public ApplicationFacts(String sparkVersion, int jobsStarted, int jobsFailed, int stagesSubmitted, long tasksEnded,
      long tasksFailed, long tasksKilled, long totalGcTimeMs, long totalTaskTimeMs, List<TaskFailureGroup> taskFailures,
      long taskFailureGroupsDropped, List<StageFailure> stageFailures, List<StageSpill> stageSpills,
      List<ExecutorRemoval> executorRemovals, List<SqlFailure> sqlFailures, Optional<Integer> exitCode) {
    this(sparkVersion, jobsStarted, jobsFailed, stagesSubmitted, tasksEnded, tasksFailed, tasksKilled, totalGcTimeMs,
        totalTaskTimeMs, taskFailures, taskFailureGroupsDropped, stageFailures, stageSpills, executorRemovals,
        sqlFailures, exitCode, List.of());
  }

  /**
   * The facts of an application that did not come from a replay, derived from its model: failed
   * and killed tasks are read from the stages that have them (their error messages classified the
   * way a replay folds them), stage failures and spills from the stages, removals from the
   * executors. Provenance is the History Server path each fact comes from; line numbers are 0.
   */
  public static ApplicationFacts of(SparkApplication app) {
    return io.sparkrca.core.app.internal.FactsFromModel.derive(app);
  }
}
