package io.sparkrca.rules;

/**
 * Application totals shown with the verdict.
 *
 * <pre>{@code
 * diagnostics.summary().ifPresent(s -> System.out.println(s.failedTasks() + " failed tasks, "
 *     + s.jvmGcTimeMs() + " ms GC in " + s.executorRunTimeMs() + " ms of executor run time"));
 * }</pre>
 *
 * @param totalDurationMs the consolidated executor summary's {@code total_duration_millis}: the
 *     executors' {@code totalDuration} summed, as the Spark UI's Executors tab adds them up. That
 *     is task durations (launch to finish) on each executor, but for the driver the application's
 *     uptime, so it is not a task time; the Dataproc agent's contract reports it as is
 * @param killedTasks killed tasks of the latest attempt of each stage
 * @param killedTasksAllAttempts killed tasks over every attempt (what the agent reports)
 * @param executorRunTimeMs the tasks' executor run time ({@code executor_run_time_millis}) summed
 *     over every stage attempt: the time tasks ran on executors
 * @param jvmGcTimeMs the tasks' JVM GC time ({@code jvm_gc_time_millis}) summed over every stage
 *     attempt, part of {@code executorRunTimeMs}
 */
public record DiagnosticsSummary(
    long totalDurationMs,
    long totalInputBytes,
    long activeTasks,
    long completedTasks,
    long failedTasks,
    long killedTasks,
    long killedTasksAllAttempts,
    long executorRunTimeMs,
    long jvmGcTimeMs) {
  /** The share of executor run time spent in JVM GC, 0.0 when nothing ran. */
  public double gcShare() {
    return CelHelpers.ratio(jvmGcTimeMs, executorRunTimeMs);
  }
}
