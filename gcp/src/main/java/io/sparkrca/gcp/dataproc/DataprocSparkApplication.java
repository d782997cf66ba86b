package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * One Spark application of a Dataproc Serverless batch or session, read through the {@code
 * sparkApplications} API and answering as the History Server does (the same model as an event-log
 * replay), so every analysis runs on it. Data is fetched when first asked for and kept: the stage
 * list comes with its task quantiles in one paged search; stage details (tasks, per-executor
 * summaries) are fetched for the attempts asked for (all of them at once for a listing), SQL plan
 * graphs for all executions at once, and {@link #facts()} asks for the parts it reads at once, at
 * most {@link io.sparkrca.gcp.GcpSettings#parallelism()} calls in flight. Bounded: at most {@value #MAX_STAGES}
 * stage attempts, {@value #MAX_TASKS} tasks per attempt, {@value #MAX_SQL} SQL executions; a cut is
 * stated in {@link #completeness()}. Task lists are kept for the attempts read last, at most
 * {@value #CACHED_TASK_LISTS} lists and {@value #CACHED_TASKS} tasks in all ({@link TaskListCache}).
 */
final class DataprocSparkApplication implements SparkApplication {
  static final int MAX_STAGES = 20_000;
  static final int MAX_TASKS = 100_000;
  static final int MAX_JOBS = 20_000;
  static final int MAX_EXECUTORS = 10_000;
  static final int MAX_SQL = 2_000;
  static final int MAX_PLAN_GRAPHS = 500;
  static final String MASK = "task_quantile_metrics";
  /** How many attempts' task lists are kept (and so prefetched at most at once). */
  static final int CACHED_TASK_LISTS = 64;
  /** How many tasks are kept over all cached lists: the memory bound, as one list may hold {@value #MAX_TASKS}. */
  static final int CACHED_TASKS = 2 * MAX_TASKS;

  private final SparkApplicationsClient api;
  private final String parent;
  private final String appId;
  private final JsonNode raw;
  private final ApplicationInfo info;
  private final List<String> cuts = java.util.Collections.synchronizedList(new ArrayList<>());

  private final Memo<List<JobData>> jobs = new Memo<>(this::loadJobs);
  private final Memo<JsonNode> stagesSummary = new Memo<>(this::loadStagesSummary);
  private final Memo<List<JsonNode>> stageJson = new Memo<>(this::loadStages);
  private final Memo<Map<String, JsonNode>> stageJsonByAttempt = new Memo<>(this::indexStages);
  /** Each attempt's quantiles, converted once: the analysis asks for every stage's, some more than once. */
  private final Map<String, Optional<TaskMetricDistributions>> quantiles = new java.util.concurrent.ConcurrentHashMap<>();
  private final Memo<List<StageData>> stagesWithSummaries = new Memo<>(() -> convert(stageJson.get()));
  private final Memo<List<StageData>> stagesPlain = new Memo<>(() -> withoutSummaries(stagesWithSummaries.get()));
  private final Map<String, JsonNode> details = new java.util.concurrent.ConcurrentHashMap<>();
  private final Memo<List<ExecutorSummary>> executors = new Memo<>(this::loadExecutors);
  private final Memo<Optional<ApplicationEnvironmentInfo>> environment = new Memo<>(this::loadEnvironment);
  private final Memo<List<JsonNode>> sqlJson = new Memo<>(this::loadSql);
  private final Memo<List<ExecutionData>> sql = new Memo<>(this::loadSqlWithGraphs);
  private final Memo<ApplicationFacts> facts = new Memo<>(this::loadFacts);
  private final TaskListCache tasks = new TaskListCache(CACHED_TASK_LISTS, CACHED_TASKS);

  DataprocSparkApplication(SparkApplicationsClient api, String parent, JsonNode application) {
    this.api = api;
    this.parent = parent;
    this.raw = application;
    this.info = DataprocModel.application(application);
    this.appId = info.id();
  }

  /** The API call path of this application, for provenance. */
  String path() {
    return parent + "/sparkApplications/" + appId;
  }

  /** The application's {@code summarizeStages} answer ({@code stagesSummary}), fetched once. */
  JsonNode stagesSummary() {
    return stagesSummary.get();
  }

  SparkApplicationsClient api() {
    return api;
  }

  String parent() {
    return parent;
  }

  @Override
  public ApplicationInfo info() {
    return info;
  }

  @Override
  public Optional<String> attemptId() {
    return info.attempts().isEmpty() ? Optional.empty() : info.latestAttempt().attemptId();
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    return jobs.get().stream().filter(j -> statuses.isEmpty() || statuses.contains(j.status())).toList();
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return jobs.get().stream().filter(j -> j.jobId() == jobId).findFirst();
  }

  @Override
  public List<StageData> stages(StageQuery query) {
    List<StageData> base = query.withSummaries() && DataprocModel.QUANTILES.containsAll(query.quantiles())
        ? stagesWithSummaries.get() : stagesPlain.get();
    List<StageData> out = new ArrayList<>();
    for (StageData s : base) {
      if (query.statuses().isEmpty() || query.statuses().contains(s.status())) {
        out.add(s);
      }
    }
    if (query.details()) {
      loadDetails(out);
      out.replaceAll(s -> detailed(s, query));
    }
    return out;
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery query) {
    List<StageData> out = new ArrayList<>(stages(query.withDetails(false)).stream().filter(s -> s.stageId() == stageId).toList());
    out.sort(Comparator.comparingInt(StageData::attemptId));
    if (query.details()) {
      loadDetails(out);
      out.replaceAll(s -> detailed(s, query));
    }
    return out;
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) {
    Optional<StageData> s = stageAttempts(stageId, query.withDetails(false)).stream()
        .filter(a -> a.attemptId() == attemptId).findFirst();
    if (s.isPresent() && query.details()) {
      loadDetails(List.of(s.get())); // this attempt's only: one call, not every attempt's
      return Optional.of(detailed(s.get(), query));
    }
    return s;
  }

  /** A stage attempt with its tasks and per-executor summaries, from {@code accessStageAttempt}. */
  private StageData detailed(StageData s, StageQuery query) {
    JsonNode d = details.get(key(s.stageId(), s.attemptId()));
    if (d == null) {
      return s;
    }
    ObjectNode copy = d.deepCopy();
    if (!query.withSummaries()) {
      copy.remove("taskQuantileMetrics");
    }
    if (!query.taskStatuses().isEmpty() && copy.path("tasks").isObject()) {
      ObjectNode kept = copy.putObject("tasks__");
      d.path("tasks").properties().forEach(e -> {
        if (query.taskStatuses().contains(status(e.getValue().path("status").asText("")))) {
          kept.set(e.getKey(), e.getValue());
        }
      });
      copy.set("tasks", kept);
      copy.remove("tasks__");
    }
    return DataprocModel.stage(copy);
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    List<TaskData> all = tasksOf(stageId, attemptId);
    List<TaskData> kept = new ArrayList<>();
    for (TaskData t : all) {
      if (query.statuses().isEmpty() || query.statuses().contains(status(t.status()))) {
        kept.add(t);
      }
    }
    Comparator<TaskData> byId = Comparator.comparingLong(TaskData::taskId);
    Comparator<TaskData> byRuntime = Comparator.comparingLong((TaskData t) -> t.duration().orElse(-1L)).thenComparing(byId);
    kept.sort(switch (query.sortBy()) {
      case ID -> byId;
      case INCREASING_RUNTIME -> byRuntime;
      case DECREASING_RUNTIME -> byRuntime.reversed();
    });
    int from = Math.min(query.offset(), kept.size());
    int to = (int) Math.min(kept.size(), (long) from + query.length());
    return List.copyOf(kept.subList(from, to));
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    if (!DataprocModel.QUANTILES.containsAll(quantiles)) {
      return Optional.empty(); // Dataproc computes only the minimum, quartiles and maximum
    }
    String k = key(stageId, attemptId);
    JsonNode s = stageJsonByAttempt.get().get(k);
    if (s == null) {
      return Optional.empty();
    }
    return this.quantiles.computeIfAbsent(k, x -> DataprocModel.distributions(s)).map(d -> select(d, quantiles));
  }

  /** The stage attempts by {@code stageId.attemptId}: a lookup per attempt, not a scan of the list. */
  private Map<String, JsonNode> indexStages() {
    Map<String, JsonNode> out = new HashMap<>();
    for (JsonNode s : stageJson.get()) {
      out.putIfAbsent(key((int) DataprocModel.num(s, "stageId"), (int) DataprocModel.num(s, "stageAttemptId")), s);
    }
    return out;
  }

  private static TaskMetricDistributions select(TaskMetricDistributions d, List<Double> quantiles) {
    if (quantiles.equals(DataprocModel.QUANTILES)) {
      return d;
    }
    int[] idx = quantiles.stream().mapToInt(DataprocModel.QUANTILES::indexOf).toArray();
    com.fasterxml.jackson.databind.node.ObjectNode tree = io.sparkrca.core.json.SparkJson.mapper().valueToTree(d);
    selectArrays(tree, idx);
    tree.set("quantiles", io.sparkrca.core.json.SparkJson.mapper().valueToTree(quantiles));
    return io.sparkrca.core.json.SparkJson.mapper().convertValue(tree, TaskMetricDistributions.class);
  }

  private static void selectArrays(com.fasterxml.jackson.databind.node.ObjectNode node, int[] idx) {
    node.properties().forEach(e -> {
      if (e.getValue() instanceof com.fasterxml.jackson.databind.node.ArrayNode a && a.size() == 5) {
        com.fasterxml.jackson.databind.node.ArrayNode picked = node.arrayNode();
        for (int i : idx) {
          picked.add(a.get(i));
        }
        e.setValue(picked);
      } else if (e.getValue() instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
        selectArrays(o, idx);
      }
    });
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return executors.get().stream().filter(e -> !activeOnly || e.isActive()).toList();
  }

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return environment.get();
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    return List.of(); // the API serves no storage listing
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    return Optional.empty();
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    return sql.get();
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return sql.get().stream().filter(x -> x.id() == executionId).findFirst();
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    return List.of();
  }

  @Override
  public ApplicationFacts facts() {
    return facts.get();
  }

  @Override
  public Completeness completeness() {
    List<String> notes = new ArrayList<>(cuts);
    String quantile = raw.path("quantileDataStatus").asText("");
    if (!quantile.isEmpty() && !quantile.equals("QUANTILE_DATA_STATUS_COMPLETED")) {
      notes.add("Dataproc's quantile data status is " + quantile + ": task quantiles may be incomplete");
    }
    String ingestion = raw.path("applicationContextIngestionStatus").asText("");
    if (!ingestion.isEmpty() && !ingestion.equals("APPLICATION_CONTEXT_INGESTION_STATUS_COMPLETED")) {
      notes.add("Dataproc's application context ingestion status is " + ingestion + ": the data may be incomplete");
    }
    return notes.isEmpty() ? Completeness.complete() : new Completeness(false, 0, 0, notes);
  }

  // --- loading

  private List<JobData> loadJobs() {
    SparkApplicationsClient.Paged p = api.page(parent, Optional.of(appId), "searchJobs", "sparkApplicationJobs", Map.of(),
        MAX_JOBS);
    cut(p, "jobs", MAX_JOBS);
    List<JobData> out = new ArrayList<>(p.items().stream().map(DataprocModel::job).toList());
    out.sort(Comparator.comparingInt(JobData::jobId).reversed());
    return List.copyOf(out);
  }

  /**
   * Every stage attempt with its quantiles: for a session, by stage-id sets at once ({@link
   * SessionStageListing}); for a batch, whose search has no such filter, page after page.
   */
  private List<JsonNode> loadStages() {
    Map<String, String> q = Map.of("summaryMetricsMask", MASK);
    SparkApplicationsClient.Paged p = SessionStageListing.applies(parent)
        ? new SessionStageListing(api, parent, appId, q, MAX_STAGES, this::fanOut).list(stagesSummary::get)
        : api.page(parent, Optional.of(appId), "searchStages", "sparkApplicationStages", q, MAX_STAGES);
    cut(p, "stage attempts", MAX_STAGES);
    List<JsonNode> out = new ArrayList<>(p.items());
    out.sort(Comparator.comparingLong((JsonNode s) -> DataprocModel.num(s, "stageId"))
        .thenComparingLong(s -> DataprocModel.num(s, "stageAttemptId")).reversed());
    return List.copyOf(out);
  }

  private JsonNode loadStagesSummary() {
    return api.call(parent, Optional.of(appId), "summarizeStages", Map.of()).path("stagesSummary");
  }

  private static List<StageData> convert(List<JsonNode> stages) {
    List<StageData> out = new ArrayList<>(stages.size());
    for (JsonNode s : stages) {
      out.add(DataprocModel.stage(s));
    }
    return List.copyOf(out);
  }

  /** The same attempts without their task quantiles: converted once, not once more from a copy of the JSON. */
  private static List<StageData> withoutSummaries(List<StageData> stages) {
    List<StageData> out = new ArrayList<>(stages.size());
    for (StageData s : stages) {
      out.add(s.taskMetricsDistributions().isEmpty() ? s : s.withDetails(s.tasks(), s.executorSummary(),
          s.speculationSummary(), Optional.empty(), s.executorMetricsDistributions()));
    }
    return List.copyOf(out);
  }

  /** The details of the attempts not fetched yet, fetched concurrently and kept. */
  private void loadDetails(List<StageData> stages) {
    List<Callable<JsonNode>> calls = new ArrayList<>();
    for (StageData s : stages) {
      if (details.containsKey(key(s.stageId(), s.attemptId()))) {
        continue;
      }
      Map<String, String> q = new LinkedHashMap<>();
      q.put("stageId", Integer.toString(s.stageId()));
      q.put("stageAttemptId", Integer.toString(s.attemptId()));
      q.put("summaryMetricsMask", MASK);
      calls.add(() -> api.call(parent, Optional.of(appId), "accessStageAttempt", q).path("stageData"));
    }
    for (JsonNode d : fanOut(calls)) {
      details.put(key((int) DataprocModel.num(d, "stageId"), (int) DataprocModel.num(d, "stageAttemptId")), d);
    }
  }

  /**
   * The task lists of the attempts not kept yet, fetched concurrently (each one's pages in
   * sequence, as their tokens chain); at most as many lists and tasks as the cache keeps, so none
   * is dropped before it is read. The first attempt is always read, whatever its task count.
   */
  @Override
  public void prefetchTasks(List<StageData> attempts) {
    List<Callable<Object>> loads = new ArrayList<>();
    java.util.Set<String> asked = new java.util.HashSet<>();
    long budget = CACHED_TASKS;
    for (StageData s : attempts) {
      String k = key(s.stageId(), s.attemptId());
      if (tasks.contains(k) || asked.contains(k)) {
        continue;
      }
      if (loads.size() == CACHED_TASK_LISTS || (!loads.isEmpty() && s.numTasks() > budget)) {
        break; // the rest are read when asked for, rather than read now and dropped before that
      }
      asked.add(k);
      budget -= Math.max(0, s.numTasks());
      loads.add(() -> tasksOf(s.stageId(), s.attemptId()));
    }
    fanOut(loads);
  }

  /**
   * The attempt's tasks, kept for the attempts asked for last. Loaded outside the map's lock, so
   * that concurrent loads of different attempts do not wait for each other.
   */
  private List<TaskData> tasksOf(int stageId, int attemptId) {
    String k = key(stageId, attemptId);
    Optional<List<TaskData>> kept = tasks.get(k);
    if (kept.isPresent()) {
      return kept.get();
    }
    List<TaskData> all = loadTasks(stageId, attemptId);
    tasks.put(k, all);
    return all;
  }

  private List<TaskData> loadTasks(int stageId, int attemptId) {
    SparkApplicationsClient.Paged p = api.page(parent, Optional.of(appId), "searchStageAttemptTasks",
        "sparkApplicationStageAttemptTasks",
        Map.of("stageId", Integer.toString(stageId), "stageAttemptId", Integer.toString(attemptId)), MAX_TASKS);
    cut(p, "tasks of stage " + stageId + "." + attemptId, MAX_TASKS);
    return List.copyOf(p.items().stream().map(DataprocModel::task).toList());
  }

  private List<ExecutorSummary> loadExecutors() {
    SparkApplicationsClient.Paged p = api.page(parent, Optional.of(appId), "searchExecutors",
        "sparkApplicationExecutors", Map.of(), MAX_EXECUTORS);
    cut(p, "executors", MAX_EXECUTORS);
    return List.copyOf(p.items().stream().map(DataprocModel::executor).toList());
  }

  private Optional<ApplicationEnvironmentInfo> loadEnvironment() {
    JsonNode env = api.call(parent, Optional.of(appId), "accessEnvironmentInfo", Map.of()).path("applicationEnvironmentInfo");
    return env.isObject() ? Optional.of(DataprocModel.environment(env)) : Optional.empty();
  }

  private List<JsonNode> loadSql() {
    SparkApplicationsClient.Paged p = api.page(parent, Optional.of(appId), "searchSqlQueries",
        "sparkApplicationSqlQueries", Map.of("details", "false", "planDescription", "true"), MAX_SQL);
    cut(p, "SQL executions", MAX_SQL);
    List<JsonNode> out = new ArrayList<>(p.items());
    out.sort(Comparator.comparingLong(x -> DataprocModel.num(x, "executionId")));
    return List.copyOf(out);
  }

  private List<ExecutionData> loadSqlWithGraphs() {
    List<JsonNode> xs = sqlJson.get();
    List<Callable<JsonNode>> calls = new ArrayList<>();
    for (int i = 0; i < Math.min(xs.size(), MAX_PLAN_GRAPHS); i++) {
      String id = Long.toString(DataprocModel.num(xs.get(i), "executionId"));
      calls.add(() -> api.call(parent, Optional.of(appId), "accessSqlPlan", Map.of("executionId", id)).path("sparkPlanGraph"));
    }
    if (xs.size() > MAX_PLAN_GRAPHS) {
      cuts.add("the plan graphs of SQL executions past the first " + MAX_PLAN_GRAPHS + " were not fetched");
    }
    List<JsonNode> graphs = fanOut(calls);
    List<ExecutionData> out = new ArrayList<>(xs.size());
    for (int i = 0; i < xs.size(); i++) {
      out.add(DataprocModel.execution(xs.get(i), i < graphs.size() ? Optional.of(graphs.get(i)) : Optional.empty()));
    }
    return List.copyOf(out);
  }

  /** The model's facts, with each failed SQL execution's error text (which Dataproc keeps, unlike the History Server). */
  private ApplicationFacts loadFacts() {
    prefetchForFacts();
    ApplicationFacts f = ApplicationFacts.of(this);
    Map<Long, String> errors = new HashMap<>();
    for (JsonNode x : sqlJson.get()) {
      String e = x.path("errorMessage").asText("");
      if (!e.isEmpty()) {
        errors.put(DataprocModel.num(x, "executionId"), e);
      }
    }
    if (errors.isEmpty()) {
      return f;
    }
    List<SqlFailure> sqlFailures = f.sqlFailures().stream()
        .map(s -> new SqlFailure(s.executionId(), s.description(), errors.getOrDefault(s.executionId(), s.errorMessage()),
            s.time(), s.source(), s.line()))
        .toList();
    return new ApplicationFacts(f.sparkVersion(), f.jobsStarted(), f.jobsFailed(), f.stagesSubmitted(), f.tasksEnded(),
        f.tasksFailed(), f.tasksKilled(), f.totalGcTimeMs(), f.totalTaskTimeMs(), f.taskFailures(),
        f.taskFailureGroupsDropped(), f.stageFailures(), f.stageSpills(), f.executorRemovals(), sqlFailures, f.exitCode());
  }

  /**
   * What the facts (and the analysis after them) read, asked for at once instead of one after
   * another: the stage pages follow their page tokens, one after the other by nature, while the
   * jobs, executors, environment and SQL executions (with their plan graphs) are fetched beside
   * them; then the failed and killed tasks of the stages that report some, concurrently (at most as
   * many attempts as the task cache keeps). The client keeps at most the settings' parallelism of
   * requests in flight.
   */
  private void prefetchForFacts() {
    List<Callable<Object>> loads = List.of(stageJson::get, jobs::get, executors::get, this::environmentIfAvailable,
        sql::get);
    fanOut(loads);
    prefetchTasks(stagesPlain.get().stream().filter(s -> s.numFailedTasks() + s.numKilledTasks() > 0).toList());
  }

  /**
   * The environment, fetched ahead for the analysis; the facts do not need it, so its failure is
   * left to the caller of {@link #environment()} (the failed load is not kept and is tried again).
   */
  private Object environmentIfAvailable() {
    try {
      return environment.get();
    } catch (SparkRcaException e) {
      return Optional.empty();
    }
  }

  /** Runs the calls, at most the settings' parallelism at a time, and returns their answers in order. */
  private <T> List<T> fanOut(List<? extends Callable<T>> calls) {
    if (calls.isEmpty()) {
      return List.of();
    }
    // A place is taken before a task is submitted, so no more than the parallelism of threads wait.
    Semaphore slots = new Semaphore(api.settings().parallelism());
    List<Future<T>> futures = new ArrayList<>(calls.size());
    List<T> out = new ArrayList<>(calls.size());
    try {
      for (Callable<T> c : calls) {
        slots.acquire();
        try {
          futures.add(DataprocExecutors.fetch().submit(() -> {
            try {
              return c.call();
            } finally {
              slots.release();
            }
          }));
        } catch (RuntimeException e) {
          slots.release();
          throw e;
        }
      }
      for (Future<T> f : futures) {
        out.add(f.get());
      }
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Thread.currentThread().interrupt();
      throw new SparkRcaException("interrupted while fetching " + path(), e);
    } catch (ExecutionException e) {
      futures.forEach(f -> f.cancel(true));
      if (e.getCause() instanceof SparkRcaException s) {
        throw s;
      }
      throw new SparkRcaException("fetching " + path() + " failed: " + e.getCause(), e.getCause());
    }
    return out;
  }

  private void cut(SparkApplicationsClient.Paged p, String what, int max) {
    if (p.truncated()) {
      cuts.add("only the first " + max + " " + what + " were read");
    }
  }

  private static String key(int stageId, int attemptId) {
    return stageId + "." + attemptId;
  }

  private static TaskStatus status(String s) {
    try {
      return TaskStatus.valueOf(s.startsWith("TASK_STATUS_") ? s.substring("TASK_STATUS_".length()) : s);
    } catch (IllegalArgumentException e) {
      return TaskStatus.UNKNOWN;
    }
  }

  /** A value computed once, on first use, by one thread. */
  private static final class Memo<T> {
    private final Supplier<T> load;
    private volatile T value;

    Memo(Supplier<T> load) {
      this.load = load;
    }

    T get() {
      T v = value;
      if (v == null) {
        synchronized (this) {
          if (value == null) {
            value = load.get();
          }
          v = value;
        }
      }
      return v;
    }
  }
}
