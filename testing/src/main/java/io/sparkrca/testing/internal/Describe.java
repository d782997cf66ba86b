package io.sparkrca.testing.internal;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.StackFrame;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.format.Formats;
import java.util.List;
import java.util.Optional;

/**
 * How failure messages name things: an application by its id, a stage attempt by id, attempt and
 * name, a task by id, partition and executor; numbers in the units the History Server UI uses.
 * One place, so that every assertion says it the same way.
 */
public final class Describe {
  /** The most characters of a failure reason or error quoted in a message. */
  static final int MAX_QUOTED = 400;
  /** The most items a message lists before it says how many more there are. */
  public static final int MAX_LISTED = 10;

  private Describe() {}

  /** {@code application local-1712345678901}. */
  public static String app(SparkApplication app) {
    return "application " + app.info().id();
  }

  /** {@code stage 4 (attempt 0, "count at Job.java:42")}, its name resolved with the application's help. */
  public static String stage(StageData s, Optional<SparkApplication> app) {
    return "stage " + s.stageId() + " (attempt " + s.attemptId() + ", \"" + stageName(s, app) + "\")";
  }

  /** The stage, and the application when known: {@code stage 4 (...) of application local-1}. */
  public static String stageOf(StageData s, Optional<SparkApplication> app) {
    return stage(s, app) + app.map(a -> " of " + app(a)).orElse("");
  }

  /**
   * The stage's name; for Spark 4's generic names ({@code $anonfun$withThreadLocalCaptured$2 at
   * CompletableFuture.java:1768}), the user call site it stands for, else the description of the
   * SQL execution that ran it.
   */
  public static String stageName(StageData s, Optional<SparkApplication> app) {
    String name = s.name();
    if (!name.startsWith("$anonfun$") && !name.contains("withThreadLocalCaptured")) {
      return name;
    }
    Optional<String> site = StackFrame.firstUserCallSite(s.details());
    if (site.isPresent() || app.isEmpty()) {
      return site.orElse(name);
    }
    Optional<Integer> job = app.get().jobs(java.util.Set.of()).stream().filter(j -> j.stageIds().contains(s.stageId()))
        .map(j -> j.jobId()).findFirst();
    return job.flatMap(id -> app.get().sqlExecutions().stream().filter(x -> x.successJobIds().contains(id)
            || x.failedJobIds().contains(id) || x.runningJobIds().contains(id)).findFirst())
        .map(x -> firstLine(x.description())).filter(d -> !d.isBlank()).orElse(name);
  }

  /** {@code task 123 (partition 5, executor driver)}. */
  public static String task(TaskData t) {
    return "task " + t.taskId() + " (partition " + t.index() + ", executor " + t.executorId() + ")";
  }

  /** The first line of a failure reason or error message, cut to {@value #MAX_QUOTED} characters. */
  public static String firstLine(String text) {
    String s = text.strip();
    int nl = s.indexOf('\n');
    if (nl >= 0) {
      s = s.substring(0, nl).strip();
    }
    return s.length() > MAX_QUOTED ? s.substring(0, MAX_QUOTED) + "..." : s;
  }

  public static String ms(double ms) {
    return Formats.humanMillis(ms);
  }

  public static String bytes(double bytes) {
    return Formats.humanBytes(bytes);
  }

  /** A share as a percentage with one decimal: {@code 12.5%}. */
  public static String percent(double share) {
    return Formats.fixed(100 * share, 1) + "%";
  }

  /** A ratio with two decimals: {@code 29.65}. */
  public static String ratio(double r) {
    return Double.isInfinite(r) ? "infinite" : Formats.fixed(r, 2);
  }

  /** {@code 1 stage attempt} / {@code 2 stage attempts}. */
  public static String count(long n, String singular, String plural) {
    return n + " " + (n == 1 ? singular : plural);
  }

  /** The lines, indented, at most {@value #MAX_LISTED}, then how many were left out. */
  public static String lines(List<String> items) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < items.size() && i < MAX_LISTED; i++) {
      sb.append("\n  ").append(items.get(i));
    }
    if (items.size() > MAX_LISTED) {
      sb.append("\n  ... and ").append(items.size() - MAX_LISTED).append(" more");
    }
    return sb.toString();
  }
}
