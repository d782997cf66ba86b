package io.sparkrca.rules;

/**
 * Application totals shown with the verdict (from the consolidated executor summary).
 *
 * <pre>{@code
 * diagnostics.summary().ifPresent(s -> System.out.println(s.failedTasks() + " failed tasks"));
 * }</pre>
 *
 * @param totalDurationMs executors' total task time
 * @param killedTasks killed tasks of the latest attempt of each stage
 * @param killedTasksAllAttempts killed tasks over every attempt (what the agent reports)
 */
public record DiagnosticsSummary(
    long totalDurationMs,
    long totalInputBytes,
    long activeTasks,
    long completedTasks,
    long failedTasks,
    long killedTasks,
    long killedTasksAllAttempts) {}
