package io.sparkrca.historyserver;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.historyserver.internal.AnswerCache;
import io.sparkrca.historyserver.internal.RestClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/**
 * One attempt of an application, read from a History Server's or a running driver UI's REST API
 * ({@code /api/v1}): each question is one request (task lists page by page), asked when it is
 * first needed and kept in a bounded per-application cache. Answers are the server's own, so every
 * analysis gets the same values as from the application's event log. Get one from {@link
 * HistoryServerHistory#application} or through {@link io.sparkrca.core.source.SparkSources}.
 *
 * <p>For analysis ({@link #facts()}), the per-stage data an analysis reads (the failed tasks of
 * each stage that has some, the task quantiles of each completed stage) is fetched up front with
 * {@link HistoryServerSettings#concurrency()} requests in flight. A per-stage answer that cannot be
 * had even after retries is then a labelled gap ({@link #completeness()} and {@link #gaps()}), not
 * an error and never an empty success; outside that prefetch (for example through the REST
 * router) every failure is an exception.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("http://shs:18080/api/v1/applications/app-1");
 * app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED)));
 * }</pre>
 */
public final class HistoryServerApplication implements SparkApplication {
  /** Tasks asked for per page of a task list. */
  static final int TASK_PAGE = 1000;
  /** SQL executions asked for per page. */
  static final int SQL_PAGE = 100;
  /** The most failed or killed tasks read per stage attempt, as the model-derived facts read. */
  static final int FAILED_TASKS = 2000;
  /** The quantiles analysis reads for every completed stage. */
  static final List<Double> ANALYSIS_QUANTILES = StageQuery.DEFAULT_QUANTILES;

  private static final TypeFactory TYPES = SparkJson.mapper().getTypeFactory();

  private final RestClient client;
  private final String appPath;
  private final ApplicationInfo info;
  private final Optional<String> attemptId;
  private final AnswerCache cache;
  private final List<String> gaps = new ArrayList<>();
  private volatile ApplicationFacts facts;

  HistoryServerApplication(RestClient client, String appPath, ApplicationInfo info, Optional<String> attemptId) {
    this.client = client;
    this.appPath = appPath;
    this.info = info;
    this.attemptId = attemptId;
    this.cache = new AnswerCache(client.settings().maxCacheBytes());
  }

  /** The REST path of this attempt, such as {@code applications/app-1/1}. */
  public String path() {
    return appPath;
  }

  /** Requests sent to the server so far, by every application of the same server. */
  public long requests() {
    return client.requests();
  }

  int concurrency() {
    return client.settings().concurrency();
  }

  /** Per-stage answers that could not be had, each naming the stage and why. */
  public synchronized List<String> gaps() {
    return List.copyOf(gaps);
  }

  @Override
  public ApplicationInfo info() {
    return info;
  }

  @Override
  public Optional<String> attemptId() {
    return attemptId;
  }

  @Override
  public String sparkVersion() {
    String v = info.latestAttempt().appSparkVersion();
    return v == null ? "" : v;
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    List<JobData> all = list("jobs", JobData.class);
    if (statuses.isEmpty()) {
      return all;
    }
    return all.stream().filter(j -> statuses.contains(j.status())).toList();
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return jobs(Set.of()).stream().filter(j -> j.jobId() == jobId).findFirst();
  }

  @Override
  public List<StageData> stages(StageQuery query) {
    StringBuilder q = new StringBuilder();
    for (StageStatus s : new TreeSet<>(query.statuses())) {
      param(q, "status", s.name());
    }
    stageParams(q, query, false);
    return list("stages" + q, StageData.class);
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery query) {
    StringBuilder q = new StringBuilder();
    stageParams(q, query, true);
    return this.<List<StageData>>optional("stages/" + stageId + q, TYPES.constructCollectionType(List.class, StageData.class))
        .orElse(List.of());
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) {
    StringBuilder q = new StringBuilder();
    stageParams(q, query, true);
    return optional("stages/" + stageId + "/" + attemptId + q, TYPES.constructType(StageData.class));
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    List<TaskData> out = new ArrayList<>();
    long offset = query.offset();
    long wanted = query.length();
    while (wanted > 0) {
      int length = (int) Math.min(TASK_PAGE, wanted);
      StringBuilder q = new StringBuilder();
      param(q, "offset", Long.toString(offset));
      param(q, "length", Integer.toString(length));
      param(q, "sortBy", sortBy(query.sortBy()));
      for (TaskStatus s : new TreeSet<>(query.statuses())) {
        param(q, "status", s.name());
      }
      List<TaskData> page = this.<List<TaskData>>optional("stages/" + stageId + "/" + attemptId + "/taskList" + q,
          TYPES.constructCollectionType(List.class, TaskData.class)).orElse(List.of());
      out.addAll(page);
      if (page.size() < length) {
        break;
      }
      offset += length;
      wanted -= length;
    }
    return out;
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    return optional(summaryPath(stageId, attemptId, quantiles), TYPES.constructType(TaskMetricDistributions.class));
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return list(activeOnly ? "executors" : "allexecutors", ExecutorSummary.class);
  }

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return optional("environment", TYPES.constructType(ApplicationEnvironmentInfo.class));
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    return this.<List<RDDStorageInfo>>optional("storage/rdd", TYPES.constructCollectionType(List.class, RDDStorageInfo.class))
        .orElse(List.of());
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    return optional("storage/rdd/" + rddId, TYPES.constructType(RDDStorageInfo.class));
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    List<ExecutionData> out = new ArrayList<>();
    for (int offset = 0; ; offset += SQL_PAGE) {
      // A driver UI without the SQL tab (no SQL ran) answers 404: no executions.
      List<ExecutionData> page = this.<List<ExecutionData>>optional(
          "sql?details=true&planDescription=true&offset=" + offset + "&length=" + SQL_PAGE,
          TYPES.constructCollectionType(List.class, ExecutionData.class)).orElse(List.of());
      out.addAll(page);
      if (page.size() < SQL_PAGE) {
        return out;
      }
    }
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return optional("sql/" + executionId + "?details=true&planDescription=true", TYPES.constructType(ExecutionData.class));
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    List<ProcessSummary> all = this.<List<ProcessSummary>>optional("allmiscellaneousprocess",
        TYPES.constructCollectionType(List.class, ProcessSummary.class)).orElse(List.of());
    return activeOnly ? all.stream().filter(ProcessSummary::isActive).toList() : all;
  }

  /**
   * What went wrong, derived from the server's answers (as for every source that is not an event
   * log), after fetching the per-stage data analysis reads with bounded concurrency.
   */
  @Override
  public ApplicationFacts facts() {
    ApplicationFacts f = facts;
    if (f == null) {
      synchronized (this) {
        f = facts;
        if (f == null) {
          prefetchForAnalysis();
          f = completeFromEventLog(withExecutorTaskTime(ApplicationFacts.of(new Tolerant())));
          facts = f;
        }
      }
    }
    return f;
  }

  /**
   * The REST API has no text for a failed SQL execution (a failure before any job, or on the
   * driver, is only there), so when one failed, its text and the driver's exit code are read from
   * the application's event log, downloaded from the server ({@code logs}, within the settings'
   * cap), as a replay reads them; if it cannot be had, that is a gap.
   */
  private ApplicationFacts completeFromEventLog(ApplicationFacts f) {
    boolean missingText = f.sqlFailures().stream().anyMatch(x -> x.errorMessage().isEmpty());
    if (!missingText || !client.settings().eventLogFallback()) {
      return f;
    }
    ApplicationFacts replayed;
    try (io.sparkrca.historyserver.internal.EventLogArchive zip =
        io.sparkrca.historyserver.internal.EventLogArchive.download(client, appPath + "/logs")) {
      replayed = zip.replay().facts();
    } catch (InvalidRequestException e) {
      throw e;
    } catch (SparkRcaException e) {
      gap("the error text of the failed SQL executions is not in the REST API, and the event log could not be "
          + "downloaded to read it (" + e.getMessage() + ")");
      return f;
    }
    java.util.Map<Long, io.sparkrca.core.app.SqlFailure> byId = new java.util.HashMap<>();
    replayed.sqlFailures().forEach(x -> byId.put(x.executionId(), x));
    List<io.sparkrca.core.app.SqlFailure> sql = new ArrayList<>();
    for (io.sparkrca.core.app.SqlFailure x : f.sqlFailures()) {
      io.sparkrca.core.app.SqlFailure r = byId.get(x.executionId());
      sql.add(r == null || !x.errorMessage().isEmpty() ? x
          : new io.sparkrca.core.app.SqlFailure(x.executionId(), x.description(), r.errorMessage(), x.time(),
              client.name(appPath + "/logs") + " (event log)", r.line()));
    }
    return new ApplicationFacts(f.sparkVersion(), f.jobsStarted(), f.jobsFailed(), f.stagesSubmitted(), f.tasksEnded(),
        f.tasksFailed(), f.tasksKilled(), f.totalGcTimeMs(), f.totalTaskTimeMs(), f.taskFailures(),
        f.taskFailureGroupsDropped(), f.stageFailures(), f.stageSpills(), f.executorRemovals(), sql,
        f.exitCode().isPresent() ? f.exitCode() : replayed.exitCode());
  }

  /**
   * Task time (launch to finish) summed over every task, as a replay sums it: the executors'
   * total durations are exactly that when no task ran on the driver (the driver's is its uptime,
   * so in local mode the model-derived sum of run, deserialization and serialization time stays).
   */
  private ApplicationFacts withExecutorTaskTime(ApplicationFacts f) {
    List<ExecutorSummary> all = executors(false);
    long sum = 0;
    for (ExecutorSummary e : all) {
      if (e.id().equals("driver")) {
        if (e.totalTasks() > 0) {
          return f;
        }
        continue;
      }
      sum += e.totalDuration();
    }
    if (all.stream().noneMatch(e -> !e.id().equals("driver"))) {
      return f;
    }
    sum += endedAfterTheirExecutor(all);
    return new ApplicationFacts(f.sparkVersion(), f.jobsStarted(), f.jobsFailed(), f.stagesSubmitted(), f.tasksEnded(),
        f.tasksFailed(), f.tasksKilled(), f.totalGcTimeMs(), sum, f.taskFailures(), f.taskFailureGroupsDropped(),
        f.stageFailures(), f.stageSpills(), f.executorRemovals(), f.sqlFailures(), f.exitCode());
  }

  /**
   * The server adds a task's time to its executor only while the executor is live, so a task whose
   * end came after its executor's removal (lost with it) is missing from the executors' sums; the
   * removed executor then still counts it as active. Those tasks are among the failed ones, which
   * analysis fetches anyway (within its window): per removed executor, the last {@code
   * activeTasks} of its tasks lost with it are added.
   */
  private long endedAfterTheirExecutor(List<ExecutorSummary> all) {
    java.util.Map<String, Integer> missed = new java.util.HashMap<>();
    for (ExecutorSummary e : all) {
      if (e.removeTime().isPresent() && e.activeTasks() > 0) {
        missed.put(e.id(), e.activeTasks());
      }
    }
    if (missed.isEmpty()) {
      return 0;
    }
    java.util.Map<String, List<TaskData>> lost = new java.util.HashMap<>();
    for (StageData s : stages(StageQuery.all())) {
      if (s.numFailedTasks() + s.numKilledTasks() == 0) {
        continue;
      }
      for (TaskData t : tolerantTasks(s.stageId(), s.attemptId(), failedTasks())) {
        if (missed.containsKey(t.executorId()) && t.duration().isPresent()
            && t.errorMessage().orElse("").startsWith("ExecutorLostFailure")) {
          lost.computeIfAbsent(t.executorId(), k -> new ArrayList<>()).add(t);
        }
      }
    }
    long sum = 0;
    for (java.util.Map.Entry<String, List<TaskData>> e : lost.entrySet()) {
      List<TaskData> ts = e.getValue();
      ts.sort(java.util.Comparator.comparing((TaskData t) -> t.launchTime().plusMillis(t.duration().get())).reversed());
      for (TaskData t : ts.subList(0, Math.min(missed.get(e.getKey()), ts.size()))) {
        sum += t.duration().get();
      }
    }
    return sum;
  }

  /**
   * Complete unless a per-stage answer could not be had (each such gap is a note). An application
   * the server lists as not completed is noted: on a History Server it is running, or its driver
   * died without ending it (the server cannot tell which, as its event log could not either). A
   * running driver's own UI ({@link #servedByRunningDriver()}) can tell: the application is
   * running, so its data ends before the application does ({@link Completeness#cutOff()}, as for
   * a log still being written), and analysis says it is still running.
   */
  @Override
  public Completeness completeness() {
    List<String> g = gaps();
    List<String> notes = new ArrayList<>(g);
    boolean running = servedByRunningDriver();
    if (running) {
      notes.add(0, "read from the running driver's own UI: the application is still running, and its data covers what it "
          + "had done when it was read");
    } else if (!info.latestAttempt().completed()) {
      notes.add(0, "the server lists the application as not completed: its data covers what the server knew when it was read");
    }
    return new Completeness(running, g.size(), 0, notes);
  }

  /**
   * Whether this application is served by its running driver's own UI (port 4040 by default)
   * rather than by a History Server: the driver lists itself with no attempt id, not completed,
   * last updated at its start and with a duration measured up to now; a History Server lists an
   * application it has not seen end with a duration of 0, last updated when its log was.
   */
  public boolean servedByRunningDriver() {
    return servedByRunningDriver(info.latestAttempt());
  }

  static boolean servedByRunningDriver(io.sparkrca.core.model.ApplicationAttemptInfo a) {
    return !a.completed() && a.attemptId().isEmpty() && a.duration() > 0 && a.endTime().toEpochMilli() < 0
        && a.lastUpdated().equals(a.startTime());
  }

  /** Fetches, concurrently, what analysis reads per stage, into the cache. */
  void prefetchForAnalysis() {
    List<StageData> stages = stages(StageQuery.all());
    List<Runnable> work = new ArrayList<>();
    for (StageData s : stages) {
      if (s.numFailedTasks() + s.numKilledTasks() > 0) {
        work.add(() -> tolerantTasks(s.stageId(), s.attemptId(), failedTasks()));
      }
      if (s.status() == StageStatus.COMPLETE) {
        work.add(() -> tolerantSummary(s.stageId(), s.attemptId(), ANALYSIS_QUANTILES));
      }
    }
    runAll(work, client.settings().concurrency());
  }

  /** Runs {@code work} with at most {@code threads} at once; a failed item is already a gap. */
  static void runAll(Collection<Runnable> work, int threads) {
    if (work.isEmpty()) {
      return;
    }
    if (threads <= 1 || work.size() == 1) {
      work.forEach(Runnable::run);
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, work.size()), r -> {
      Thread t = new Thread(r, "sparkrca-shs-fetch");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (Runnable r : work) {
        futures.add(pool.submit(r));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException r) {
            throw r;
          }
          throw new SparkRcaException("fetching from the History Server failed: " + e.getCause(), e.getCause());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("interrupted while fetching from the History Server", e);
    } finally {
      pool.shutdownNow();
    }
  }

  static TaskQuery failedTasks() {
    return TaskQuery.all().window(0, FAILED_TASKS).withStatuses(Set.of(TaskStatus.FAILED, TaskStatus.KILLED));
  }

  private List<TaskData> tolerantTasks(int stageId, int attemptId, TaskQuery q) {
    try {
      return tasks(stageId, attemptId, q);
    } catch (InvalidRequestException e) {
      throw e;
    } catch (SparkRcaException e) {
      gap("stage " + stageId + " attempt " + attemptId + ": its task list could not be fetched (" + e.getMessage() + ")");
      return List.of();
    }
  }

  private Optional<TaskMetricDistributions> tolerantSummary(int stageId, int attemptId, List<Double> q) {
    try {
      return taskSummary(stageId, attemptId, q);
    } catch (InvalidRequestException e) {
      throw e;
    } catch (SparkRcaException e) {
      gap("stage " + stageId + " attempt " + attemptId + ": its task summary could not be fetched (" + e.getMessage() + ")");
      return Optional.empty();
    }
  }

  private synchronized void gap(String what) {
    if (gaps.size() < 200 && !gaps.contains(what)) {
      gaps.add(what);
    }
  }

  /** This application as analysis sees it: per-stage data that cannot be had is a gap. */
  private final class Tolerant implements SparkApplication {
    @Override public ApplicationInfo info() { return HistoryServerApplication.this.info(); }
    @Override public Optional<String> attemptId() { return attemptId; }
    @Override public List<JobData> jobs(Set<JobExecutionStatus> s) { return HistoryServerApplication.this.jobs(s); }
    @Override public Optional<JobData> job(int id) { return HistoryServerApplication.this.job(id); }
    @Override public List<StageData> stages(StageQuery q) { return HistoryServerApplication.this.stages(q); }
    @Override public List<StageData> stageAttempts(int id, StageQuery q) { return HistoryServerApplication.this.stageAttempts(id, q); }
    @Override public Optional<StageData> stageAttempt(int id, int a, StageQuery q) { return HistoryServerApplication.this.stageAttempt(id, a, q); }
    @Override public List<TaskData> tasks(int id, int a, TaskQuery q) { return tolerantTasks(id, a, q); }
    @Override public Optional<TaskMetricDistributions> taskSummary(int id, int a, List<Double> q) { return tolerantSummary(id, a, q); }
    @Override public List<ExecutorSummary> executors(boolean active) { return HistoryServerApplication.this.executors(active); }
    @Override public Optional<ApplicationEnvironmentInfo> environment() { return HistoryServerApplication.this.environment(); }
    @Override public List<RDDStorageInfo> rdds() { return HistoryServerApplication.this.rdds(); }
    @Override public Optional<RDDStorageInfo> rdd(int id) { return HistoryServerApplication.this.rdd(id); }
    @Override public List<ExecutionData> sqlExecutions() { return HistoryServerApplication.this.sqlExecutions(); }
    @Override public Optional<ExecutionData> sqlExecution(long id) { return HistoryServerApplication.this.sqlExecution(id); }
    @Override public List<ProcessSummary> miscellaneousProcesses(boolean a) { return HistoryServerApplication.this.miscellaneousProcesses(a); }
    @Override public String sparkVersion() { return HistoryServerApplication.this.sparkVersion(); }
  }

  // ------------------------------------------------------------------ requests

  private <T> List<T> list(String path, Class<T> element) {
    return this.<List<T>>optional(path, TYPES.constructCollectionType(List.class, element))
        .orElseThrow(() -> new io.sparkrca.core.error.InputNotFoundException(client.name(appPath + "/" + path),
            "the History Server answered 404 for the application's " + path.replaceAll("\\?.*", "")
                + "; it may have been removed from the server, or the attempt id is wrong"));
  }

  private <T> Optional<T> optional(String path, JavaType type) {
    String full = appPath + "/" + path;
    Optional<RestClient.Sized<T>> cached = cache.get(full, () -> {
      Optional<RestClient.Sized<T>> r = client.getSized(full, type);
      return new AnswerCache.Entry(r, r.map(RestClient.Sized::bytes).orElse(64L));
    });
    return cached.map(RestClient.Sized::value);
  }

  static String summaryPath(int stageId, int attemptId, List<Double> quantiles) {
    return "stages/" + stageId + "/" + attemptId + "/taskSummary?quantiles="
        + quantiles.stream().map(HistoryServerApplication::quantile).collect(Collectors.joining(","));
  }

  private static String quantile(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) + ".0" : Double.toString(d);
  }

  private static void stageParams(StringBuilder q, StageQuery query, boolean single) {
    if (query.details() != single) {
      param(q, "details", Boolean.toString(query.details()));
    }
    if (query.details()) {
      for (TaskStatus s : new TreeSet<>(query.taskStatuses())) {
        param(q, "taskStatus", s.name());
      }
    }
    if (query.withSummaries()) {
      param(q, "withSummaries", "true");
      param(q, "quantiles", query.quantiles().stream().map(HistoryServerApplication::quantile).collect(Collectors.joining(",")));
    }
  }

  private static String sortBy(TaskSorting s) {
    return switch (s) {
      case ID -> "ID";
      case INCREASING_RUNTIME -> "runtime";
      case DECREASING_RUNTIME -> "-runtime";
    };
  }

  private static void param(StringBuilder q, String name, String value) {
    q.append(q.length() == 0 ? '?' : '&').append(name).append('=')
        .append(HistoryServerUri.encode(value).replace("%2C", ","));
  }
}
