package io.sparkrca.core.api;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ApplicationStatus;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Answers Spark History Server REST paths ({@code /api/v1/...}) from any {@link SparkHistory}, with
 * the History Server's parameters, defaults, orderings and error statuses. The same router backs
 * {@code sparkrca api}, a serve mode and conformance tests.
 *
 * <pre>{@code
 * RestRouter router = RestRouter.over(EventLogs.reader().build().history("/tmp/spark-events"));
 * ApiResponse r = router.get("applications/app-1/stages/2/0/taskSummary?quantiles=0.5,0.99");
 * if (r.ok()) System.out.println(r.body());
 * }</pre>
 */
public final class RestRouter {
  private static final Set<String> APP_RESOURCES =
      Set.of(
          "jobs", "executors", "allexecutors", "allmiscellaneousprocess", "stages", "storage",
          "environment", "sql", "logs", "threads");

  private final SparkHistory history;

  private RestRouter(SparkHistory history) {
    this.history = history;
  }

  public static RestRouter over(SparkHistory history) {
    return new RestRouter(history);
  }

  /**
   * Answers one request. {@code pathAndQuery} is relative to {@code /api/v1/} (a leading {@code
   * /api/v1/} is accepted too), e.g. {@code applications?status=completed}.
   */
  public ApiResponse get(String pathAndQuery) {
    try {
      return route(pathAndQuery);
    } catch (BadParameter e) {
      return ApiResponse.error(400, e.getMessage());
    } catch (NotFound e) {
      return ApiResponse.error(404, e.getMessage());
    }
  }

  private ApiResponse route(String pathAndQuery) {
    String path = pathAndQuery;
    String query = "";
    int q = path.indexOf('?');
    if (q >= 0) {
      query = path.substring(q + 1);
      path = path.substring(0, q);
    }
    if (path.startsWith("/")) {
      path = path.substring(1);
    }
    if (path.startsWith("api/v1/")) {
      path = path.substring("api/v1/".length());
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    Params params = Params.parse(query);
    List<String> seg = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        seg.add(decode(s, "the path"));
      }
    }
    if (seg.isEmpty() || !seg.get(0).equals("applications")) {
      if (seg.size() == 1 && seg.get(0).equals("version")) {
        return ApiResponse.json(Map.of("spark", "sparkrca"));
      }
      throw new NotFound("unknown path: /api/v1/" + path);
    }
    if (seg.size() == 1) {
      return ApiResponse.json(applicationList(params));
    }
    String appId = seg.get(1);
    if (seg.size() == 2) {
      for (ApplicationInfo app : history.applications()) {
        if (app.id().equals(appId)) {
          return ApiResponse.json(app);
        }
      }
      throw new NotFound("unknown app: " + appId);
    }
    int next = 2;
    Optional<String> attemptId = Optional.empty();
    if (!APP_RESOURCES.contains(seg.get(2))) {
      attemptId = Optional.of(seg.get(2));
      next = 3;
      if (seg.size() == 3) {
        return ApiResponse.json(attempt(appId, attemptId.get()));
      }
    }
    Optional<? extends SparkApplication> found = history.application(appId, attemptId);
    if (found.isEmpty()) {
      throw new NotFound(
          "no such app: " + appId + attemptId.map(a -> " (attempt " + a + ")").orElse(""));
    }
    return ApiResponse.json(appResource(found.get(), seg.subList(next, seg.size()), params));
  }

  private ApplicationAttemptInfo attempt(String appId, String attemptId) {
    for (ApplicationInfo app : history.applications()) {
      if (app.id().equals(appId)) {
        for (ApplicationAttemptInfo a : app.attempts()) {
          if (a.attemptId().isPresent() && a.attemptId().get().equals(attemptId)) {
            return a;
          }
        }
      }
    }
    throw new NotFound("unknown app " + appId + ", attempt " + attemptId);
  }

  private List<ApplicationInfo> applicationList(Params p) {
    Set<ApplicationStatus> statuses = p.enums("status", ApplicationStatus.class);
    long minDate = p.date("minDate", "2010-01-01");
    long maxDate = p.date("maxDate", "3000-01-01");
    long minEndDate = p.date("minEndDate", "2010-01-01");
    long maxEndDate = p.date("maxEndDate", "3000-01-01");
    int limit = p.integer("limit", Integer.MAX_VALUE);
    boolean includeCompleted = statuses.isEmpty() || statuses.contains(ApplicationStatus.COMPLETED);
    boolean includeRunning = statuses.isEmpty() || statuses.contains(ApplicationStatus.RUNNING);
    long now = System.currentTimeMillis();
    List<ApplicationInfo> out = new ArrayList<>();
    for (ApplicationInfo app : history.applications()) {
      if (out.size() >= limit) {
        break;
      }
      boolean anyRunning = app.attempts().isEmpty() || !app.attempts().get(0).completed();
      if (!((anyRunning && includeRunning) || (!anyRunning && includeCompleted))) {
        continue;
      }
      boolean inRange = false;
      for (ApplicationAttemptInfo a : app.attempts()) {
        long start = a.startTimeEpoch();
        long end = a.endTimeEpoch();
        boolean startOk = start >= minDate && start <= maxDate;
        boolean endOk =
            (anyRunning && maxEndDate > now) || (!anyRunning && end >= minEndDate && end <= maxEndDate);
        inRange |= startOk && endOk;
      }
      if (inRange) {
        out.add(app);
      }
    }
    return out;
  }

  private Object appResource(SparkApplication app, List<String> seg, Params p) {
    String resource = seg.get(0);
    switch (resource) {
      case "jobs":
        if (seg.size() == 1) {
          return app.jobs(p.enums("status", JobExecutionStatus.class));
        }
        int jobId = p.pathInt(seg.get(1), "job id");
        return app.job(jobId).orElseThrow(() -> new NotFound("unknown job: " + jobId));
      case "executors":
        return app.executors(true);
      case "allexecutors":
        return app.executors(false);
      case "allmiscellaneousprocess":
        return app.miscellaneousProcesses(false);
      case "environment":
        return app.environment()
            .orElseThrow(() -> new NotFound("no environment: the log has no environment update event"));
      case "storage":
        if (seg.size() < 2 || !seg.get(1).equals("rdd")) {
          throw new NotFound("unknown path: storage/" + String.join("/", seg.subList(1, seg.size())));
        }
        if (seg.size() == 2) {
          return app.rdds();
        }
        int rddId = p.pathInt(seg.get(2), "rdd id");
        return app.rdd(rddId).orElseThrow(() -> new NotFound("no rdd found w/ id " + rddId));
      case "sql":
        return sql(app, seg, p);
      case "stages":
        return stages(app, seg, p);
      default:
        throw new NotFound("unsupported resource: " + resource);
    }
  }

  private Object sql(SparkApplication app, List<String> seg, Params p) {
    boolean details = p.bool("details", true);
    boolean planDescription = p.bool("planDescription", true);
    if (seg.size() == 1) {
      int offset = p.integer("offset", 0);
      int length = p.integer("length", 20);
      List<ExecutionData> all = app.sqlExecutions();
      List<ExecutionData> out = new ArrayList<>();
      for (int i = offset; i < all.size() && out.size() < length; i++) {
        out.add(trimSql(all.get(i), details, planDescription));
      }
      return out;
    }
    long id = p.pathInt(seg.get(1), "execution id");
    return app.sqlExecution(id)
        .map(e -> trimSql(e, details, planDescription))
        .orElseThrow(() -> new NotFound("unknown query execution id: " + id));
  }

  private static ExecutionData trimSql(ExecutionData e, boolean details, boolean planDescription) {
    return new ExecutionData(
        e.id(), e.status(), e.description(), planDescription ? e.planDescription() : "",
        e.submissionTime(), e.duration(), e.runningJobIds(), e.successJobIds(), e.failedJobIds(),
        details ? e.nodes() : List.of(), details ? e.edges() : List.of());
  }

  private Object stages(SparkApplication app, List<String> seg, Params p) {
    List<Double> quantiles = p.quantiles("quantiles", "0.0,0.25,0.5,0.75,1.0");
    Set<TaskStatus> taskStatus = p.enums("taskStatus", TaskStatus.class);
    boolean withSummaries = p.bool("withSummaries", false);
    if (seg.size() == 1) {
      boolean details = p.bool("details", false);
      StageQuery q = query(p.enums("status", StageStatus.class), details, taskStatus, withSummaries, quantiles);
      List<StageData> out = new ArrayList<>();
      for (StageData s : app.stages(q)) {
        if (details && !taskStatus.isEmpty() && !hasTasksIn(s, taskStatus)) {
          continue;
        }
        out.add(s);
      }
      return out;
    }
    int stageId = p.pathInt(seg.get(1), "stage id");
    boolean details = p.bool("details", true);
    StageQuery q = query(Set.of(), details, taskStatus, withSummaries, quantiles);
    if (seg.size() == 2) {
      List<StageData> attempts = app.stageAttempts(stageId, q);
      if (attempts.isEmpty()) {
        throw new NotFound("unknown stage: " + stageId);
      }
      return attempts;
    }
    int attemptId = p.pathInt(seg.get(2), "stage attempt id");
    if (seg.size() == 3) {
      return app.stageAttempt(stageId, attemptId, q)
          .orElseThrow(() -> unknownAttempt(app, stageId));
    }
    if (app.stageAttempt(stageId, attemptId, StageQuery.all()).isEmpty()) {
      throw unknownAttempt(app, stageId);
    }
    switch (seg.get(3)) {
      case "taskSummary":
        List<Double> qs = p.quantiles("quantiles", "0.05,0.25,0.5,0.75,0.95");
        return app.taskSummary(stageId, attemptId, qs)
            .orElseThrow(
                () -> new NotFound("No tasks reported metrics for " + stageId + " / " + attemptId + " yet."));
      case "taskList":
        TaskSorting sort =
            TaskSorting.parse(p.first("sortBy", "ID"))
                .orElseThrow(() -> new BadParameter("sortBy", "ID, runtime or -runtime", p.first("sortBy", "")));
        TaskQuery tq =
            new TaskQuery(p.integer("offset", 0), p.integer("length", 20), sort, p.enums("status", TaskStatus.class));
        return app.tasks(stageId, attemptId, tq);
      default:
        throw new NotFound("unknown stage resource: " + seg.get(3));
    }
  }

  private static NotFound unknownAttempt(SparkApplication app, int stageId) {
    List<StageData> all = app.stageAttempts(stageId, StageQuery.all());
    if (all.isEmpty()) {
      return new NotFound("unknown stage: " + stageId);
    }
    StringBuilder ids = new StringBuilder();
    for (StageData s : all) {
      ids.append(ids.length() == 0 ? "" : ",").append(s.attemptId());
    }
    return new NotFound("unknown attempt for stage " + stageId + ".  Found attempts: [" + ids + "]");
  }

  private static boolean hasTasksIn(StageData s, Set<TaskStatus> statuses) {
    for (TaskStatus t : statuses) {
      switch (t) {
        case FAILED:
          if (s.numFailedTasks() > 0) {
            return true;
          }
          break;
        case KILLED:
          if (s.numKilledTasks() > 0) {
            return true;
          }
          break;
        case RUNNING:
          if (s.numActiveTasks() > 0) {
            return true;
          }
          break;
        case SUCCESS:
          if (s.numCompleteTasks() > 0) {
            return true;
          }
          break;
        default:
          if (s.numTasks() - s.numFailedTasks() - s.numKilledTasks() - s.numActiveTasks() - s.numCompleteTasks() > 0) {
            return true;
          }
      }
    }
    return false;
  }

  private static StageQuery query(
      Set<StageStatus> statuses, boolean details, Set<TaskStatus> taskStatus, boolean summaries, List<Double> quantiles) {
    return new StageQuery(statuses, details, taskStatus, summaries, quantiles);
  }

  /** Parsed query parameters, multi-valued as in JAX-RS. */
  private static final class Params {
    private final Map<String, List<String>> values;

    private Params(Map<String, List<String>> values) {
      this.values = values;
    }

    static Params parse(String query) {
      Map<String, List<String>> m = new LinkedHashMap<>();
      if (!query.isEmpty()) {
        for (String pair : query.split("&")) {
          if (pair.isEmpty()) {
            continue;
          }
          int eq = pair.indexOf('=');
          String k = decode(eq < 0 ? pair : pair.substring(0, eq), "the query");
          String v = eq < 0 ? "" : decode(pair.substring(eq + 1), "the query");
          m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
      }
      return new Params(m);
    }

    String first(String name, String dflt) {
      List<String> v = values.get(name);
      return v == null || v.isEmpty() ? dflt : v.get(0);
    }

    boolean bool(String name, boolean dflt) {
      String v = first(name, null);
      if (v == null) {
        return dflt;
      }
      if (v.equalsIgnoreCase("true")) {
        return true;
      }
      if (v.equalsIgnoreCase("false")) {
        return false;
      }
      throw new BadParameter(name, "boolean", v);
    }

    int integer(String name, int dflt) {
      String v = first(name, null);
      if (v == null) {
        return dflt;
      }
      try {
        int i = Integer.parseInt(v.trim());
        if (i < 0) {
          throw new BadParameter(name, "non-negative integer", v);
        }
        return i;
      } catch (NumberFormatException e) {
        throw new BadParameter(name, "integer", v);
      }
    }

    int pathInt(String segment, String what) {
      try {
        return Integer.parseInt(segment);
      } catch (NumberFormatException e) {
        throw new NotFound("not a " + what + ": " + segment);
      }
    }

    long date(String name, String dflt) {
      String v = first(name, dflt);
      try {
        return SparkJson.parseDate(v).toEpochMilli();
      } catch (InvalidRequestException e) {
        throw new BadParameter("Couldn't parse date: " + v);
      }
    }

    List<Double> quantiles(String name, String dflt) {
      List<Double> out = new ArrayList<>();
      for (String s : first(name, dflt).split(",")) {
        try {
          double d = Double.parseDouble(s.trim());
          if (d < 0 || d > 1 || Double.isNaN(d)) {
            throw new BadParameter(name, "quantile between 0 and 1", s);
          }
          out.add(d);
        } catch (NumberFormatException e) {
          throw new BadParameter(name, "double", s);
        }
      }
      return out;
    }

    <E extends Enum<E>> Set<E> enums(String name, Class<E> type) {
      List<String> v = values.get(name);
      Set<E> out = EnumSet.noneOf(type);
      if (v == null) {
        return out;
      }
      for (String s : v) {
        try {
          out.add(Enum.valueOf(type, s.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
          throw new BadParameter(name, "one of " + EnumSet.allOf(type), s);
        }
      }
      return out;
    }
  }

  /** Percent-decodes a path segment or query part; malformed escapes answer 400. */
  private static String decode(String s, String where) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new BadParameter(
          "Malformed percent-encoding in " + where + ": \"" + s + "\"; write '%' as %25");
    }
  }

  private static final class BadParameter extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadParameter(String message) {
      super(message, null, false, false);
    }

    BadParameter(String param, String expected, String actual) {
      this("Bad value for parameter \"" + param + "\".  Expected a " + expected + ", got \"" + actual + "\"");
    }
  }

  private static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound(String message) {
      super(message, null, false, false);
    }
  }
}
