package io.sparkrca.testing.internal;

import static io.sparkrca.testing.internal.Describe.bytes;
import static io.sparkrca.testing.internal.Describe.ms;
import static io.sparkrca.testing.internal.Describe.percent;
import static io.sparkrca.testing.internal.Describe.ratio;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The per-stage health checks behind {@code StageDataAssert} and {@code StagesAssert}: each says
 * what it expects, measures one stage attempt, and names the recommended rules whose remediation a
 * failure quotes. One check, two messages: about one stage, or about every stage that failed it.
 */
public final class StageChecks {
  private StageChecks() {}

  /** One check. */
  public interface Check {
    /** What is expected, after "Expecting stage ...": {@code to have skew below 5.00 (...)}. */
    String expectation();

    /** Why {@code stage} fails the check, or empty when it passes. */
    Optional<String> violation(StageData stage, Optional<SparkApplication> app);

    /** The related rules of the recommended catalog; the first is quoted when none flags the stage. */
    List<String> rules();
  }

  /** The failure message about one stage, or empty when it passes. */
  public static Optional<String> failure(Check c, StageData s, Optional<SparkApplication> app) {
    return c.violation(s, app).map(v -> "Expecting " + Describe.stageOf(s, app) + " " + c.expectation() + " but " + v + "."
        + RuleAdvice.remediation(app, List.of(s), c.rules()));
  }

  /** The failure message about every stage of {@code stages} that fails, or empty when none does. */
  public static Optional<String> failure(Check c, List<StageData> stages, Optional<SparkApplication> app, String owner) {
    List<String> lines = new ArrayList<>();
    List<StageData> failing = new ArrayList<>();
    for (StageData s : stages) {
      Optional<String> v = c.violation(s, app);
      if (v.isPresent()) {
        lines.add(Describe.stage(s, app) + ": " + v.get());
        failing.add(s);
      }
    }
    if (failing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("Expecting every stage of " + owner + " " + c.expectation() + " but "
        + Describe.count(failing.size(), "stage attempt does not:", "stage attempts do not:") + Describe.lines(lines)
        + RuleAdvice.remediation(app, failing, c.rules()));
  }

  /**
   * The slowest task must take at least this long for a stage to count as skewed: below it, the
   * ratio of a few milliseconds' tasks is noise (JIT warm-up, scheduling), not a cost; the RCA's
   * skew analysis uses the same floor.
   */
  public static final long MIN_SKEWED_TASK_MS = 1000;

  /**
   * Skew: the slowest successful task's duration over the median's. A stage with fewer than two
   * successful tasks, or whose slowest task took under {@value #MIN_SKEWED_TASK_MS} ms, has none.
   */
  public static Check skewBelow(double limit) {
    return new Check() {
      @Override
      public String expectation() {
        return "to have skew below " + ratio(limit) + " (slowest task duration / median task duration)";
      }

      @Override
      public Optional<String> violation(StageData s, Optional<SparkApplication> app) {
        if (s.numCompleteTasks() < 2) {
          return Optional.empty();
        }
        Optional<double[]> d = medianAndMax(s, app);
        if (d.isEmpty()) {
          // Unknown is not healthy: say what is missing instead of passing.
          return Optional.of("its task durations are not known: " + (app.isEmpty()
              ? "it was read without task quantiles (read it with StageQuery.all().withSummaries(List.of(0.5, 1.0)), "
                  + "or assert through assertThat(application).stage(" + s.stageId() + "))"
              : "the application has no task summary for it"));
        }
        double median = d.get()[0];
        double max = d.get()[1];
        double skew = skew(median, max);
        if (skew < limit || max < MIN_SKEWED_TASK_MS) {
          return Optional.empty();
        }
        Optional<TaskData> slowest = app.flatMap(a -> slowestTask(a, s));
        return Optional.of("it was " + ratio(skew) + ": the slowest task" + slowest.map(t -> ", " + Describe.task(t) + ",")
            .orElse("") + " took " + ms(max) + " and the median task " + ms(median));
      }

      @Override
      public List<String> rules() {
        return List.of("CLEAR_DATA_SKEW", "STRAGGLER_TASKS", "PARTITION_SIZE_SKEW");
      }
    };
  }

  /** Spill to disk strictly below {@code limit} bytes. */
  public static Check spillBelow(long limit) {
    return new Check() {
      @Override
      public String expectation() {
        return "to spill less than " + bytes(limit) + " to disk";
      }

      @Override
      public Optional<String> violation(StageData s, Optional<SparkApplication> app) {
        if (s.diskBytesSpilled() < limit) {
          return Optional.empty();
        }
        return Optional.of("it spilled " + bytes(s.diskBytesSpilled()) + " (" + s.diskBytesSpilled() + " bytes; "
            + bytes(s.memoryBytesSpilled()) + " in memory) in " + Describe.count(s.numTasks(), "task", "tasks"));
      }

      @Override
      public List<String> rules() {
        return List.of("SPILL", "EXCESSIVE_DISK_SPILL", "UNDERPARTITIONED_SPILL");
      }
    };
  }

  /** JVM GC time as a share of the stage's executor run time, strictly below {@code limit}. */
  public static Check gcShareBelow(double limit) {
    return new Check() {
      @Override
      public String expectation() {
        return "to spend less than " + percent(limit) + " of its task time in GC";
      }

      @Override
      public Optional<String> violation(StageData s, Optional<SparkApplication> app) {
        double share = s.executorRunTime() > 0 ? s.jvmGcTime() / (double) s.executorRunTime() : 0;
        if (share < limit) {
          return Optional.empty();
        }
        return Optional.of("it spent " + percent(share) + " (" + ms(s.jvmGcTime()) + " of " + ms(s.executorRunTime())
            + " of task time)");
      }

      @Override
      public List<String> rules() {
        return List.of("HIGH_GC_OVERHEAD", "APP_GC_OVERHEAD");
      }
    };
  }

  /** At most {@code limit} tasks. */
  public static Check atMostTasks(int limit) {
    return new Check() {
      @Override
      public String expectation() {
        return "to have at most " + Describe.count(limit, "task", "tasks");
      }

      @Override
      public Optional<String> violation(StageData s, Optional<SparkApplication> app) {
        if (s.numTasks() <= limit) {
          return Optional.empty();
        }
        return Optional.of("it had " + s.numTasks() + (app.isPresent() && s.executorRunTime() > 0
            ? " (" + ms(s.executorRunTime() / (double) Math.max(1, s.numCompleteTasks())) + " of run time per task)" : ""));
      }

      @Override
      public List<String> rules() {
        return List.of("TINY_TASK_STORM", "SCAN_TASK_STORM");
      }
    };
  }

  /** max / median, 1.0 when nothing ran long, infinite when the median task took no time at all. */
  public static double skew(double median, double max) {
    if (!(max > 0)) {
      return 1.0;
    }
    return median > 0 ? max / median : Double.POSITIVE_INFINITY;
  }

  /**
   * The median and maximum successful task duration of a stage attempt: from the application's
   * task summary, or the attempt's own distributions when it was read with them; empty when
   * neither is there.
   */
  public static Optional<double[]> medianAndMax(StageData s, Optional<SparkApplication> app) {
    Optional<TaskMetricDistributions> d = app.isPresent()
        ? app.get().taskSummary(s.stageId(), s.attemptId(), List.of(0.5, 1.0))
        : s.taskMetricsDistributions();
    if (d.isEmpty()) {
      return Optional.empty();
    }
    int median = indexOf(d.get().quantiles(), 0.5);
    int max = indexOf(d.get().quantiles(), 1.0);
    if (median < 0 || max < 0) {
      return Optional.empty();
    }
    return Optional.of(new double[] {d.get().duration().get(median), d.get().duration().get(max)});
  }

  private static int indexOf(List<Double> quantiles, double q) {
    for (int i = 0; i < quantiles.size(); i++) {
      if (Math.abs(quantiles.get(i) - q) < 1e-9) {
        return i;
      }
    }
    return -1;
  }

  private static Optional<TaskData> slowestTask(SparkApplication app, StageData s) {
    List<TaskData> t = app.tasks(s.stageId(), s.attemptId(),
        TaskQuery.first(1).sortedBy(TaskSorting.DECREASING_RUNTIME).withStatuses(Set.of(TaskStatus.SUCCESS)));
    return t.isEmpty() ? Optional.empty() : Optional.of(t.get(0));
  }
}
