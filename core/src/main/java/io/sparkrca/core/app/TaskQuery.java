package io.sparkrca.core.app;

import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import java.util.Set;

/**
 * A window of a stage attempt's task list: offset, length, order and status filter, with the
 * History Server's defaults (offset 0, length 20, by id).
 *
 * <pre>{@code
 * app.tasks(1, 0, TaskQuery.first(10).sortedBy(TaskSorting.DECREASING_RUNTIME)); // 10 slowest
 * }</pre>
 */
public record TaskQuery(int offset, int length, TaskSorting sortBy, Set<TaskStatus> statuses) {
  public TaskQuery {
    if (offset < 0 || length < 0) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "a task query's offset and length must be at least 0, not offset " + offset + " and length " + length);
    }
    statuses = Set.copyOf(statuses);
  }

  /** The History Server's default: the first 20 tasks by id. */
  public static TaskQuery defaults() {
    return new TaskQuery(0, 20, TaskSorting.ID, Set.of());
  }

  /** Every task, by id. */
  public static TaskQuery all() {
    return new TaskQuery(0, Integer.MAX_VALUE, TaskSorting.ID, Set.of());
  }

  /** The first {@code n} tasks by id. */
  public static TaskQuery first(int n) {
    return new TaskQuery(0, n, TaskSorting.ID, Set.of());
  }

  public TaskQuery sortedBy(TaskSorting s) {
    return new TaskQuery(offset, length, s, statuses);
  }

  public TaskQuery withStatuses(Set<TaskStatus> s) {
    return new TaskQuery(offset, length, sortBy, s);
  }

  public TaskQuery window(int newOffset, int newLength) {
    return new TaskQuery(newOffset, newLength, sortBy, statuses);
  }
}
