package io.sparkrca.gcp.dataproc;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.model.TaskData;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The task lists of the stage attempts read last, bounded twice: at most {@code maxLists} lists
 * and at most {@code maxTasks} tasks over all of them, whichever comes first, the least recently
 * read dropped first. A count of lists alone is not a memory bound: one attempt may hold up to
 * {@link DataprocSparkApplication#MAX_TASKS} tasks, and 64 such lists would fill any heap. The
 * list read last is always kept, however large, so that its reader gets it.
 *
 * <pre>{@code
 * TaskListCache cache = new TaskListCache(64, 500_000);
 * cache.put("3.0", tasks);
 * Optional<List<TaskData>> again = cache.get("3.0");
 * }</pre>
 *
 * <p>Thread-safe.
 */
final class TaskListCache {
  private final int maxLists;
  private final long maxTasks;
  private final LinkedHashMap<String, List<TaskData>> lists = new LinkedHashMap<>(16, 0.75f, true);
  private long tasks;

  TaskListCache(int maxLists, long maxTasks) {
    if (maxLists < 1 || maxTasks < 1) {
      throw new InvalidRequestException("a task-list cache holds at least one list and one task, not " + maxLists
          + " lists and " + maxTasks + " tasks");
    }
    this.maxLists = maxLists;
    this.maxTasks = maxTasks;
  }

  /** The most lists kept. */
  int maxLists() {
    return maxLists;
  }

  /** The most tasks kept over all lists. */
  long maxTasks() {
    return maxTasks;
  }

  synchronized Optional<List<TaskData>> get(String attempt) {
    return Optional.ofNullable(lists.get(attempt));
  }

  synchronized boolean contains(String attempt) {
    return lists.containsKey(attempt);
  }

  /** Keeps {@code list} as the most recently read, dropping the least recently read past either bound. */
  synchronized void put(String attempt, List<TaskData> list) {
    List<TaskData> old = lists.put(attempt, list);
    tasks += list.size() - (old == null ? 0 : old.size());
    Iterator<Map.Entry<String, List<TaskData>>> eldest = lists.entrySet().iterator();
    while (lists.size() > 1 && (lists.size() > maxLists || tasks > maxTasks)) {
      Map.Entry<String, List<TaskData>> e = eldest.next();
      tasks -= e.getValue().size();
      eldest.remove();
    }
  }

  /** How many lists are kept. */
  synchronized int size() {
    return lists.size();
  }

  /** How many tasks are kept over all lists. */
  synchronized long tasks() {
    return tasks;
  }
}
