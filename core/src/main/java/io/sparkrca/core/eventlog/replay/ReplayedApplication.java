package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorMetrics;
import io.sparkrca.core.model.ExecutorMetricsDistributions;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.InputMetricDistributions;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.MemoryMetrics;
import io.sparkrca.core.model.OutputMetricDistributions;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.ShufflePushReadMetricDistributions;
import io.sparkrca.core.model.ShuffleReadMetricDistributions;
import io.sparkrca.core.model.ShuffleWriteMetricDistributions;
import io.sparkrca.core.model.SpeculationStageSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.model.TaskTotals;
import io.sparkrca.core.redaction.Redactor;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * An application attempt rebuilt from its event log. Besides the {@link SparkApplication}
 * answers, it keeps how the reading went ({@link #report()}) and the evidence found on the way
 * with line numbers ({@link #facts()}).
 *
 * <pre>{@code
 * ReplayedApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-1"));
 * app.facts().taskFailures().forEach(f -> System.out.println(f.description()));
 * }</pre>
 */
public final class ReplayedApplication implements SparkApplication {
  private final ReplayState s;
  private final SqlTracker sql;
  private final ApplicationFacts facts;
  private final ReplayReport report;
  /** When the log was last modified: the listing's {@code lastUpdated}. */
  private final long lastUpdateTime;
  /** What "now" is for things still running (see {@link Replayer#finish(long)}). */
  private final long clock;
  private final String fallbackId;
  /** Parts of the log that could not be read at all (missing, empty or skipped rolling parts). */
  private final long missingParts;
  /** The executors by id, for lookups per task (the state's map is sorted, for listing). */
  private final Map<String, LiveExecutor> executorsById;
  /** The redacted, sorted environment, made on the first read (redacting runs expressions over every value). */
  private volatile Optional<ApplicationEnvironmentInfo> environment;
  /** The redacted, sorted Spark properties alone, made on the first read of them or of the environment. */
  private volatile Optional<List<Map.Entry<String, String>>> sparkProperties;

  ReplayedApplication(ReplayResult result, long lastUpdateTime, String fallbackId) {
    this.s = result.state;
    this.executorsById = new java.util.HashMap<>(result.state.executors);
    this.sql = result.sql;
    this.facts = result.facts;
    this.report = result.report;
    this.missingParts = result.missingParts;
    this.lastUpdateTime = lastUpdateTime;
    this.clock = result.clock;
    this.fallbackId = fallbackId;
  }

  /** Builds the application from a finished replay. */
  public static ReplayedApplication of(ReplayResult result, long lastUpdateTime, String fallbackId) {
    return new ReplayedApplication(result, lastUpdateTime, fallbackId);
  }

  /** How reading the log went: sources, lines, bad lines, truncation, notes. */
  public ReplayReport report() {
    return report;
  }

  /** Evidence with line numbers: failures folded by cause, failed stages, lost executors. */
  @Override
  public ApplicationFacts facts() {
    return facts;
  }

  /** The Spark version that wrote the log, or "" when the log does not say. */
  @Override
  public String sparkVersion() {
    return s.sparkVersion;
  }

  /** What the replay could not read: a cut-off end, bad or over-long lines, capped task rows. */
  @Override
  public Completeness completeness() {
    return new Completeness(report.truncated(), report.badLineCount() + report.overlongLines() + missingParts,
        report.droppedTaskRows(), report.notes(), report.inconsistencies());
  }

  // ------------------------------------------------------------------ application

  @Override
  public ApplicationInfo info() {
    return new ApplicationInfo(
        appId(),
        s.appName == null ? "" : s.appName,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        List.of(attemptInfo()));
  }

  /** The application id, or the log's name when the log has no application start. */
  public String appId() {
    return s.appId != null ? s.appId : fallbackId;
  }

  /** This attempt as the History Server's listing describes it. */
  public ApplicationAttemptInfo attemptInfo() {
    boolean done = s.completed;
    long start = s.startTime;
    long end = done ? s.endTime : -1;
    return new ApplicationAttemptInfo(
        s.attemptId,
        Instant.ofEpochMilli(start),
        Instant.ofEpochMilli(end),
        Instant.ofEpochMilli(lastUpdateTime),
        done ? end - start : 0,
        s.sparkUser == null ? "" : s.sparkUser,
        done,
        s.sparkVersion);
  }

  @Override
  public Optional<String> attemptId() {
    return s.attemptId;
  }

  // ------------------------------------------------------------------ jobs

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    List<JobData> out = new ArrayList<>();
    for (LiveJob job : s.jobs.values()) {
      JobData d = published(job);
      if (statuses.isEmpty() || statuses.contains(d.status())) {
        out.add(d);
      }
    }
    Collections.reverse(out);
    return out;
  }

  @Override
  public Optional<JobData> job(int jobId) {
    LiveJob job = s.jobs.get(jobId);
    return job == null ? Optional.empty() : Optional.of(published(job));
  }

  private static JobData published(LiveJob job) {
    if (job.published == null) {
      job.publish();
    }
    return job.published;
  }

  // ------------------------------------------------------------------ stages

  @Override
  public List<StageData> stages(StageQuery q) {
    List<StageData> out = new ArrayList<>();
    for (LiveStage stage : s.stages.values()) {
      if (q.statuses().isEmpty() || q.statuses().contains(stage.status)) {
        out.add(stageData(stage, q));
      }
    }
    Collections.reverse(out);
    return out;
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery q) {
    List<StageData> out = new ArrayList<>();
    for (LiveStage stage :
        s.stages.subMap(ReplayState.key(stageId, 0), ReplayState.key(stageId + 1, 0)).values()) {
      out.add(stageData(stage, q));
    }
    return out;
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery q) {
    LiveStage stage = s.stages.get(ReplayState.key(stageId, attemptId));
    return stage == null ? Optional.empty() : Optional.of(stageData(stage, q));
  }

  private StageData stageData(LiveStage st, StageQuery q) {
    StageInfo info = st.info;
    long[] m = st.metrics;
    StageData base =
        new StageData(
            st.status,
            info.stageId(),
            info.attemptId(),
            info.numTasks(),
            st.activeTasks,
            st.completedTasks,
            st.failedTasks,
            st.killedTasks,
            st.completedIndices.cardinality(),
            info.submissionTime().map(Instant::ofEpochMilli),
            st.firstLaunchTime < Long.MAX_VALUE
                ? Optional.of(Instant.ofEpochMilli(st.firstLaunchTime))
                : Optional.empty(),
            info.completionTime().map(Instant::ofEpochMilli),
            info.failureReason(),
            m[Metrics.EXECUTOR_DESERIALIZE_TIME],
            m[Metrics.EXECUTOR_DESERIALIZE_CPU_TIME],
            m[Metrics.EXECUTOR_RUN_TIME],
            m[Metrics.EXECUTOR_CPU_TIME],
            m[Metrics.RESULT_SIZE],
            m[Metrics.JVM_GC_TIME],
            m[Metrics.RESULT_SERIALIZATION_TIME],
            m[Metrics.MEMORY_BYTES_SPILLED],
            m[Metrics.DISK_BYTES_SPILLED],
            m[Metrics.PEAK_EXECUTION_MEMORY],
            m[Metrics.INPUT_BYTES],
            m[Metrics.INPUT_RECORDS],
            m[Metrics.OUTPUT_BYTES],
            m[Metrics.OUTPUT_RECORDS],
            m[Metrics.SHUFFLE_REMOTE_BLOCKS],
            m[Metrics.SHUFFLE_LOCAL_BLOCKS],
            m[Metrics.SHUFFLE_FETCH_WAIT],
            m[Metrics.SHUFFLE_REMOTE_BYTES],
            m[Metrics.SHUFFLE_REMOTE_BYTES_TO_DISK],
            m[Metrics.SHUFFLE_LOCAL_BYTES],
            m[Metrics.SHUFFLE_LOCAL_BYTES] + m[Metrics.SHUFFLE_REMOTE_BYTES],
            m[Metrics.SHUFFLE_READ_RECORDS],
            m[Metrics.PUSH_CORRUPT_CHUNKS],
            m[Metrics.PUSH_FALLBACK_COUNT],
            m[Metrics.PUSH_REMOTE_BLOCKS],
            m[Metrics.PUSH_LOCAL_BLOCKS],
            m[Metrics.PUSH_REMOTE_CHUNKS],
            m[Metrics.PUSH_LOCAL_CHUNKS],
            m[Metrics.PUSH_REMOTE_BYTES],
            m[Metrics.PUSH_LOCAL_BYTES],
            m[Metrics.SHUFFLE_REMOTE_REQS_DURATION],
            m[Metrics.PUSH_REMOTE_REQS_DURATION],
            m[Metrics.SHUFFLE_WRITE_BYTES],
            m[Metrics.SHUFFLE_WRITE_TIME],
            m[Metrics.SHUFFLE_WRITE_RECORDS],
            info.name(),
            st.description,
            info.details(),
            st.schedulingPool,
            info.rddIds(),
            info.accumulables(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            st.killedSummary,
            info.resourceProfileId(),
            st.peak.toApi(),
            Optional.empty(),
            Optional.empty(),
            info.isShufflePushEnabled(),
            info.shuffleMergerCount());
    if (!q.details() && !q.withSummaries()) {
      return base;
    }
    List<Double> quantiles = sorted(q.quantiles());
    Optional<Map<Long, TaskData>> tasks = Optional.empty();
    Optional<Map<String, ExecutorStageSummary>> executorSummary = Optional.empty();
    Optional<SpeculationStageSummary> speculation = Optional.empty();
    if (q.details()) {
      if (q.includeTasks()) {
        Map<Long, TaskData> byId = new LinkedHashMap<>();
        for (TaskData t :
            tasks(info.stageId(), info.attemptId(), TaskQuery.all().withStatuses(q.taskStatuses()))) {
          byId.put(t.taskId(), t);
        }
        tasks = Optional.of(byId);
      }
      executorSummary = Optional.of(executorSummaries(st));
      if (st.speculation != null) {
        LiveStage.SpeculationCounts c = st.speculation;
        speculation =
            Optional.of(
                new SpeculationStageSummary(
                    c.numTasks, c.numActiveTasks, c.numCompletedTasks, c.numFailedTasks, c.numKilledTasks));
      }
    }
    Optional<TaskMetricDistributions> taskDist = Optional.empty();
    Optional<ExecutorMetricsDistributions> execDist = Optional.empty();
    if (q.withSummaries()) {
      taskDist = taskSummary(info.stageId(), info.attemptId(), quantiles);
      execDist = executorDistributions(st, quantiles);
    }
    return base.withDetails(tasks, executorSummary, speculation, taskDist, execDist);
  }

  private static Map<String, ExecutorStageSummary> executorSummaries(LiveStage st) {
    Map<String, ExecutorStageSummary> out = new LinkedHashMap<>();
    for (Map.Entry<String, LiveExecutorStageSummary> e : st.executorSummaries.entrySet()) {
      out.put(e.getKey(), e.getValue().toApi());
    }
    return out;
  }

  private static List<Double> sorted(List<Double> q) {
    List<Double> copy = new ArrayList<>(q);
    Collections.sort(copy);
    return copy;
  }

  private Optional<ExecutorMetricsDistributions> executorDistributions(
      LiveStage st, List<Double> quantiles) {
    if (st.executorSummaries.isEmpty()) {
      return Optional.empty();
    }
    List<ExecutorStageSummary> values = new ArrayList<>(executorSummaries(st).values());
    Map<String, List<Double>> peaks = new LinkedHashMap<>();
    List<ExecutorMetrics> withPeaks = new ArrayList<>();
    for (ExecutorStageSummary v : values) {
      v.peakMemoryMetrics().ifPresent(withPeaks::add);
    }
    for (String name : ExecutorMetrics.NAMES) {
      peaks.put(name, quantilesOf(withPeaks.stream().mapToDouble(p -> p.get(name)).toArray(), quantiles));
    }
    return Optional.of(
        new ExecutorMetricsDistributions(
            quantiles,
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::taskTime).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::failedTasks).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::succeededTasks).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::killedTasks).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::inputBytes).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::inputRecords).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::outputBytes).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::outputRecords).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::shuffleRead).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::shuffleReadRecords).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::shuffleWrite).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::shuffleWriteRecords).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::memoryBytesSpilled).toArray(), quantiles),
            quantilesOf(values.stream().mapToDouble(ExecutorStageSummary::diskBytesSpilled).toArray(), quantiles),
            peaks));
  }

  /** Spark's {@code AppStatusUtils.getQuantilesValue}: zeros when there are no values. */
  private static List<Double> quantilesOf(double[] values, List<Double> quantiles) {
    Arrays.sort(values);
    List<Double> out = new ArrayList<>(quantiles.size());
    int count = values.length;
    for (double q : quantiles) {
      if (count == 0) {
        out.add(0.0);
      } else {
        out.add(values[(int) Math.min((long) (q * count), count - 1)]);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ tasks

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery q) {
    TaskTable t = s.taskTables.get(ReplayState.key(stageId, attemptId));
    if (t == null || t.size() == 0) {
      return List.of();
    }
    long wanted = (long) q.offset() + q.length();
    if (wanted <= SELECTED_ROWS) {
      // A page near the top (the slowest task, the first 20): select it, do not sort the stage.
      int[] rows = leadingRows(t, q.sortBy(), q.statuses(), (int) wanted);
      List<TaskData> out = new ArrayList<>(Math.max(0, rows.length - q.offset()));
      for (int i = q.offset(); i < rows.length; i++) {
        out.add(taskData(t, rows[i]));
      }
      return out;
    }
    Integer[] order = orderedRows(t, q.sortBy(), q.statuses());
    List<TaskData> out = new ArrayList<>();
    long skipped = 0;
    for (Integer row : order) {
      if (skipped < q.offset()) {
        skipped++;
        continue;
      }
      if (out.size() >= q.length()) {
        break;
      }
      out.add(taskData(t, row));
    }
    return out;
  }

  private static boolean matches(TaskTable t, int row, Set<TaskStatus> statuses) {
    String status = t.statusName(row);
    for (TaskStatus st : statuses) {
      if (st.name().equals(status)) {
        return true;
      }
    }
    return false;
  }

  /** Pages that end within this many rows are found by {@link #leadingRows}, without sorting. */
  static final int SELECTED_ROWS = 256;

  /**
   * The first {@code k} rows (of those with one of {@code statuses}, or all) in the order
   * {@link #orderedRows} sorts them, found in one pass that keeps the best {@code k} in order:
   * for {@code k = 1}, a single scan for the maximum. Ties the sort leaves in row order are
   * broken by row, so both give the same rows.
   */
  private static int[] leadingRows(TaskTable t, TaskSorting sorting, Set<TaskStatus> statuses, int k) {
    int[] best = new int[k];
    int n = 0;
    if (k == 0) {
      return best;
    }
    int rows = t.size();
    for (int r = 0; r < rows; r++) {
      if (!statuses.isEmpty() && !matches(t, r, statuses)) {
        continue;
      }
      if (n == k && compareRows(t, sorting, r, best[n - 1]) > 0) {
        continue;
      }
      int lo = 0;
      int hi = n;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (compareRows(t, sorting, best[mid], r) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      int last = Math.min(n, k - 1);
      System.arraycopy(best, lo, best, lo + 1, last - lo);
      best[lo] = r;
      if (n < k) {
        n++;
      }
    }
    return n == k ? best : Arrays.copyOf(best, n);
  }

  /** The order of {@link #orderedRows}, rows as the tie-break (the sort is stable). */
  private static int compareRows(TaskTable t, TaskSorting sorting, int a, int b) {
    int c;
    switch (sorting) {
      case INCREASING_RUNTIME:
        c = Long.compare(t.indexedMetric(a, Metrics.EXECUTOR_RUN_TIME), t.indexedMetric(b, Metrics.EXECUTOR_RUN_TIME));
        if (c == 0) {
          c = Long.compare(t.taskId.get(a), t.taskId.get(b));
        }
        break;
      case DECREASING_RUNTIME:
        c = Long.compare(t.indexedMetric(b, Metrics.EXECUTOR_RUN_TIME), t.indexedMetric(a, Metrics.EXECUTOR_RUN_TIME));
        if (c == 0) {
          c = Long.compare(t.taskId.get(b), t.taskId.get(a));
        }
        break;
      default:
        c = Long.compare(t.taskId.get(a), t.taskId.get(b));
    }
    return c != 0 ? c : Integer.compare(a, b);
  }

  /** The rows with one of {@code statuses} (or all), sorted: filtered first, so that a page of failed tasks sorts only those. */
  private static Integer[] orderedRows(TaskTable t, TaskSorting sorting, Set<TaskStatus> statuses) {
    Integer[] rows = new Integer[t.size()];
    int n = 0;
    boolean byIdAlready = true; // rows are appended as tasks start, so usually in task-id order
    long lastId = Long.MIN_VALUE;
    for (int r = 0; r < rows.length; r++) {
      if (statuses.isEmpty() || matches(t, r, statuses)) {
        long id = t.taskId.get(r);
        byIdAlready &= id >= lastId;
        lastId = id;
        rows[n++] = r;
      }
    }
    if (n < rows.length) {
      rows = Arrays.copyOf(rows, n);
    }
    Comparator<Integer> byId = Comparator.comparingLong(r -> t.taskId.get(r));
    switch (sorting) {
      case INCREASING_RUNTIME:
        Arrays.sort(
            rows,
            Comparator.<Integer>comparingLong(r -> t.indexedMetric(r, Metrics.EXECUTOR_RUN_TIME))
                .thenComparing(byId));
        break;
      case DECREASING_RUNTIME:
        Arrays.sort(
            rows,
            Comparator.<Integer>comparingLong(r -> t.indexedMetric(r, Metrics.EXECUTOR_RUN_TIME))
                .thenComparing(byId)
                .reversed());
        break;
      default:
        if (!byIdAlready) {
          Arrays.sort(rows, byId);
        }
    }
    return rows;
  }

  private TaskData taskData(TaskTable t, int row) {
    long launch = t.launchTime.get(row);
    long fetchStart = t.resultFetchStart.get(row);
    long duration = t.duration.get(row);
    String status = t.statusName(row);
    Optional<io.sparkrca.core.model.TaskMetrics> metrics = Optional.empty();
    if (t.hasMetrics.get(row)) {
      long[] m = new long[Metrics.COUNT];
      for (int i = 0; i < Metrics.COUNT; i++) {
        m[i] = t.metric(row, i);
      }
      metrics = Optional.of(Metrics.toApi(m));
    }
    Optional<Long> durationOpt = duration > 0 ? Optional.of(duration) : Optional.empty();
    String executorId = s.facts.strings.get(t.executor.get(row));
    LiveExecutor exec = executorId == null ? null : executorsById.get(executorId);
    long gettingResult = gettingResultTime(launch, fetchStart, durationOpt.orElse(-1L));
    long schedulerDelay = 0;
    boolean finished = status.equals("FAILED") || status.equals("KILLED") || status.equals("SUCCESS");
    if (finished && metrics.isPresent() && durationOpt.isPresent()) {
      io.sparkrca.core.model.TaskMetrics tm = metrics.get();
      schedulerDelay =
          schedulerDelay(
              launch, fetchStart, duration, tm.executorDeserializeTime(),
              tm.resultSerializationTime(), tm.executorRunTime());
    }
    return new TaskData(
        t.taskId.get(row),
        (int) t.index.get(row),
        (int) t.attempt.get(row),
        (int) t.partitionId.get(row),
        Instant.ofEpochMilli(launch),
        fetchStart > 0 ? Optional.of(Instant.ofEpochMilli(fetchStart)) : Optional.empty(),
        durationOpt,
        executorId,
        s.facts.strings.get(t.host.get(row)),
        status,
        s.facts.strings.get(t.locality.get(row)),
        t.speculative.get(row),
        t.accumulators.getOrDefault(row, List.of()),
        Optional.ofNullable(t.errors.get(row)),
        metrics,
        exec == null ? Map.of() : exec.executorLogs,
        schedulerDelay,
        gettingResult);
  }

  /** Sums the task columns: the same totals {@link TaskTotals#of} gives over {@link #taskData}. */
  @Override
  public Optional<TaskTotals> taskTotals(int stageId, int attemptId) {
    TaskTable t = s.taskTables.get(ReplayState.key(stageId, attemptId));
    if (t == null) {
      return stageAttempt(stageId, attemptId, StageQuery.all())
          .map(x -> TaskTotals.of(List.of()));
    }
    long count = 0;
    long duration = 0;
    long gettingResult = 0;
    long delay = 0;
    long[] m = new long[Metrics.COUNT];
    for (int r = 0, rows = t.size(); r < rows; r++) {
      if (t.status(r) != TaskTable.STATUS_SUCCESS || !t.hasMetrics.get(r)) {
        continue;
      }
      count++;
      for (int i = 0; i < Metrics.COUNT; i++) {
        long v = t.metric(r, i);
        if (v > 0) {
          m[i] += v;
        }
      }
      long launch = t.launchTime.get(r);
      long fetchStart = t.resultFetchStart.get(r);
      long d = t.duration.get(r);
      gettingResult += Math.max(0, gettingResultTime(launch, fetchStart, d > 0 ? d : -1L));
      if (d > 0) {
        duration += d;
        delay +=
            schedulerDelay(
                launch, fetchStart, d, t.metric(r, Metrics.EXECUTOR_DESERIALIZE_TIME),
                t.metric(r, Metrics.RESULT_SERIALIZATION_TIME), t.metric(r, Metrics.EXECUTOR_RUN_TIME));
      }
    }
    return Optional.of(new TaskTotals(count, duration, gettingResult, delay, Metrics.toApi(m)));
  }

  private long gettingResultTime(long launch, long fetchStart, long duration) {
    if (fetchStart > 0) {
      return duration > 0 ? launch + duration - fetchStart : clock - fetchStart;
    }
    return 0;
  }

  private long schedulerDelay(
      long launch, long fetchStart, long duration, long deser, long ser, long run) {
    return Math.max(0, duration - run - deser - ser - gettingResultTime(launch, fetchStart, duration));
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(
      int stageId, int attemptId, List<Double> unsorted) {
    TaskTable t = s.taskTables.get(ReplayState.key(stageId, attemptId));
    if (t == null) {
      return Optional.empty();
    }
    int rows = t.size();
    long count = 0;
    for (int r = 0; r < rows; r++) {
      if (t.indexedMetric(r, Metrics.EXECUTOR_RUN_TIME) >= 0) {
        count++;
      }
    }
    if (count == 0) {
      return Optional.empty();
    }
    List<Double> quantiles = sorted(unsorted);
    long[] indices = new long[quantiles.size()];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = Math.min((long) (quantiles.get(i) * count), count - 1);
    }
    QuantileScan scan = new QuantileScan(rows, indices);
    return Optional.of(
        new TaskMetricDistributions(
            quantiles,
            scan.of(r -> t.duration.get(r)),
            scan.metric(t, Metrics.EXECUTOR_DESERIALIZE_TIME),
            scan.metric(t, Metrics.EXECUTOR_DESERIALIZE_CPU_TIME),
            scan.metric(t, Metrics.EXECUTOR_RUN_TIME),
            scan.metric(t, Metrics.EXECUTOR_CPU_TIME),
            scan.metric(t, Metrics.RESULT_SIZE),
            scan.metric(t, Metrics.JVM_GC_TIME),
            scan.metric(t, Metrics.RESULT_SERIALIZATION_TIME),
            scan.of(r -> t.hasMetrics.get(r) ? gettingResultTime(t.launchTime.get(r), t.resultFetchStart.get(r), t.duration.get(r)) : -1L),
            scan.of(r -> t.hasMetrics.get(r) ? schedulerDelay(t.launchTime.get(r), t.resultFetchStart.get(r), t.duration.get(r), t.metric(r, Metrics.EXECUTOR_DESERIALIZE_TIME), t.metric(r, Metrics.RESULT_SERIALIZATION_TIME), t.metric(r, Metrics.EXECUTOR_RUN_TIME)) : -1L),
            scan.metric(t, Metrics.PEAK_EXECUTION_MEMORY),
            scan.metric(t, Metrics.MEMORY_BYTES_SPILLED),
            scan.metric(t, Metrics.DISK_BYTES_SPILLED),
            new InputMetricDistributions(
                scan.metric(t, Metrics.INPUT_BYTES), scan.metric(t, Metrics.INPUT_RECORDS)),
            new OutputMetricDistributions(
                scan.metric(t, Metrics.OUTPUT_BYTES), scan.metric(t, Metrics.OUTPUT_RECORDS)),
            new ShuffleReadMetricDistributions(
                scan.of(r -> t.hasMetrics.get(r) ? t.indexedMetric(r, Metrics.SHUFFLE_LOCAL_BYTES) + t.indexedMetric(r, Metrics.SHUFFLE_REMOTE_BYTES) : -1L),
                scan.metric(t, Metrics.SHUFFLE_READ_RECORDS),
                scan.metric(t, Metrics.SHUFFLE_REMOTE_BLOCKS),
                scan.metric(t, Metrics.SHUFFLE_LOCAL_BLOCKS),
                scan.metric(t, Metrics.SHUFFLE_FETCH_WAIT),
                scan.metric(t, Metrics.SHUFFLE_REMOTE_BYTES),
                scan.metric(t, Metrics.SHUFFLE_REMOTE_BYTES_TO_DISK),
                scan.of(r -> t.hasMetrics.get(r) ? t.indexedMetric(r, Metrics.SHUFFLE_LOCAL_BLOCKS) + t.indexedMetric(r, Metrics.SHUFFLE_REMOTE_BLOCKS) : -1L),
                scan.metric(t, Metrics.SHUFFLE_REMOTE_REQS_DURATION),
                new ShufflePushReadMetricDistributions(
                    scan.metric(t, Metrics.PUSH_CORRUPT_CHUNKS),
                    scan.metric(t, Metrics.PUSH_FALLBACK_COUNT),
                    scan.metric(t, Metrics.PUSH_REMOTE_BLOCKS),
                    scan.metric(t, Metrics.PUSH_LOCAL_BLOCKS),
                    scan.metric(t, Metrics.PUSH_REMOTE_CHUNKS),
                    scan.metric(t, Metrics.PUSH_LOCAL_CHUNKS),
                    scan.metric(t, Metrics.PUSH_REMOTE_BYTES),
                    scan.metric(t, Metrics.PUSH_LOCAL_BYTES),
                    scan.metric(t, Metrics.PUSH_REMOTE_REQS_DURATION))),
            new ShuffleWriteMetricDistributions(
                scan.metric(t, Metrics.SHUFFLE_WRITE_BYTES),
                scan.metric(t, Metrics.SHUFFLE_WRITE_RECORDS),
                scan.metric(t, Metrics.SHUFFLE_WRITE_TIME))));
  }

  /**
   * Picks values at fixed positions of the sorted non-negative values of an index, the way the
   * History Server walks its task indexes (negative values mark failed or metric-less tasks).
   *
   * <p>Each metric's quantiles are computed when its list is first read, not when the summary is
   * made: the History Server's answer reads every list once, when it is written, but an analysis
   * usually reads a few (durations, and records read for the stages that look skewed), and
   * sorting all ~40 metrics of every stage would cost it more than the rest of the analysis. The
   * values at the quantiles' positions are selected ({@link OrderStatistics}), not sorted, and
   * values already in order (a metric that is 0 for every task) are not rearranged at all.
   */
  private static final class QuantileScan {
    private final int rows;
    private final long[] indices;

    QuantileScan(int rows, long[] indices) {
      this.rows = rows;
      this.indices = indices;
    }

    List<Double> metric(TaskTable t, int metric) {
      return new LazyQuantiles(this, t, metric, null);
    }

    List<Double> of(IntToLongFunction value) {
      return new LazyQuantiles(this, null, -1, value);
    }

    /** The values at {@link #indices} of the sorted non-negative values: a metric's, or the function's. */
    double[] compute(TaskTable t, int metric, IntToLongFunction value) {
      long[] scratch = new long[rows];
      int n = 0;
      boolean sorted = true; // often: a metric that is 0 for every task
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (int r = 0; r < rows; r++) {
        long v = value == null ? t.indexedMetric(r, metric) : value.applyAsLong(r);
        if (v >= 0) {
          sorted &= n == 0 || scratch[n - 1] <= v;
          scratch[n++] = v;
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
      if (!sorted) {
        // the first and last positions are the minimum and the maximum: select the others
        int inner = 0;
        for (long idx : indices) {
          if (idx > 0 && idx < n - 1) {
            inner++;
          }
        }
        if (inner > 0) {
          long[] positions = new long[inner];
          int i = 0;
          for (long idx : indices) {
            if (idx > 0 && idx < n - 1) {
              positions[i++] = idx;
            }
          }
          OrderStatistics.select(scratch, n, positions);
        }
      }
      double[] out = new double[indices.length];
      for (int i = 0; i < indices.length; i++) {
        long idx = indices[i];
        if (idx >= n) {
          out[i] = Double.NaN;
        } else if (!sorted && idx == 0) {
          out[i] = (double) min;
        } else if (!sorted && idx == n - 1) {
          out[i] = (double) max;
        } else {
          out[i] = (double) scratch[(int) idx];
        }
      }
      return out;
    }
  }

  /**
   * One metric's quantiles, computed on the first read (the task table no longer changes once
   * the replay has finished). Unmodifiable; safe to read from several threads (a race computes
   * the same values twice).
   */
  private static final class LazyQuantiles extends java.util.AbstractList<Double> implements java.util.RandomAccess {
    private final QuantileScan scan;
    private final TaskTable table;
    private final int metric;
    private final IntToLongFunction value;
    private volatile double[] values;

    LazyQuantiles(QuantileScan scan, TaskTable table, int metric, IntToLongFunction value) {
      this.scan = scan;
      this.table = table;
      this.metric = metric;
      this.value = value;
    }

    @Override
    public Double get(int index) {
      java.util.Objects.checkIndex(index, scan.indices.length);
      double[] v = values;
      if (v == null) {
        v = scan.compute(table, metric, value);
        values = v;
      }
      return v[index];
    }

    @Override
    public int size() {
      return scan.indices.length;
    }
  }

  // ------------------------------------------------------------------ executors

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    List<ExecutorSummary> out = new ArrayList<>();
    for (LiveExecutor exec : s.executors.values()) {
      if (exec.executorId.equals("fallback") || (activeOnly && !exec.isActive)) {
        continue;
      }
      out.add(executorSummary(exec));
    }
    if (activeOnly) {
      Collections.reverse(out);
    }
    return out;
  }

  private ExecutorSummary executorSummary(LiveExecutor e) {
    long totalDuration = e.totalDuration;
    long totalGc = e.totalGcTime;
    Optional<ExecutorMetrics> peak = e.peak.toApi();
    if (ReplayState.DRIVER.equals(e.executorId)) {
      if (peak.isPresent()) {
        totalGc = peak.get().get("TotalGCTime");
      }
      long start = s.startTime;
      long end = s.completed ? s.endTime : -1;
      if (s.appId != null && end != 0) {
        totalDuration = end < 0 ? clock - start : end - start;
      }
    }
    List<Integer> excluded = new ArrayList<>(e.excludedInStages);
    return new ExecutorSummary(
        e.executorId,
        e.hostPort != null ? e.hostPort : e.host,
        e.isActive,
        e.rddBlocks,
        e.memoryUsed,
        e.diskUsed,
        e.totalCores,
        e.maxTasks,
        e.activeTasks,
        e.failedTasks,
        e.completedTasks,
        e.totalTasks,
        totalDuration,
        totalGc,
        e.totalInputBytes,
        e.totalShuffleRead,
        e.totalShuffleWrite,
        e.isExcluded,
        e.maxMemory,
        Instant.ofEpochMilli(e.addTime),
        e.removeTime >= 0 || !e.isActive && e.removeReason != null
            ? Optional.of(Instant.ofEpochMilli(e.removeTime))
            : Optional.empty(),
        Optional.ofNullable(e.removeReason),
        e.executorLogs,
        e.hasMemoryInfo()
            ? Optional.of(new MemoryMetrics(e.usedOnHeap, e.usedOffHeap, e.totalOnHeap, e.totalOffHeap))
            : Optional.empty(),
        excluded,
        peak,
        e.attributes,
        e.resources,
        e.resourceProfileId,
        e.isExcluded,
        excluded);
  }

  // ------------------------------------------------------------------ environment, storage, SQL

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    Optional<ApplicationEnvironmentInfo> known = environment;
    if (known == null) {
      known = redactedEnvironment(); // a race makes the same value twice
      environment = known;
    }
    return known;
  }

  @Override
  public Optional<List<Map.Entry<String, String>>> sparkProperties() {
    Optional<List<Map.Entry<String, String>>> known = sparkProperties;
    if (known == null) {
      ApplicationEnvironmentInfo env = s.environment;
      known = env == null ? Optional.empty() : Optional.of(List.copyOf(redactedSorted(env.sparkProperties())));
      sparkProperties = known; // a race makes the same value twice
    }
    return known;
  }

  @Override
  public Optional<String> systemProperty(String key) {
    ApplicationEnvironmentInfo env = s.environment;
    if (env == null) {
      return Optional.empty();
    }
    for (Map.Entry<String, String> e : env.systemProperties()) {
      if (e.getKey().equals(key) && e.getValue() != null) {
        return Optional.of(Redactor.standard().redactLikeHistoryServer(key, e.getValue()));
      }
    }
    return Optional.empty();
  }

  private Optional<ApplicationEnvironmentInfo> redactedEnvironment() {
    ApplicationEnvironmentInfo env = s.environment;
    if (env == null) {
      return Optional.empty();
    }
    return Optional.of(
        new ApplicationEnvironmentInfo(
            env.runtime(),
            sparkProperties().orElseThrow(),
            redactedSorted(env.hadoopProperties()),
            redactedSorted(env.systemProperties()),
            redactedSorted(env.metricsProperties()),
            sortedByKey(env.classpathEntries()),
            s.resourceProfiles()));
  }

  /** Properties as the History Server shows them ({@link Redactor#redactLikeHistoryServer}), sorted. */
  private static List<Map.Entry<String, String>> redactedSorted(List<Map.Entry<String, String>> in) {
    List<Map.Entry<String, String>> out = new ArrayList<>(in.size());
    Redactor redactor = Redactor.standard();
    for (Map.Entry<String, String> e : in) {
      out.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), redactor.redactLikeHistoryServer(e.getKey(), e.getValue())));
    }
    out.sort(Map.Entry.comparingByKey());
    return out;
  }

  private static List<Map.Entry<String, String>> sortedByKey(List<Map.Entry<String, String>> in) {
    List<Map.Entry<String, String>> out = new ArrayList<>(in);
    out.sort(Map.Entry.comparingByKey());
    return out;
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    List<RDDStorageInfo> out = new ArrayList<>();
    for (LiveRdd rdd : s.rdds.values()) {
      RDDStorageInfo info = rdd.toApi();
      if (info.numCachedPartitions() > 0) {
        out.add(info);
      }
    }
    return out;
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    LiveRdd rdd = s.rdds.get(rddId);
    return rdd == null ? Optional.empty() : Optional.of(rdd.toApi());
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    return sql.toApi(sqlClock());
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return sql.toApi(executionId, sqlClock());
  }

  /**
   * "Now" for a SQL execution that never ended: the application's end when it ended (an execution
   * cannot outlive its application, and the log's modification time can be years later), else
   * the replay's clock.
   */
  private long sqlClock() {
    return s.completed && s.endTime > 0 ? s.endTime : clock;
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    List<ProcessSummary> out = new ArrayList<>();
    for (ReplayState.MiscProcess p : s.processes.values()) {
      if (activeOnly && !p.isActive) {
        continue;
      }
      out.add(
          new ProcessSummary(
              p.id, p.hostPort, p.isActive, p.totalCores, Instant.ofEpochMilli(p.addTime),
              Optional.empty(), p.processLogs));
    }
    return out;
  }

  /** Whether a stage attempt exists, whatever its status. */
  public boolean hasStage(int stageId) {
    return !s.stages.subMap(ReplayState.key(stageId, 0), ReplayState.key(stageId + 1, 0)).isEmpty();
  }
}
