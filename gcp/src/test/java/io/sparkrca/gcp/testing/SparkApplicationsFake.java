package io.sparkrca.gcp.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server that answers Dataproc's {@code sparkApplications} REST API for workloads whose
 * application is a real {@link SparkApplication} (a replayed testkit event log), converted into
 * Dataproc's shapes by {@link DataprocShapes}. It checks requests as the real API does ({@code
 * parent=} on every per-application call, the app path built from the application id, {@code
 * pageSize} at most 100, {@code taskStatus}/{@code sortRuntime} refused on task searches, a
 * session's {@code searchStages} filtered by repeated {@code stageIds} and a batch's refusing them),
 * pages with opaque tokens, and can add latency, answer a queue of faults, and demand a bearer token.
 */
public final class SparkApplicationsFake implements AutoCloseable {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** A fault to answer instead of the next request: a status, a body, and an optional Retry-After. */
  public record Fault(int status, String body, Optional<String> retryAfter) {
    public static Fault of(int status, String message) {
      return new Fault(status, "{\"error\":{\"code\":" + status + ",\"message\":\"" + message + "\",\"status\":\"X\"}}",
          Optional.empty());
    }
  }

  private final HttpServer server;
  private final ExecutorService pool;
  private final Map<String, Optional<SparkApplication>> workloads = new ConcurrentHashMap<>();
  private final Map<String, Map<Long, String>> sqlErrors = new ConcurrentHashMap<>();
  private final Deque<Fault> faults = new ArrayDeque<>();
  private final Map<SparkApplication, Map<String, ObjectNode>> shaped = new java.util.WeakHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  /** The exchanges counted out of flight already (HttpExchange attributes are shared by the context). */
  private final java.util.Set<HttpExchange> left = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> byMethod = new ConcurrentHashMap<>();
  private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
  private volatile long latencyMs;
  private volatile Optional<String> requiredToken = Optional.empty();
  private volatile StageIdsFilter stageIdsFilter = StageIdsFilter.HONOURED;
  private volatile boolean stagesNewestFirst;

  /** What a session's {@code searchStages} does with {@code stageIds} (batches' rejects it, as Dataproc's does). */
  public enum StageIdsFilter {
    /** Lists only the stages asked for, as Dataproc's sessions API does. */
    HONOURED,
    /** Lists every stage, as a server that does not know the parameter and drops it would. */
    IGNORED,
    /** Answers 400, as the batches API does. */
    REJECTED
  }

  public SparkApplicationsFake() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    pool = Executors.newFixedThreadPool(32, r -> {
      Thread t = new Thread(r, "fake-sparkapplications");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The base URL to give the client ({@code GcpSettings.sparkApplicationsEndpoint}). */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Serves {@code app} for the workload {@code parent} (projects/P/locations/R/batches/ID). */
  public SparkApplicationsFake serve(String parent, SparkApplication app) {
    workloads.put(parent, Optional.of(app));
    return this;
  }

  /** A workload with no Spark application (the driver never started). */
  public SparkApplicationsFake serveNone(String parent) {
    workloads.put(parent, Optional.empty());
    return this;
  }

  /** The error message a failed SQL execution reports (Dataproc keeps it, the History Server does not). */
  public SparkApplicationsFake sqlError(String parent, long executionId, String message) {
    sqlErrors.computeIfAbsent(parent, k -> new ConcurrentHashMap<>()).put(executionId, message);
    return this;
  }

  public SparkApplicationsFake latency(long ms) {
    this.latencyMs = ms;
    return this;
  }

  public SparkApplicationsFake stageIdsFilter(StageIdsFilter f) {
    this.stageIdsFilter = f;
    return this;
  }

  /** Stage searches list the highest stage id first (the fake lists the lowest first unless told). */
  public SparkApplicationsFake stagesNewestFirst(boolean newestFirst) {
    this.stagesNewestFirst = newestFirst;
    return this;
  }

  public SparkApplicationsFake requireToken(String token) {
    this.requiredToken = Optional.of(token);
    return this;
  }

  public synchronized SparkApplicationsFake fault(Fault f) {
    faults.add(f);
    return this;
  }

  public int requests() {
    return requests.get();
  }

  /** The most requests the fake was answering at one time since the last {@link #reset()}. */
  public int maxInFlight() {
    return maxInFlight.get();
  }

  public int requests(String method) {
    return byMethod.getOrDefault(method, new AtomicInteger()).get();
  }

  public List<String> log() {
    return List.copyOf(log);
  }

  public synchronized void reset() {
    requests.set(0);
    maxInFlight.set(0);
    byMethod.clear();
    log.clear();
    faults.clear();
    latencyMs = 0;
    requiredToken = Optional.empty();
    stageIdsFilter = StageIdsFilter.HONOURED;
    stagesNewestFirst = false;
  }

  private synchronized Optional<Fault> nextFault() {
    return Optional.ofNullable(faults.poll());
  }

  private void handle(HttpExchange ex) throws IOException {
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try (ex) {
      try {
        route(ex);
      } catch (NotFound e) {
        send(ex, 500, "{\"error\":{\"code\":500,\"message\":\"Internal error encountered.\",\"details\":[{\"@type\":"
            + "\"type.googleapis.com/google.rpc.DebugInfo\",\"detail\":\"com.google.DataprocException: " + e.getMessage()
            + " (NOT_FOUND) (CONFIG);AppErrorCode=5\"}]}}");
      } catch (BadRequest e) {
        send(ex, 400, error(400, e.getMessage()));
      } catch (Internal e) {
        send(ex, 500, "{\"error\":{\"code\":500,\"message\":\"Internal error encountered.\",\"details\":[{\"@type\":"
            + "\"type.googleapis.com/google.rpc.DebugInfo\",\"detail\":\"[ORIGINAL ERROR] generic::internal: "
            + "com.google.BadRequestException: " + e.getMessage() + ";AppErrorCode=3\"}]}}");
      } catch (RuntimeException e) {
        send(ex, 500, error(500, "fake failed: " + e));
      }
    } finally {
      leave(ex);
      left.remove(ex);
    }
  }

  /** Counts the request out of flight once, whether it was answered or failed. */
  private void leave(HttpExchange ex) {
    if (left.add(ex)) {
      inFlight.decrementAndGet();
    }
  }

  private void route(HttpExchange ex) throws IOException {
    {
      requests.incrementAndGet();
      String path = ex.getRequestURI().getRawPath();
      Map<String, String> q = query(ex.getRequestURI().getRawQuery());
      log.add(ex.getRequestMethod() + " " + ex.getRequestURI());
      if (latencyMs > 0) {
        try {
          Thread.sleep(latencyMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (requiredToken.isPresent()) {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !auth.equals("Bearer " + requiredToken.get())) {
          send(ex, 401, "{\"error\":{\"code\":401,\"message\":\"Request had invalid authentication credentials.\","
              + "\"status\":\"UNAUTHENTICATED\"}}");
          return;
        }
      }
      Optional<Fault> fault = nextFault();
      if (fault.isPresent()) {
        fault.get().retryAfter().ifPresent(r -> ex.getResponseHeaders().add("Retry-After", r));
        send(ex, fault.get().status(), fault.get().body());
        return;
      }
      if (!path.startsWith("/v1/")) {
        send(ex, 404, error(404, "no such API"));
        return;
      }
      String rest = decode(path.substring(4));
      int sa = rest.indexOf("/sparkApplications");
      if (sa < 0) {
        send(ex, 404, error(404, "not found"));
        return;
      }
      String parent = rest.substring(0, sa);
      String tail = rest.substring(sa + "/sparkApplications".length());
      Optional<SparkApplication> app = workloads.get(parent);
      if (app == null) {
        send(ex, 404, error(404, "Batch " + parent + " not found"));
        return;
      }
      if (tail.equals(":search")) {
        count("search");
        int size = Integer.parseInt(q.getOrDefault("pageSize", "10"));
        if (size < 1 || size > 100) {
          send(ex, 400, error(400, "Page size must be in range (0, 100]"));
          return;
        }
        ObjectNode o = F.objectNode();
        ArrayNode list = o.putArray("sparkApplications");
        app.ifPresent(a -> list.addObject().put("name", parent + "/sparkApplications/" + a.info().id())
            .set("application", DataprocShapes.application(a.info())));
        send(ex, 200, o.toString());
        return;
      }
      if (!tail.startsWith("/") || tail.indexOf(':') < 0) {
        send(ex, 404, error(404, "not found"));
        return;
      }
      String appId = tail.substring(1, tail.indexOf(':'));
      String method = tail.substring(tail.indexOf(':') + 1);
      count(method);
      if (!parent.equals(q.get("parent"))) {
        send(ex, 400, error(400, "parent must be set to " + parent));
        return;
      }
      if (app.isEmpty() || !app.get().info().id().equals(appId)) {
        send(ex, 404, error(404, "Spark application " + appId + " not found"));
        return;
      }
      send(ex, 200, answer(parent, app.get(), method, q));
    }
  }

  private void count(String method) {
    byMethod.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
  }

  private String answer(String parent, SparkApplication app, String method, Map<String, String> q) throws IOException {
    switch (method) {
      case "summarizeStages": {
        ObjectNode s = F.objectNode();
        List<StageData> st = app.stages(StageQuery.all());
        DataprocShapes.i32(s, "numCompletedStages", st.stream().filter(x -> x.status().name().equals("COMPLETE")).count());
        DataprocShapes.i32(s, "numFailedStages", st.stream().filter(x -> x.status().name().equals("FAILED")).count());
        DataprocShapes.i32(s, "numActiveStages", st.stream().filter(x -> x.status().name().equals("ACTIVE")).count());
        DataprocShapes.i32(s, "numPendingStages", st.stream().filter(x -> x.status().name().equals("PENDING")).count());
        DataprocShapes.i32(s, "numSkippedStages", st.stream().filter(x -> x.status().name().equals("SKIPPED")).count());
        s.put("applicationId", app.info().id());
        return F.objectNode().set("stagesSummary", s).toString();
      }
      case "summarizeJobs": {
        ObjectNode s = F.objectNode();
        List<JobData> js = app.jobs(java.util.Set.of());
        DataprocShapes.i32(s, "completedJobs", js.stream().filter(j -> j.status().name().equals("SUCCEEDED")).count());
        DataprocShapes.i32(s, "failedJobs", js.stream().filter(j -> j.status().name().equals("FAILED")).count());
        DataprocShapes.i32(s, "activeJobs", js.stream().filter(j -> j.status().name().equals("RUNNING")).count());
        return F.objectNode().set("jobsSummary", s).toString();
      }
      case "summarizeExecutors": {
        ObjectNode o = F.objectNode();
        o.set("totalExecutorSummary", consolidated(app.executors(false)));
        o.set("activeExecutorSummary", consolidated(app.executors(false).stream().filter(ExecutorSummary::isActive).toList()));
        o.set("deadExecutorSummary", consolidated(app.executors(false).stream().filter(e -> !e.isActive()).toList()));
        return o.toString();
      }
      case "searchStages": {
        boolean mask = "task_quantile_metrics".equals(q.get("summaryMetricsMask"));
        String status = q.getOrDefault("stageStatus", "");
        java.util.Set<Integer> ids = stageIds(parent, q);
        List<StageData> st = new ArrayList<>();
        for (StageData s : app.stages(StageQuery.all())) {
          if ((status.isEmpty() || status.equals("STAGE_STATUS_" + s.status().name()))
              && (ids.isEmpty() || ids.contains(s.stageId()))) {
            st.add(s);
          }
        }
        Comparator<StageData> byId = Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId);
        st.sort(stagesNewestFirst ? byId.reversed() : byId);
        // Only the page asked for is shaped (as a server reads one page from its store): shaping every
        // stage for every page made the fake's own work grow with the square of the stage count.
        return page(st, s -> shapedStage(app, s, mask), "sparkApplicationStages", q);
      }
      case "accessStageAttempt": {
        int stageId = Integer.parseInt(q.getOrDefault("stageId", "0"));
        int attempt = Integer.parseInt(q.getOrDefault("stageAttemptId", "0"));
        boolean mask = "task_quantile_metrics".equals(q.get("summaryMetricsMask"));
        Optional<StageData> s = app.stageAttempt(stageId, attempt, StageQuery.all().withDetails(true));
        if (s.isEmpty()) {
          throw new NotFound("StageData not found for id: " + stageId + " - " + attempt);
        }
        return F.objectNode().set("stageData", DataprocShapes.stage(s.get(), mask ? quantiles(app, s.get()) : Optional.empty(),
            true)).toString();
      }
      case "searchStageAttemptTasks": {
        if (q.containsKey("taskStatus") || q.containsKey("sortRuntime")) {
          return internal("Filtering by task status is not supported yet.");
        }
        int stageId = Integer.parseInt(q.getOrDefault("stageId", "0"));
        int attempt = Integer.parseInt(q.getOrDefault("stageAttemptId", "0"));
        List<ObjectNode> items = new ArrayList<>();
        for (TaskData t : app.tasks(stageId, attempt, TaskQuery.all())) {
          items.add(DataprocShapes.task(t, stageId, attempt));
        }
        return page(items, "sparkApplicationStageAttemptTasks", q);
      }
      case "searchExecutors": {
        String status = q.getOrDefault("executorStatus", "");
        List<ObjectNode> items = new ArrayList<>();
        for (ExecutorSummary e : app.executors(false)) {
          if (status.isEmpty() || status.equals(e.isActive() ? "EXECUTOR_STATUS_ACTIVE" : "EXECUTOR_STATUS_DEAD")) {
            items.add(DataprocShapes.executor(e));
          }
        }
        return page(items, "sparkApplicationExecutors", q);
      }
      case "searchJobs": {
        String status = q.getOrDefault("jobStatus", "");
        List<JobData> js = new ArrayList<>(app.jobs(java.util.Set.of()));
        js.sort(Comparator.comparingInt(JobData::jobId));
        List<ObjectNode> items = new ArrayList<>();
        for (JobData j : js) {
          if (status.isEmpty() || status.equals("JOB_EXECUTION_STATUS_" + j.status().name())) {
            items.add(DataprocShapes.job(j));
          }
        }
        return page(items, "sparkApplicationJobs", q);
      }
      case "accessEnvironmentInfo": {
        ObjectNode o = F.objectNode();
        app.environment().ifPresent(e -> o.set("applicationEnvironmentInfo", DataprocShapes.environment(e)));
        return o.toString();
      }
      case "searchSqlQueries": {
        List<ObjectNode> items = new ArrayList<>();
        for (ExecutionData x : app.sqlExecutions()) {
          ObjectNode o = DataprocShapes.execution(x, errorOf(parent, x.id()))[0];
          if (!"true".equals(q.get("planDescription"))) {
            o.remove("physicalPlanDescription");
          }
          items.add(o);
        }
        return page(items, "sparkApplicationSqlQueries", q);
      }
      case "accessSqlPlan": {
        long id = Long.parseLong(q.getOrDefault("executionId", "0"));
        Optional<ExecutionData> x = app.sqlExecution(id);
        if (x.isEmpty()) {
          throw new NotFound("SQL execution " + id + " not found");
        }
        return F.objectNode().set("sparkPlanGraph", DataprocShapes.execution(x.get(), Optional.empty())[1]).toString();
      }
      default:
        throw new NotFound("method " + method + " not served by the fake");
    }
  }

  /**
   * A stage attempt in Dataproc's shape, made once per served application and kept, as a server
   * reads stored data: the benchmark times the client, not the fake's conversion of a replay.
   */
  private ObjectNode shapedStage(SparkApplication app, StageData s, boolean mask) {
    Map<String, ObjectNode> cache;
    synchronized (shaped) {
      cache = shaped.computeIfAbsent(app, a -> new ConcurrentHashMap<>());
    }
    return cache.computeIfAbsent(s.stageId() + "." + s.attemptId() + "." + mask,
        k -> DataprocShapes.stage(s, mask ? quantiles(app, s) : Optional.empty(), false));
  }

  /**
   * The stage ids of a {@code searchStages} filter (repeated {@code stageIds}, joined by the query
   * parser), empty for none; only a session's search takes them.
   */
  private java.util.Set<Integer> stageIds(String parent, Map<String, String> q) {
    String ids = q.getOrDefault("stageIds", "");
    if (ids.isEmpty()) {
      return java.util.Set.of();
    }
    if (!parent.contains("/sessions/") || stageIdsFilter == StageIdsFilter.REJECTED) {
      throw new BadRequest("Invalid JSON payload received. Unknown name \"stageIds\": Cannot bind query parameter. "
          + "Field 'stageIds' could not be found in request message.");
    }
    if (stageIdsFilter == StageIdsFilter.IGNORED) {
      return java.util.Set.of();
    }
    java.util.Set<Integer> out = new java.util.HashSet<>();
    for (String id : ids.split(",")) {
      out.add(Integer.parseInt(id));
    }
    return out;
  }

  private Optional<String> errorOf(String parent, long id) {
    return Optional.ofNullable(sqlErrors.getOrDefault(parent, Map.of()).get(id));
  }

  private static Optional<TaskMetricDistributions> quantiles(SparkApplication app, StageData s) {
    return app.taskSummary(s.stageId(), s.attemptId(), StageQuery.DEFAULT_QUANTILES);
  }

  private static ObjectNode consolidated(List<ExecutorSummary> es) {
    ObjectNode o = F.objectNode();
    DataprocShapes.i32(o, "count", es.size());
    DataprocShapes.i32(o, "totalCores", es.stream().mapToLong(ExecutorSummary::totalCores).sum());
    DataprocShapes.i32(o, "totalTasks", es.stream().mapToLong(ExecutorSummary::totalTasks).sum());
    DataprocShapes.i32(o, "completedTasks", es.stream().mapToLong(ExecutorSummary::completedTasks).sum());
    DataprocShapes.i32(o, "failedTasks", es.stream().mapToLong(ExecutorSummary::failedTasks).sum());
    DataprocShapes.i64(o, "totalDurationMillis", es.stream().mapToLong(ExecutorSummary::totalDuration).sum());
    DataprocShapes.i64(o, "totalGcTimeMillis", es.stream().mapToLong(ExecutorSummary::totalGCTime).sum());
    DataprocShapes.i64(o, "totalInputBytes", es.stream().mapToLong(ExecutorSummary::totalInputBytes).sum());
    DataprocShapes.i64(o, "totalShuffleRead", es.stream().mapToLong(ExecutorSummary::totalShuffleRead).sum());
    DataprocShapes.i64(o, "totalShuffleWrite", es.stream().mapToLong(ExecutorSummary::totalShuffleWrite).sum());
    DataprocShapes.i64(o, "memoryUsed", es.stream().mapToLong(ExecutorSummary::memoryUsed).sum());
    DataprocShapes.i64(o, "maxMemory", es.stream().mapToLong(ExecutorSummary::maxMemory).sum());
    return o;
  }

  /**
   * One page of {@code items} for the request's pageSize and pageToken (an offset, opaque to the
   * client), each item shaped only when it is on the page.
   */
  private static <T> String page(List<T> items, java.util.function.Function<T, ObjectNode> shape, String key,
      Map<String, String> q) {
    int size = Integer.parseInt(q.getOrDefault("pageSize", "10"));
    if (size < 1 || size > 100) {
      throw new BadRequest("Page size must be in range (0, 100]");
    }
    int from = q.containsKey("pageToken") ? Integer.parseInt(new String(java.util.Base64.getDecoder()
        .decode(q.get("pageToken")), StandardCharsets.UTF_8)) : 0;
    int to = Math.min(items.size(), from + size);
    List<ObjectNode> shaped = new ArrayList<>();
    for (T t : items.subList(Math.min(from, items.size()), to)) {
      shaped.add(shape.apply(t));
    }
    ObjectNode o = F.objectNode();
    ArrayNode a = o.putArray(key);
    shaped.forEach(a::add);
    if (to < items.size()) {
      o.put("nextPageToken", java.util.Base64.getEncoder().encodeToString(Integer.toString(to).getBytes(StandardCharsets.UTF_8)));
    }
    return o.toString();
  }

  /** One page of {@code items} for the request's pageSize and pageToken (an offset, opaque to the client). */
  private static String page(List<ObjectNode> items, String key, Map<String, String> q) {
    return page(items, x -> x, key, q);
  }

  private static String internal(String cause) {
    throw new Internal(cause);
  }

  private static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound(String m) {
      super(m);
    }
  }

  private static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRequest(String m) {
      super(m);
    }
  }

  private static final class Internal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Internal(String m) {
      super(m);
    }
  }

  private static String error(int code, String message) {
    ObjectNode o = F.objectNode();
    ObjectNode e = o.putObject("error");
    e.put("code", code);
    e.put("message", message);
    return o.toString();
  }

  private void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    leave(ex); // before the answer goes out: the client may send its next request as soon as it has it
    ex.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> m = new LinkedHashMap<>();
    if (raw == null) {
      return m;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      // A repeated parameter (stageIds=1&stageIds=2) keeps every value, joined by commas.
      m.merge(decode(eq < 0 ? kv : kv.substring(0, eq)), eq < 0 ? "" : decode(kv.substring(eq + 1)), (a, b) -> a + "," + b);
    }
    return m;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
