package io.sparkrca.core.app;

import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskStatus;
import java.util.List;
import java.util.Set;

/**
 * What to return for stages: which statuses, and whether to include each attempt's tasks and
 * executor summaries ({@code details}) or metric quantiles ({@code withSummaries}).
 *
 * <pre>{@code
 * app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED)));
 * app.stageAttempt(2, 0, StageQuery.all().withSummaries(List.of(0.5, 0.99)));
 * }</pre>
 *
 * @param statuses stage statuses to keep; empty keeps all
 * @param taskStatuses with {@code details}, the task statuses to include; empty includes all
 * @param includeTasks with {@code details}, whether the task list is wanted (it is by default);
 *     without it a source may leave the tasks out and build only the executor summaries and the
 *     speculation summary: the event-log replay then builds no record per task, while a History
 *     Server, whose answer carries the tasks anyway, may still return them. Sums over the tasks
 *     come from {@link SparkApplication#taskTotals} without the list.
 */
public record StageQuery(
    Set<StageStatus> statuses,
    boolean details,
    Set<TaskStatus> taskStatuses,
    boolean withSummaries,
    List<Double> quantiles,
    boolean includeTasks) {
  /** The History Server's default quantiles for stage summaries. */
  public static final List<Double> DEFAULT_QUANTILES = List.of(0.0, 0.25, 0.5, 0.75, 1.0);

  public StageQuery {
    statuses = Set.copyOf(statuses);
    taskStatuses = Set.copyOf(taskStatuses);
    quantiles = List.copyOf(quantiles);
  }

  /** A query that, with {@code details}, includes the tasks (the History Server's REST query). */
  public StageQuery(
      Set<StageStatus> statuses,
      boolean details,
      Set<TaskStatus> taskStatuses,
      boolean withSummaries,
      List<Double> quantiles) {
    this(statuses, details, taskStatuses, withSummaries, quantiles, true);
  }

  /** Every stage, no details, no summaries. */
  public static StageQuery all() {
    return new StageQuery(Set.of(), false, Set.of(), false, DEFAULT_QUANTILES);
  }

  public StageQuery withStatuses(Set<StageStatus> s) {
    return new StageQuery(s, details, taskStatuses, withSummaries, quantiles, includeTasks);
  }

  public StageQuery withDetails(boolean d) {
    return new StageQuery(statuses, d, taskStatuses, withSummaries, quantiles, includeTasks);
  }

  public StageQuery withTaskStatuses(Set<TaskStatus> s) {
    return new StageQuery(statuses, details, s, withSummaries, quantiles, includeTasks);
  }

  public StageQuery withSummaries(List<Double> q) {
    return new StageQuery(statuses, details, taskStatuses, true, q, includeTasks);
  }

  public StageQuery withoutSummaries() {
    return new StageQuery(statuses, details, taskStatuses, false, quantiles, includeTasks);
  }

  /**
   * With {@code details}, the executor and speculation summaries without the task list (see
   * {@code includeTasks}).
   */
  public StageQuery withoutTasks() {
    return new StageQuery(statuses, details, taskStatuses, withSummaries, quantiles, false);
  }
}
