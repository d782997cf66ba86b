package io.sparkrca.historyserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The bounded REST snapshots of the Python History Server client ({@code spark_history_api.py}),
 * with the same JSON keys, over any application (a History Server, a driver UI, an event log):
 * {@code failure} (failed jobs, the earliest failed stages with their task summary and failed
 * tasks, executors, sanitised environment, SQL executions), {@code slow} (jobs, the longest
 * stages with their slowest tasks), {@code sql} (one execution with its plan), {@code sql-list}
 * and {@code applications}. Every request is the one that client sends, answered through the REST
 * router. Unlike that client: "earliest" and "longest" compare times, not strings (a stage without
 * them sorts last); a per-stage request that fails is a {@code collectionError} of that stage and
 * the rest is kept; the limits are checked.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("http://shs:18080/api/v1/applications/app-1");
 * System.out.println(HistoryProfiles.failure(app, HistoryProfiles.Limits.defaults()).toJson());
 * }</pre>
 */
public final class HistoryProfiles {
  /** The quantiles of every task summary in a profile. */
  public static final String QUANTILES = "0.0,0.5,0.95,0.99,1.0";
  private static final String LIMITATION =
      "Driver logs and cluster-manager termination details are not part of this REST snapshot.";
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private HistoryProfiles() {}

  /**
   * How much a profile reads.
   *
   * @param stages stages with per-stage evidence, 1 to 50 (default 8)
   * @param tasks tasks per stage, 1 to 200 (default 20)
   */
  public record Limits(int stages, int tasks) {
    public Limits {
      if (stages < 1 || stages > 50 || tasks < 1 || tasks > 200) {
        throw new InvalidRequestException("limits out of range: stages 1-50 (got " + stages + "), tasks 1-200 (got " + tasks + ")");
      }
    }

    /** 8 stages, 20 tasks each, as spark_history_api.py. */
    public static Limits defaults() {
      return new Limits(8, 20);
    }
  }

  /**
   * Application {@code id} (attempt {@code attempt}, else the latest) of {@code history}: over a
   * History Server, read through its REST API; over event logs, the one replayed.
   *
   * @throws InputNotFoundException when the history has no such application
   */
  public static SparkApplication application(SparkHistory history, String id, Optional<String> attempt) {
    if (history instanceof HistoryServerHistory h) {
      return h.application(HistoryServerUri.of(h.server().root(), id, attempt));
    }
    return history.application(id, attempt).orElseThrow(() -> new InputNotFoundException(
        "application " + id + attempt.map(a -> " attempt " + a).orElse(""), "no such application among the event logs read"));
  }

  /** The applications a history lists ({@code status}: completed or running), at most {@code limit} (1 to 1000). */
  public static Profile applications(SparkHistory history, Optional<String> status, int limit) {
    if (limit < 1 || limit > 1000) {
      throw new InvalidRequestException("the application limit must be between 1 and 1000, not " + limit);
    }
    status.ifPresent(s -> {
      if (!Set.of("completed", "running").contains(s.toLowerCase(Locale.ROOT))) {
        throw new InvalidRequestException("the status must be completed or running, not '" + s + "'");
      }
    });
    RestRouter r = RestRouter.over(history);
    String q = "applications?limit=" + limit + status.map(s -> "&status=" + s.toLowerCase(Locale.ROOT)).orElse("");
    return new Profile("applications", get(r, q));
  }

  /** The SQL executions of an application, without plans, at most {@code limit} (1 to 1000). */
  public static Profile sqlList(SparkApplication app, int limit) {
    if (limit < 1 || limit > 1000) {
      throw new InvalidRequestException("the SQL execution limit must be between 1 and 1000, not " + limit);
    }
    Ctx c = new Ctx(app);
    return new Profile("sql-list", c.getOr(c.app + "/sql?details=false&planDescription=false&offset=0&length=" + limit, F.arrayNode()));
  }

  /** Why an application failed: failed jobs, the earliest failed stages with their evidence. */
  public static Profile failure(SparkApplication app, Limits limits) {
    Ctx c = new Ctx(app);
    ObjectNode out = F.objectNode();
    out.put("profile", "failure");
    out.put("applicationId", app.info().id());
    out.set("failedJobs", c.get(c.app + "/jobs?status=failed"));
    List<JsonNode> failed = earliest(c.get(c.app + "/stages?status=failed"), limits.stages());
    out.set("failedStages", c.stageEvidence(failed, limits.tasks(), true));
    out.set("allExecutors", c.get(c.app + "/allexecutors"));
    out.set("environment", c.environment());
    out.set("sqlExecutions", c.getOr(c.app + "/sql?details=false&planDescription=false&offset=0&length=100", F.arrayNode()));
    out.set("limitations", c.limitations());
    return new Profile("failure", out);
  }

  /** Why an application was slow: jobs and the longest stages with their slowest tasks. */
  public static Profile slow(SparkApplication app, Limits limits) {
    Ctx c = new Ctx(app);
    ObjectNode out = F.objectNode();
    out.put("profile", "slow");
    out.put("applicationId", app.info().id());
    out.set("jobs", c.get(c.app + "/jobs"));
    out.set("longestStages", c.stageEvidence(
        longest(c.get(c.app + "/stages?withSummaries=true&quantiles=" + QUANTILES), limits.stages()), limits.tasks(), false));
    out.set("allExecutors", c.get(c.app + "/allexecutors"));
    out.set("environment", c.environment());
    out.set("sqlExecutions", c.getOr(c.app + "/sql?details=false&planDescription=false&offset=0&length=100", F.arrayNode()));
    out.set("limitations", c.limitations());
    return new Profile("slow", out);
  }

  /** One SQL execution with its plan and metrics, the jobs and the longest stages. */
  public static Profile sql(SparkApplication app, long executionId, Limits limits) {
    Ctx c = new Ctx(app);
    ObjectNode out = F.objectNode();
    out.put("profile", "sql");
    out.put("applicationId", app.info().id());
    out.put("executionId", executionId);
    out.set("sqlExecution", c.get(c.app + "/sql/" + executionId + "?details=true&planDescription=true"));
    out.set("jobs", c.get(c.app + "/jobs"));
    out.set("longestStages", c.stageEvidence(
        longest(c.get(c.app + "/stages?withSummaries=true&quantiles=" + QUANTILES), limits.stages()), limits.tasks(), false));
    out.set("environment", c.environment());
    out.set("limitations", c.limitations());
    return new Profile("sql", out);
  }

  /** Ascending by submission time; a stage without one last. */
  static List<JsonNode> earliest(JsonNode stages, int limit) {
    List<JsonNode> all = new ArrayList<>();
    stages.forEach(all::add);
    all.sort(Comparator.comparingLong((JsonNode s) -> time(s, "submissionTime").orElse(Long.MAX_VALUE))
        .thenComparingInt(s -> s.path("stageId").asInt()));
    return all.subList(0, Math.min(limit, all.size()));
  }

  /** Descending by wall time (submission to completion); a stage without both times last. */
  static List<JsonNode> longest(JsonNode stages, int limit) {
    List<JsonNode> all = new ArrayList<>();
    stages.forEach(all::add);
    all.sort(Comparator.comparingLong((JsonNode s) -> -wall(s).orElse(-1L)).thenComparingInt(s -> s.path("stageId").asInt()));
    return all.subList(0, Math.min(limit, all.size()));
  }

  static Optional<Long> wall(JsonNode s) {
    Optional<Long> a = time(s, "submissionTime");
    Optional<Long> b = time(s, "completionTime");
    return a.isPresent() && b.isPresent() ? Optional.of(Math.max(0, b.get() - a.get())) : Optional.empty();
  }

  private static Optional<Long> time(JsonNode s, String field) {
    JsonNode v = s.get(field);
    if (v == null || !v.isTextual()) {
      return Optional.empty();
    }
    try {
      Instant t = SparkJson.parseDate(v.asText());
      return Optional.of(t.toEpochMilli());
    } catch (InvalidRequestException e) {
      return Optional.empty();
    }
  }

  private static JsonNode get(RestRouter r, String path) {
    ApiResponse a = r.get(path);
    if (a.status() == 404) {
      throw new InputNotFoundException(path, a.body());
    }
    if (!a.ok()) {
      throw new InvalidRequestException(path + ": HTTP " + a.status() + ": " + a.body());
    }
    try {
      return SparkJson.mapper().readTree(a.body());
    } catch (IOException e) {
      throw new SparkRcaException(path + ": unreadable JSON (" + e.getMessage() + ")", e);
    }
  }

  /** One application's router and what went wrong while reading it. */
  private static final class Ctx {
    final RestRouter router;
    final String app;
    final SparkApplication application;
    final List<String> errors = new ArrayList<>();

    Ctx(SparkApplication a) {
      this.application = a;
      this.router = RestRouter.over(new OneApplication(a));
      this.app = "applications/" + a.info().id() + a.attemptId().map(x -> "/" + x).orElse("");
    }

    JsonNode get(String path) {
      return HistoryProfiles.get(router, path);
    }

    JsonNode getOr(String path, JsonNode orElse) {
      ApiResponse a = router.get(path);
      return a.status() == 404 ? orElse : HistoryProfiles.get(router, path);
    }

    ArrayNode stageEvidence(List<JsonNode> stages, int taskLimit, boolean failedOnly) {
      ObjectNode[] items = new ObjectNode[stages.size()];
      List<Runnable> work = new ArrayList<>();
      for (int i = 0; i < stages.size(); i++) {
        JsonNode s = stages.get(i);
        if (!s.has("stageId")) {
          continue;
        }
        int idx = i;
        work.add(() -> items[idx] = evidence(s, taskLimit, failedOnly));
      }
      int threads = application instanceof HistoryServerApplication h ? h.concurrency() : 1;
      HistoryServerApplication.runAll(work, threads);
      ArrayNode out = F.arrayNode();
      for (ObjectNode o : items) {
        if (o != null) {
          out.add(o);
        }
      }
      return out;
    }

    private ObjectNode evidence(JsonNode s, int taskLimit, boolean failedOnly) {
      ObjectNode item = F.objectNode();
      item.set("stage", s);
      String base = app + "/stages/" + s.path("stageId").asInt() + "/" + s.path("attemptId").asInt(0);
      try {
        item.set("taskSummary", get(base + "/taskSummary?quantiles=" + QUANTILES));
        item.set("tasks", get(base + "/taskList?offset=0&length=" + taskLimit + (failedOnly ? "&status=failed" : "&sortBy=-runtime")));
      } catch (SparkRcaException e) {
        String msg = Redactor.standard().redactText(e.getMessage());
        item.put("collectionError", msg);
        synchronized (errors) {
          errors.add("stage " + s.path("stageId").asInt() + ": " + msg);
        }
      }
      return item;
    }

    JsonNode environment() {
      ApiResponse a = router.get(app + "/environment");
      if (!a.ok()) {
        ObjectNode none = F.objectNode();
        none.put("available", false);
        return none;
      }
      JsonNode env = get(app + "/environment");
      ObjectNode out = F.objectNode();
      out.set("runtime", env.path("runtime"));
      ArrayNode props = F.arrayNode();
      for (JsonNode p : env.path("sparkProperties")) {
        if (p.isArray() && p.size() == 2) {
          String k = p.get(0).asText();
          ArrayNode pair = F.arrayNode();
          pair.add(k);
          pair.add(Redactor.standard().redactProperty(k, p.get(1).asText()));
          props.add(pair);
        }
      }
      out.set("sparkProperties", props);
      ObjectNode sys = F.objectNode();
      for (JsonNode p : env.path("systemProperties")) {
        if (p.isArray() && p.size() == 2
            && Set.of("java.version", "java.vendor", "os.name", "os.version", "os.arch").contains(p.get(0).asText())) {
          sys.put(p.get(0).asText(), p.get(1).asText());
        }
      }
      out.set("systemProperties", sys);
      return out;
    }

    ArrayNode limitations() {
      ArrayNode l = F.arrayNode();
      l.add(LIMITATION);
      if (application instanceof HistoryServerApplication h) {
        h.gaps().forEach(l::add);
      }
      synchronized (errors) {
        if (!errors.isEmpty()) {
          l.add(errors.size() + " stage(s) without their task summary or tasks: see their collectionError");
        }
      }
      return l;
    }
  }

  /** A history holding one application, for the router. */
  private record OneApplication(SparkApplication app) implements SparkHistory {
    @Override
    public List<ApplicationInfo> applications() {
      return List.of(app.info());
    }

    @Override
    public Optional<? extends SparkApplication> application(String appId, Optional<String> attemptId) {
      return appId.equals(app.info().id()) && attemptId.equals(app.attemptId()) ? Optional.of(app) : Optional.empty();
    }
  }
}
