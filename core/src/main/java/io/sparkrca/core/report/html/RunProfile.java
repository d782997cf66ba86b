package io.sparkrca.core.report.html;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetrics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the charts of an HTML report draw, taken once from an application and bounded whatever its
 * size: the jobs' and stages' time spans, executors added and removed, each executor's GC time and
 * spill, and the task-duration (and shuffle-read) distribution of a few stages of interest as
 * histograms with the median and the slowest task. Immutable; it holds no task list, so a profile
 * of a million-task application is a few hundred kilobytes at most.
 *
 * <pre>{@code
 * RunProfile p = RunProfile.of(EventLogs.replay(path), List.of(3));   // stage 3's tasks in detail
 * p.distributions().forEach(d -> System.out.println(d.label() + " median " + d.medianMs() + " ms"));
 * }</pre>
 *
 * @param applicationId the application
 * @param startMs when it started (epoch ms), or 0 when unknown
 * @param endMs when it ended or last did something (epoch ms), or 0 when unknown
 * @param jobs the jobs' spans, oldest first (at most {@value #MAX_SPANS})
 * @param stages the stage attempts' spans, in submission order (at most {@value #MAX_SPANS})
 * @param stageAttempts how many stage attempts the application had (may exceed {@code stages})
 * @param executors executors, with when they were added and removed
 * @param executorLoad per executor: task time, GC time and spill
 * @param distributions the task distributions of the stages of interest
 * @param notes what was left out, and why
 */
public record RunProfile(
    String applicationId,
    long startMs,
    long endMs,
    List<Span> jobs,
    List<Span> stages,
    int stageAttempts,
    List<ExecutorSpan> executors,
    List<ExecutorLoad> executorLoad,
    List<TaskDistribution> distributions,
    List<String> notes) {
  /** The most job or stage spans a profile keeps (charts aggregate far fewer). */
  public static final int MAX_SPANS = 20_000;
  /** The most executors a profile keeps. */
  public static final int MAX_EXECUTORS = 2_000;
  /** The most tasks read per stage for its distribution. */
  public static final int MAX_TASKS_READ = 250_000;
  /** The most stages whose per-executor spill is read. */
  static final int MAX_SPILL_STAGES = 50;
  /** Bins of a histogram. */
  public static final int BINS = 30;

  public RunProfile {
    Objects.requireNonNull(applicationId, "applicationId");
    jobs = List.copyOf(jobs);
    stages = List.copyOf(stages);
    executors = List.copyOf(executors);
    executorLoad = List.copyOf(executorLoad);
    distributions = List.copyOf(distributions);
    notes = List.copyOf(notes);
  }

  /**
   * A time span on the timeline.
   *
   * @param id {@code "job 3"}, {@code "stage 5.0"}
   * @param label the name (call site)
   * @param startMs start (epoch ms)
   * @param endMs end (epoch ms); for a span still running, the application's last event
   * @param status {@code COMPLETE}, {@code FAILED}, {@code SUCCEEDED}, ...
   * @param tasks tasks
   * @param taskTimeMs executor run time summed over its tasks
   */
  public record Span(String id, String label, long startMs, long endMs, String status, int tasks, long taskTimeMs) {
    public Span {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(status, "status");
    }

    /** The span's length in ms. */
    public long durationMs() {
      return Math.max(0, endMs - startMs);
    }
  }

  /**
   * An executor's life.
   *
   * @param id executor id ({@code driver} included in local mode)
   * @param cores cores
   * @param addMs when it was added (epoch ms)
   * @param removeMs when it was removed, or 0 when it was not
   * @param removeReason why it was removed, when it was
   */
  public record ExecutorSpan(String id, int cores, long addMs, long removeMs, String removeReason) {
    public ExecutorSpan {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(removeReason, "removeReason");
    }
  }

  /**
   * An executor's load.
   *
   * @param id executor id
   * @param taskTimeMs task time (the History Server's totalDuration; in local mode, where Spark records
   *     no GC time for the driver, the stages' executor run time)
   * @param gcTimeMs JVM GC time (in local mode, the stages')
   * @param memorySpilled memory bytes spilled over the stages read
   * @param diskSpilled disk bytes spilled over the stages read
   */
  public record ExecutorLoad(String id, long taskTimeMs, long gcTimeMs, long memorySpilled, long diskSpilled) {
    public ExecutorLoad {
      Objects.requireNonNull(id, "id");
    }

    /** GC time as a share of task time, 0 without task time. */
    public double gcShare() {
      return taskTimeMs <= 0 ? 0 : (double) gcTimeMs / taskTimeMs;
    }
  }

  /**
   * A histogram: {@code counts[i]} values fell in {@code [edges[i], edges[i+1])} (the last bin
   * includes its upper edge).
   *
   * @param unit {@code ms} or {@code bytes}
   * @param edges bin edges, one more than the counts
   * @param counts values per bin
   */
  public record Histogram(String unit, List<Long> edges, List<Long> counts) {
    public Histogram {
      Objects.requireNonNull(unit, "unit");
      edges = List.copyOf(edges);
      counts = List.copyOf(counts);
      if (edges.size() != counts.size() + 1) {
        throw new io.sparkrca.core.error.InvalidRequestException("a histogram needs one more edge than bins, not "
            + edges.size() + " edges for " + counts.size() + " bins");
      }
    }

    /** The values counted. */
    public long total() {
      return counts.stream().mapToLong(Long::longValue).sum();
    }

    /** Bins the values (which it may reorder) into {@code bins} equal bins from their minimum to their maximum. */
    static Histogram of(String unit, long[] values, int n, int bins) {
      if (n == 0) {
        return new Histogram(unit, List.of(0L, 0L), List.of(0L));
      }
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int i = 0; i < n; i++) {
        min = Math.min(min, values[i]);
        max = Math.max(max, values[i]);
      }
      long width = Math.max(1, (max - min + bins) / bins);
      int used = (int) Math.min(bins, (max - min) / width + 1);
      long[] counts = new long[used];
      for (int i = 0; i < n; i++) {
        counts[(int) Math.min(used - 1, (values[i] - min) / width)]++;
      }
      List<Long> edges = new ArrayList<>();
      for (int i = 0; i <= used; i++) {
        edges.add(min + i * width);
      }
      return new Histogram(unit, edges, Arrays.stream(counts).boxed().toList());
    }
  }

  /**
   * The tasks of one stage attempt, as histograms.
   *
   * @param stageId stage
   * @param attemptId attempt
   * @param label {@code "stage 3.0: groupBy at Job.scala:42"}
   * @param tasks successful tasks counted
   * @param durations task durations (launch to finish)
   * @param shuffleRead shuffle bytes read per task, when the stage read shuffle data
   * @param medianMs the median task duration
   * @param maxMs the slowest task's duration
   * @param straggler the slowest task, as {@code "task 123 (partition 7) on executor 2"}
   * @param medianShuffleBytes the median shuffle bytes read per task (0 without shuffle read)
   * @param maxShuffleBytes the most shuffle bytes one task read
   * @param complete whether every task was read (false past {@link #MAX_TASKS_READ})
   */
  public record TaskDistribution(int stageId, int attemptId, String label, long tasks, Histogram durations,
      Optional<Histogram> shuffleRead, long medianMs, long maxMs, String straggler, long medianShuffleBytes,
      long maxShuffleBytes, boolean complete) {
    public TaskDistribution {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(durations, "durations");
      Objects.requireNonNull(shuffleRead, "shuffleRead");
      Objects.requireNonNull(straggler, "straggler");
    }

    /** The slowest task's duration over the median's, 0 when the median is 0. */
    public double maxOverMedian() {
      return medianMs <= 0 ? 0 : (double) maxMs / medianMs;
    }
  }

  /** The profile of {@code app}, with the tasks of the stages {@code detailStages} (their latest attempts) in detail. */
  public static RunProfile of(SparkApplication app, List<Integer> detailStages) {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(detailStages, "detailStages");
    List<String> notes = new ArrayList<>();
    long start = app.info().attempts().isEmpty() ? 0 : Math.max(0, app.info().latestAttempt().startTimeEpoch());
    long end = 0;
    if (!app.info().attempts().isEmpty() && app.info().latestAttempt().completed()) {
      end = app.info().latestAttempt().endTime().toEpochMilli();
    }
    List<StageData> stages = app.stages(StageQuery.all().withoutSummaries());
    List<JobData> jobData = app.jobs(Set.of());
    long last = end;
    for (StageData s : stages) {
      last = Math.max(last, s.completionTime().map(Instant::toEpochMilli).orElse(0L));
      if (start <= 0) {
        start = s.submissionTime().map(Instant::toEpochMilli).orElse(0L);
      }
    }
    for (JobData j : jobData) {
      last = Math.max(last, j.completionTime().map(Instant::toEpochMilli).orElse(0L));
    }
    if (end <= 0) {
      end = last;
    }
    long fallbackEnd = end;

    List<Span> jobs = new ArrayList<>();
    jobData.stream().filter(j -> j.submissionTime().isPresent())
        .sorted(Comparator.comparing((JobData j) -> j.submissionTime().get()).thenComparingInt(JobData::jobId))
        .limit(MAX_SPANS)
        .forEach(j -> jobs.add(new Span("job " + j.jobId(), j.name(), j.submissionTime().get().toEpochMilli(),
            j.completionTime().map(Instant::toEpochMilli).orElse(fallbackEnd), j.status().name(), j.numTasks(), 0)));
    if (jobData.size() > MAX_SPANS) {
      notes.add((jobData.size() - MAX_SPANS) + " jobs past the first " + MAX_SPANS + " are not on the timeline.");
    }
    List<Span> spans = new ArrayList<>();
    stages.stream().filter(s -> s.submissionTime().isPresent() && s.status() != StageStatus.SKIPPED)
        .sorted(Comparator.comparing((StageData s) -> s.submissionTime().get()).thenComparingInt(StageData::stageId))
        .limit(MAX_SPANS)
        .forEach(s -> spans.add(new Span("stage " + s.stageId() + "." + s.attemptId(), s.name(),
            s.submissionTime().get().toEpochMilli(), s.completionTime().map(Instant::toEpochMilli).orElse(fallbackEnd),
            s.status().name(), s.numTasks(), s.executorRunTime())));
    if (stages.size() > MAX_SPANS) {
      notes.add((stages.size() - MAX_SPANS) + " stage attempts past the first " + MAX_SPANS + " are not on the timeline.");
    }

    List<ExecutorSummary> execs = app.executors(false);
    List<ExecutorSpan> lives = new ArrayList<>();
    Map<String, long[]> load = new LinkedHashMap<>();
    for (ExecutorSummary e : execs) {
      if (lives.size() >= MAX_EXECUTORS) {
        notes.add((execs.size() - MAX_EXECUTORS) + " executors past the first " + MAX_EXECUTORS + " are left out.");
        break;
      }
      lives.add(new ExecutorSpan(e.id(), e.totalCores(), e.addTime().toEpochMilli(),
          e.removeTime().map(Instant::toEpochMilli).orElse(0L), e.removeReason().orElse("")));
      load.put(e.id(), new long[] {e.totalDuration(), e.totalGCTime(), 0, 0});
    }
    // Local mode: the driver is the one executor, and Spark records no GC time on its summary (it is
    // 0 there however long the tasks collected): its tasks' GC and run time are the stages'.
    long[] driver = load.get("driver");
    if (driver != null && load.size() == 1 && driver[1] == 0) {
      long gc = stages.stream().mapToLong(StageData::jvmGcTime).sum();
      long run = stages.stream().mapToLong(StageData::executorRunTime).sum();
      if (gc > 0 && run > 0) {
        driver[0] = run;
        driver[1] = gc;
      }
    }
    // Spill per executor is only in the stages' per-executor summaries: read those of the stages that spilled.
    List<StageData> spilled = stages.stream().filter(s -> s.memoryBytesSpilled() > 0 || s.diskBytesSpilled() > 0)
        .sorted(Comparator.comparingLong(StageData::diskBytesSpilled).thenComparingLong(StageData::memoryBytesSpilled)
            .reversed())
        .toList();
    for (StageData s : spilled.subList(0, Math.min(MAX_SPILL_STAGES, spilled.size()))) {
      app.stageAttempt(s.stageId(), s.attemptId(), StageQuery.all().withDetails(true).withoutSummaries().withoutTasks())
          .flatMap(StageData::executorSummary).ifPresent(m -> {
            for (Map.Entry<String, ExecutorStageSummary> x : m.entrySet()) {
              long[] l = load.get(x.getKey());
              if (l != null) {
                l[2] += x.getValue().memoryBytesSpilled();
                l[3] += x.getValue().diskBytesSpilled();
              }
            }
          });
    }
    if (spilled.size() > MAX_SPILL_STAGES) {
      notes.add("Spill per executor counts the " + MAX_SPILL_STAGES + " stages that spilled most of "
          + spilled.size() + ".");
    }
    List<ExecutorLoad> loads = new ArrayList<>();
    load.forEach((id, l) -> loads.add(new ExecutorLoad(id, l[0], l[1], l[2], l[3])));

    List<TaskDistribution> dists = new ArrayList<>();
    for (int id : detailStages.stream().distinct().limit(4).toList()) {
      stages.stream().filter(s -> s.stageId() == id && s.status() != StageStatus.SKIPPED)
          .max(Comparator.comparingInt(StageData::attemptId))
          .flatMap(s -> distribution(app, s, notes))
          .ifPresent(dists::add);
    }
    return new RunProfile(app.info().id(), start, end, jobs, spans, stages.size(), lives, loads, dists, notes);
  }

  /** The longest stage attempt's id (by wall time), for a profile that has no stage of interest. */
  public static List<Integer> longestStage(SparkApplication app) {
    return app.stages(StageQuery.all().withoutSummaries()).stream()
        .filter(s -> s.wallClock().isPresent())
        .max(Comparator.comparing(s -> s.wallClock().get()))
        .map(s -> List.of(s.stageId())).orElse(List.of());
  }

  private static Optional<TaskDistribution> distribution(SparkApplication app, StageData s, List<String> notes) {
    List<TaskData> tasks = app.tasks(s.stageId(), s.attemptId(), TaskQuery.first(MAX_TASKS_READ));
    long[] durations = new long[tasks.size()];
    long[] shuffle = new long[tasks.size()];
    int n = 0;
    int undated = 0;
    TaskData slowest = null;
    for (TaskData t : tasks) {
      if (!"SUCCESS".equals(t.status())) {
        continue;
      }
      if (t.duration().isEmpty()) {
        undated++;
        continue;
      }
      durations[n] = t.duration().get();
      shuffle[n] = t.taskMetrics().map(TaskMetrics::shuffleReadMetrics).map(r -> r.localBytesRead() + r.remoteBytesRead())
          .orElse(0L);
      if (slowest == null || durations[n] > slowest.duration().get()) {
        slowest = t;
      }
      n++;
    }
    if (undated > 0) {
      notes.add("Stage " + s.stageId() + ": " + io.sparkrca.core.format.Formats.count(undated, "successful task")
          + " recorded no duration and " + (undated == 1 ? "is" : "are") + " not in its charts.");
    }
    if (n == 0) {
      return Optional.empty();
    }
    boolean complete = tasks.size() < MAX_TASKS_READ || s.numTasks() <= MAX_TASKS_READ;
    if (!complete) {
      notes.add("Stage " + s.stageId() + "'s distribution counts its first " + MAX_TASKS_READ + " tasks of "
          + s.numTasks() + ".");
    }
    long[] sorted = Arrays.copyOf(durations, n);
    Arrays.sort(sorted);
    // The median as the History Server's task summary takes it (the value at 0.5 of the count), so
    // that the chart's median is the one the report's text quotes.
    long median = sorted[Math.min(n / 2, n - 1)];
    long max = sorted[n - 1];
    long[] sortedShuffle = Arrays.copyOf(shuffle, n);
    Arrays.sort(sortedShuffle);
    boolean readsShuffle = sortedShuffle[n - 1] > 0;
    Histogram d = Histogram.of("ms", durations, n, BINS);
    Optional<Histogram> sr = readsShuffle ? Optional.of(Histogram.of("bytes", shuffle, n, BINS)) : Optional.empty();
    String straggler = "task " + slowest.taskId() + " (partition " + slowest.partitionId() + ") on executor "
        + slowest.executorId();
    return Optional.of(new TaskDistribution(s.stageId(), s.attemptId(), "stage " + s.stageId() + "." + s.attemptId()
        + ": " + s.name(), n, d, sr, median, max, straggler, sortedShuffle[Math.min(n / 2, n - 1)], sortedShuffle[n - 1], complete));
  }
}
