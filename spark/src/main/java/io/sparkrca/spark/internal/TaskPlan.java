package io.sparkrca.spark.internal;

import io.sparkrca.fleet.FleetLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Splits a fleet's logs into Spark tasks of about equal work: enough tasks to keep every core busy
 * (at least {@code minTasks}), and no more than the bytes say (about {@code targetBytes} per task),
 * so that a large log is a task of its own and small logs go many to a task. Work is a log's bytes
 * plus a fixed cost per log (opening it, the analysis' floor). Longest first onto the lightest
 * task (LPT scheduling), which keeps the largest task within 4/3 of the best possible.
 */
public final class TaskPlan {
  /** The work a log costs beyond its bytes. */
  public static final long PER_LOG_BYTES = 256 << 10;

  private TaskPlan() {}

  /**
   * The logs in groups, one group per task, each group in path order, groups heaviest first.
   *
   * @param targetBytes about how much work one task should hold
   * @param minTasks the fewest tasks (when there are that many logs)
   */
  public static List<List<FleetLog>> groups(List<FleetLog> logs, long targetBytes, int minTasks) {
    if (logs.isEmpty()) {
      return List.of();
    }
    long total = 0;
    for (FleetLog l : logs) {
      total += cost(l);
    }
    long byBytes = (total + Math.max(1, targetBytes) - 1) / Math.max(1, targetBytes);
    int n = (int) Math.min(logs.size(), Math.max(Math.max(1, minTasks), Math.min(Integer.MAX_VALUE, byBytes)));
    List<FleetLog> sorted = new ArrayList<>(logs);
    sorted.sort(Comparator.comparingLong(TaskPlan::cost).reversed().thenComparing(FleetLog::uri));
    PriorityQueue<Bin> bins = new PriorityQueue<>(Comparator.comparingLong((Bin b) -> b.bytes).thenComparingInt(b -> b.id));
    for (int i = 0; i < n; i++) {
      bins.add(new Bin(i));
    }
    for (FleetLog l : sorted) {
      Bin b = bins.poll();
      b.logs.add(l);
      b.bytes += cost(l);
      bins.add(b);
    }
    List<Bin> all = new ArrayList<>(bins);
    all.sort(Comparator.comparingLong((Bin b) -> b.bytes).reversed().thenComparingInt(b -> b.id));
    List<List<FleetLog>> out = new ArrayList<>(all.size());
    for (Bin b : all) {
      b.logs.sort(Comparator.comparing(FleetLog::uri));
      out.add(List.copyOf(b.logs));
    }
    return out;
  }

  static long cost(FleetLog l) {
    return Math.max(0, l.sizeBytes()) + PER_LOG_BYTES;
  }

  private static final class Bin {
    final int id;
    final List<FleetLog> logs = new ArrayList<>();
    long bytes;

    Bin(int id) {
      this.id = id;
    }
  }
}
