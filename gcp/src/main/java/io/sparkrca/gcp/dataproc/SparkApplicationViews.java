package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Markdown;
import io.sparkrca.core.report.Report;
import io.sparkrca.gcp.GcpSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The Dataproc console's views of a Serverless workload's Spark application, straight from the
 * {@code sparkApplications} API (as spark_applications.py's actions): {@code applications}, {@code
 * summary}, {@code stages}, {@code stage}, {@code tasks}, {@code executors}, {@code jobs}, {@code
 * sql} and {@code environment}. Each is a {@link Report}: Markdown for people, the API's JSON
 * payload for machines. Secrets in properties and error texts are redacted in both.
 *
 * <pre>{@code
 * SparkApplicationsClient api = SparkApplicationsClient.create(settings, "us-central1");
 * Report r = SparkApplicationViews.of(api, workload).render(SparkApplicationViews.Request.builder("stages").limit(20).build());
 * System.out.println(r.toMarkdown());
 * }</pre>
 */
public final class SparkApplicationViews {
  /** The actions, in the order the help lists them. */
  public static final List<String> ACTIONS =
      List.of("applications", "summary", "insights", "stages", "stage", "tasks", "executors", "jobs", "sql",
          "environment");

  /** GC time above this share of an executor's or stage's run time is flagged (where the Spark UI turns red). */
  public static final double GC_SHARE = 0.10;
  /** Shuffle write time above this share of a stage's run time is flagged. */
  public static final double SHUFFLE_WRITE_SHARE = 0.20;
  /** A stage writing more than this many times the bytes (or records) it reads is flagged. */
  public static final double WRITE_AMPLIFICATION = 2.0;

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String NO_STAGE = "> No stage ever ran. The application most likely failed before its first "
      + "Spark action (argument parsing, imports, reading configuration); the root cause is in the driver log, not in "
      + "the Spark application data.";

  private final SparkApplicationsClient api;
  private final DataprocWorkload workload;

  private SparkApplicationViews(SparkApplicationsClient api, DataprocWorkload workload) {
    this.api = Objects.requireNonNull(api, "api");
    this.workload = Objects.requireNonNull(workload, "workload");
    if (workload.type() == DataprocWorkload.Type.JOB) {
      throw new InvalidRequestException("sparkApplications serves Serverless batches and sessions only, not "
          + workload.describe() + "; read a cluster job's event log instead");
    }
  }

  public static SparkApplicationViews of(SparkApplicationsClient api, DataprocWorkload workload) {
    return new SparkApplicationViews(api, workload);
  }

  /** The views of {@code workload} (a {@code dataproc:} URI), read with {@code settings}. */
  public static SparkApplicationViews of(GcpSettings settings, String workload) {
    DataprocWorkload w = DataprocWorkload.parse(workload, settings);
    return new SparkApplicationViews(SparkApplicationsClient.create(settings, w.region()), w);
  }

  /**
   * What to show. Statuses are the short forms ({@code FAILED}); limits must be positive.
   *
   * @param action one of {@link #ACTIONS}
   * @param applicationId the application; empty for the workload's first
   * @param stageId the stage, required by {@code stage} and {@code tasks}
   * @param stageAttemptId the stage attempt
   * @param status a status filter for stages, tasks, jobs or executors
   * @param quantiles whether {@code stages}/{@code stage} ask for task quantiles
   * @param sort {@code none}, {@code duration} or {@code run_time} (stages and tasks, longest first)
   * @param grep a case-insensitive substring of property keys ({@code environment})
   * @param limit the most rows shown
   * @param maxFetch the most tasks scanned by {@code tasks}
   */
  public record Request(String action, Optional<String> applicationId, OptionalInt stageId, int stageAttemptId,
      Optional<String> status, boolean quantiles, String sort, Optional<String> grep, int limit, int maxFetch) {
    public Request {
      if (!ACTIONS.contains(action)) {
        throw new InvalidRequestException("unknown action '" + action + "': use one of " + String.join(", ", ACTIONS));
      }
      if (limit <= 0 || maxFetch <= 0) {
        throw new InvalidRequestException("the limit and the most tasks fetched must be positive (" + limit + ", "
            + maxFetch + ")");
      }
      if (!List.of("none", "duration", "run_time").contains(sort)) {
        throw new InvalidRequestException("unknown sort '" + sort + "': use none, duration or run_time");
      }
      if ((action.equals("stage") || action.equals("tasks")) && stageId.isEmpty()) {
        throw new InvalidRequestException("a stage id is required for the " + action + " view");
      }
    }

    public static Builder builder(String action) {
      return new Builder(action);
    }

    /** Builds a {@link Request}; defaults: first application, attempt 0, no filter, limit 50, 2,000 tasks. */
    public static final class Builder {
      private final String action;
      private Optional<String> applicationId = Optional.empty();
      private OptionalInt stageId = OptionalInt.empty();
      private int attempt;
      private Optional<String> status = Optional.empty();
      private boolean quantiles;
      private String sort = "none";
      private Optional<String> grep = Optional.empty();
      private int limit = 50;
      private int maxFetch = 2000;

      private Builder(String action) {
        this.action = Objects.requireNonNull(action, "action").toLowerCase(Locale.ROOT);
      }

      public Builder applicationId(String id) {
        this.applicationId = Optional.of(id);
        return this;
      }

      public Builder stage(int stageId, int attempt) {
        this.stageId = OptionalInt.of(stageId);
        this.attempt = attempt;
        return this;
      }

      public Builder status(String status) {
        this.status = Optional.of(status.toUpperCase(Locale.ROOT));
        return this;
      }

      public Builder quantiles(boolean q) {
        this.quantiles = q;
        return this;
      }

      public Builder sort(String sort) {
        this.sort = sort.toLowerCase(Locale.ROOT);
        return this;
      }

      public Builder grep(String grep) {
        this.grep = Optional.of(grep);
        return this;
      }

      public Builder limit(int limit) {
        this.limit = limit;
        return this;
      }

      public Builder maxFetch(int maxFetch) {
        this.maxFetch = maxFetch;
        return this;
      }

      public Request build() {
        return new Request(action, applicationId, stageId, attempt, status, quantiles, sort, grep, limit, maxFetch);
      }
    }
  }

  /** A rendered view: its Markdown and its JSON payload. */
  public record View(String markdown, JsonNode payload) implements Report {
    @Override
    public String toMarkdown() {
      return markdown;
    }

    @Override
    public String toJson() {
      return io.sparkrca.core.json.JsonText.indented(payload, "the view");
    }
  }

  /** Calls the API for {@code r} and renders the answer. */
  public View render(Request r) {
    String parent = workload.parent();
    List<JsonNode> apps = api.paginate(parent, Optional.empty(), "search", "sparkApplications", Map.of("pageSize", "10"), 100);
    if (r.action().equals("applications")) {
      return applications(apps);
    }
    if (apps.isEmpty()) {
      throw new io.sparkrca.core.error.InputNotFoundException("a Spark application of " + workload.describe(),
          "sparkApplications:search answered {\"sparkApplications\": []}: the workload may still be pending, or it "
              + "failed before the Spark driver started (read its stateMessage and driver log instead)");
    }
    JsonNode app = r.applicationId().flatMap(id -> apps.stream()
            .filter(a -> id.equals(a.path("application").path("applicationId").asText())).findFirst())
        .orElse(apps.get(0));
    String appId = app.path("application").path("applicationId").asText();
    if (r.applicationId().isPresent() && !r.applicationId().get().equals(appId)) {
      throw new io.sparkrca.core.error.InputNotFoundException("application " + r.applicationId().get() + " of "
          + workload.describe(), "its applications are " + String.join(", ", apps.stream()
              .map(a -> a.path("application").path("applicationId").asText()).toList()));
    }
    Optional<String> id = Optional.of(appId);
    return switch (r.action()) {
      case "summary" -> summary(id, app, apps.size(), r);
      case "insights" -> insights(id, r);
      case "stages" -> stages(id, r);
      case "stage" -> stage(id, r);
      case "tasks" -> tasks(id, r);
      case "executors" -> executors(id, r);
      case "jobs" -> jobs(id, r);
      case "sql" -> sql(id, r);
      default -> environment(id, r);
    };
  }

  private View applications(List<JsonNode> apps) {
    StringBuilder md = new StringBuilder("# Spark applications for `" + workload.parent() + "`\n\n");
    if (apps.isEmpty()) {
      md.append("No Spark application found. The workload may still be pending, or it failed before the Spark driver "
          + "started.\n");
    }
    for (JsonNode a : apps) {
      JsonNode app = a.path("application");
      md.append("- **").append(Markdown.text(app.path("applicationId").asText(app.path("name").asText()), 200))
          .append("** (").append(Markdown.code(app.path("name").asText(), 200)).append(")\n");
      for (JsonNode at : app.path("attempts")) {
        md.append("  - Spark ").append(at.path("appSparkVersion").asText("?")).append(", started ")
            .append(at.path("startTime").asText("?")).append(", duration ")
            .append(Formats.humanMillis(DataprocModel.num(at, "durationMillis"))).append(", completed: ")
            .append(at.path("completed").asBoolean(false) ? "True" : "False").append('\n');
      }
      md.append("  - Context ingestion: `").append(a.path("applicationContextIngestionStatus").asText(
              app.path("applicationContextIngestionStatus").asText("UNSPECIFIED")))
          .append("`, quantile data: `").append(a.path("quantileDataStatus").asText(
              app.path("quantileDataStatus").asText("UNSPECIFIED"))).append("`\n");
    }
    ArrayNode list = F.arrayNode();
    apps.forEach(list::add);
    return new View(md.toString(), list);
  }

  private View summary(Optional<String> id, JsonNode app, int apps, Request r) {
    String parent = workload.parent();
    JsonNode jobs = api.call(parent, id, "summarizeJobs", Map.of()).path("jobsSummary");
    JsonNode stages = api.call(parent, id, "summarizeStages", Map.of()).path("stagesSummary");
    JsonNode ex = api.call(parent, id, "summarizeExecutors", Map.of());
    long failed = DataprocModel.num(stages, "numFailedStages");
    List<JsonNode> failedStages = failed == 0 ? List.of() : api.paginate(parent, id, "searchStages",
        "sparkApplicationStages", Map.of("stageStatus", "STAGE_STATUS_FAILED"), r.limit());
    JsonNode total = ex.path("totalExecutorSummary");
    JsonNode dead = ex.path("deadExecutorSummary");
    JsonNode active = ex.path("activeExecutorSummary");
    ObjectNode health = F.objectNode();
    health.put("gcOverheadPercentage", pct(DataprocModel.num(total, "totalGcTimeMillis"),
        DataprocModel.num(total, "totalDurationMillis")));
    health.put("executorMortalityRate", pct(DataprocModel.num(dead, "count"), DataprocModel.num(total, "count")));
    health.put("memorySaturationPercentage", pct(DataprocModel.num(active, "memoryUsed"),
        DataprocModel.num(active, "maxMemory")));

    StringBuilder md = new StringBuilder("# Spark application summary: `" + id.get() + "`\n\n");
    if (apps > 1) {
      md.append("> ").append(apps).append(" applications found; showing the first. Pick another by its application id.\n\n");
    }
    String quantile = app.path("quantileDataStatus").asText(app.path("application").path("quantileDataStatus").asText(""));
    if (!quantile.isEmpty() && !quantile.equals("QUANTILE_DATA_STATUS_COMPLETED")) {
      md.append("> Quantile data status is `").append(quantile).append("`; task quantile metrics may be incomplete.\n\n");
    }
    md.append("## Jobs\n- Completed: ").append(DataprocModel.num(jobs, "completedJobs")).append(", failed: ")
        .append(DataprocModel.num(jobs, "failedJobs")).append(", active: ").append(DataprocModel.num(jobs, "activeJobs"))
        .append("\n\n## Stages\n- Completed: ").append(DataprocModel.num(stages, "numCompletedStages"))
        .append(", failed: ").append(failed).append(", active: ").append(DataprocModel.num(stages, "numActiveStages"))
        .append(", pending: ").append(DataprocModel.num(stages, "numPendingStages")).append(", skipped: ")
        .append(DataprocModel.num(stages, "numSkippedStages")).append("\n\n## Executors\n")
        .append("- Executors: ").append(DataprocModel.num(total, "count")).append(" total, ")
        .append(DataprocModel.num(dead, "count")).append(" dead; cores: ").append(DataprocModel.num(total, "totalCores"))
        .append("\n- Tasks: ").append(DataprocModel.num(total, "totalTasks")).append(" total, ")
        .append(DataprocModel.num(total, "completedTasks")).append(" completed, ")
        .append(DataprocModel.num(total, "failedTasks")).append(" failed, ")
        .append(DataprocModel.num(total, "activeTasks")).append(" active\n- Task time: ")
        .append(Formats.humanMillis(DataprocModel.num(total, "totalDurationMillis"))).append(", GC: ")
        .append(Formats.humanMillis(DataprocModel.num(total, "totalGcTimeMillis"))).append(" (")
        .append(health.get("gcOverheadPercentage").asDouble()).append("%)\n- Input: ")
        .append(Formats.humanBytes(DataprocModel.num(total, "totalInputBytes"))).append(", shuffle read: ")
        .append(Formats.humanBytes(DataprocModel.num(total, "totalShuffleRead"))).append(", shuffle write: ")
        .append(Formats.humanBytes(DataprocModel.num(total, "totalShuffleWrite"))).append("\n- Dead-executor share: ")
        .append(health.get("executorMortalityRate").asDouble()).append("%, storage memory used: ")
        .append(health.get("memorySaturationPercentage").asDouble()).append("%\n");
    if (!failedStages.isEmpty()) {
      md.append("\n## Failed stages (").append(failedStages.size()).append(")\n");
      for (JsonNode s : failedStages) {
        md.append("- **Stage ").append(DataprocModel.num(s, "stageId")).append('.')
            .append(DataprocModel.num(s, "stageAttemptId")).append("** ").append(Markdown.code(s.path("name").asText(), 80))
            .append(": ").append(DataprocModel.num(s, "numFailedTasks")).append('/').append(DataprocModel.num(s, "numTasks"))
            .append(" tasks failed\n");
        reason(s).ifPresent(f -> md.append("  - Failure reason: ").append(Markdown.code(f, 600)).append('\n'));
      }
    }
    if (DataprocModel.stageCount(stages) == 0) {
      md.append('\n').append(NO_STAGE).append('\n');
    }
    ObjectNode payload = F.objectNode();
    payload.put("applicationId", id.get());
    payload.set("application", app.path("application"));
    payload.set("jobs", jobs);
    payload.set("stages", stages);
    payload.set("executors", ex);
    payload.set("healthIndicators", health);
    ArrayNode fs = payload.putArray("failedStages");
    failedStages.forEach(fs::add);
    return new View(md.toString(), payload);
  }

  /**
   * Dataproc's metric insights, each with the threshold it crossed and the executor or stage it
   * points at: GC time / run time, disk spill, bytes and records written vs read, shuffle write time
   * / run time, and the application's stage progression (failed, still waiting).
   */
  private View insights(Optional<String> id, Request r) {
    String parent = workload.parent();
    JsonNode summary = api.call(parent, id, "summarizeStages", Map.of()).path("stagesSummary");
    List<JsonNode> executors = api.paginate(parent, id, "searchExecutors", "sparkApplicationExecutors", Map.of(), 10_000);
    List<JsonNode> stages = api.paginate(parent, id, "searchStages", "sparkApplicationStages", Map.of(), 20_000);
    ArrayNode found = F.arrayNode();
    for (JsonNode e : executors) {
      long run = DataprocModel.num(e, "totalDurationMillis");
      long gc = DataprocModel.num(e, "totalGcTimeMillis");
      if (run > 0 && gc > GC_SHARE * run) {
        insight(found, "executor " + e.path("executorId").asText(), "GC time / task time", (double) gc / run, GC_SHARE,
            Formats.humanMillis(gc) + " of " + Formats.humanMillis(run) + " in garbage collection: the heap is too small "
                + "for what the tasks hold (raise spark.executor.memory, or cache/collect less)");
      }
    }
    for (JsonNode s : stages) {
      JsonNode m = s.path("stageMetrics");
      String at = "stage " + DataprocModel.num(s, "stageId") + "." + DataprocModel.num(s, "stageAttemptId");
      long run = DataprocModel.num(m, "executorRunTimeMillis");
      long gc = DataprocModel.num(m, "jvmGcTimeMillis");
      if (run > 0 && gc > GC_SHARE * run) {
        insight(found, at, "GC time / run time", (double) gc / run, GC_SHARE,
            Formats.humanMillis(gc) + " of " + Formats.humanMillis(run) + " of its tasks' run time in GC");
      }
      long disk = DataprocModel.num(m, "diskBytesSpilled");
      if (disk > 0) {
        insight(found, at, "disk bytes spilled", disk, 0, Formats.humanBytes(disk) + " spilled to disk: its tasks' data "
            + "did not fit in execution memory (more partitions, or more memory per task)");
      }
      long writeNanos = DataprocModel.num(m.path("stageShuffleWriteMetrics"), "writeTimeNanos");
      if (run > 0 && writeNanos / 1e6 > SHUFFLE_WRITE_SHARE * run) {
        insight(found, at, "shuffle write time / run time", writeNanos / 1e6 / run, SHUFFLE_WRITE_SHARE,
            Formats.humanMillis(writeNanos / 1e6) + " of " + Formats.humanMillis(run) + " writing shuffle files: slow "
                + "local disks or many small shuffle blocks");
      }
      long inBytes = DataprocModel.num(m.path("stageInputMetrics"), "bytesRead")
          + DataprocModel.num(m.path("stageShuffleReadMetrics"), "bytesRead");
      long outBytes = DataprocModel.num(m.path("stageOutputMetrics"), "bytesWritten")
          + DataprocModel.num(m.path("stageShuffleWriteMetrics"), "bytesWritten");
      if (inBytes > 0 && outBytes > WRITE_AMPLIFICATION * inBytes && outBytes > (64L << 20)) {
        insight(found, at, "bytes written / read", (double) outBytes / inBytes, WRITE_AMPLIFICATION,
            "writes " + Formats.humanBytes(outBytes) + " from " + Formats.humanBytes(inBytes) + " read: a join or explode "
                + "multiplies rows");
      }
      long inRecords = DataprocModel.num(m.path("stageInputMetrics"), "recordsRead")
          + DataprocModel.num(m.path("stageShuffleReadMetrics"), "recordsRead");
      long outRecords = DataprocModel.num(m.path("stageOutputMetrics"), "recordsWritten")
          + DataprocModel.num(m.path("stageShuffleWriteMetrics"), "recordsWritten");
      if (inRecords > 0 && outRecords > WRITE_AMPLIFICATION * inRecords && outRecords > 1_000_000) {
        insight(found, at, "records written / read", (double) outRecords / inRecords, WRITE_AMPLIFICATION,
            outRecords + " records written from " + inRecords + " read");
      }
    }
    long failed = DataprocModel.num(summary, "numFailedStages");
    long waiting = DataprocModel.num(summary, "numPendingStages") + DataprocModel.num(summary, "numActiveStages");
    if (failed > 0) {
      insight(found, "application " + id.get(), "failed stages", failed, 0, failed + " stage attempt(s) failed");
    }
    if (waiting > 0) {
      insight(found, "application " + id.get(), "stages not finished (active or waiting)", waiting, 0,
          waiting + " stage(s) still active or waiting: the application stopped (or is) mid-way");
    }
    StringBuilder md = new StringBuilder("# Metric insights of `" + id.get() + "` (" + found.size() + ")\n\n");
    if (found.isEmpty()) {
      md.append("No executor or stage crossed a threshold (GC > ").append((int) (GC_SHARE * 100))
          .append("% of run time, any disk spill, shuffle write > ").append((int) (SHUFFLE_WRITE_SHARE * 100))
          .append("% of run time, more than ").append(WRITE_AMPLIFICATION).append("x written vs read, failed or waiting "
              + "stages).\n");
    } else {
      md.append("| Points at | Metric | Value | Threshold | What it means |\n|---|---|---|---|---|\n");
      for (JsonNode f : found) {
        md.append("| ").append(f.path("pointsAt").asText()).append(" | ").append(f.path("metric").asText()).append(" | ")
            .append(Formats.fixed(f.path("value").asDouble(), 2)).append(" | ")
            .append(Formats.fixed(f.path("threshold").asDouble(), 2)).append(" | ")
            .append(Markdown.text(f.path("message").asText(), 300)).append(" |\n");
      }
    }
    return new View(md.toString(), found);
  }

  private static void insight(ArrayNode out, String at, String metric, double value, double threshold, String message) {
    ObjectNode o = out.addObject();
    o.put("pointsAt", at);
    o.put("metric", metric);
    o.put("value", value);
    o.put("threshold", threshold);
    o.put("message", message);
  }

  private View stages(Optional<String> id, Request r) {
    Map<String, String> q = new LinkedHashMap<>();
    r.status().ifPresent(s -> q.put("stageStatus", "STAGE_STATUS_" + s));
    if (r.quantiles()) {
      q.put("summaryMetricsMask", "task_quantile_metrics");
    }
    List<JsonNode> rows = new ArrayList<>(api.paginate(workload.parent(), id, "searchStages", "sparkApplicationStages", q,
        r.limit()));
    sort(rows, r.sort(), s -> duration(s), s -> DataprocModel.num(s.path("stageMetrics"), "executorRunTimeMillis"));
    StringBuilder md = new StringBuilder("# Stages of `" + id.get() + "` (" + rows.size() + " shown)\n\n");
    if (rows.isEmpty()) {
      md.append("No stages matched.\n");
    } else {
      md.append("| Stage | Status | Tasks (failed/killed) | Duration | GC / run | Input | Shuffle R/W | Spill mem/disk | Name |\n")
          .append("|---|---|---|---|---|---|---|---|---|\n");
      for (JsonNode s : rows) {
        JsonNode m = s.path("stageMetrics");
        md.append("| ").append(DataprocModel.num(s, "stageId")).append('.').append(DataprocModel.num(s, "stageAttemptId"))
            .append(" | ").append(s.path("status").asText().replace("STAGE_STATUS_", "")).append(" | ")
            .append(DataprocModel.num(s, "numTasks")).append(" (").append(DataprocModel.num(s, "numFailedTasks")).append('/')
            .append(DataprocModel.num(s, "numKilledTasks")).append(") | ")
            .append(duration(s) < 0 ? "n/a" : Formats.humanMillis(duration(s))).append(" | ")
            .append(Formats.humanMillis(DataprocModel.num(m, "jvmGcTimeMillis"))).append(" / ")
            .append(Formats.humanMillis(DataprocModel.num(m, "executorRunTimeMillis"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(m.path("stageInputMetrics"), "bytesRead"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(m.path("stageShuffleReadMetrics"), "bytesRead"))).append(" / ")
            .append(Formats.humanBytes(DataprocModel.num(m.path("stageShuffleWriteMetrics"), "bytesWritten"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(m, "memoryBytesSpilled"))).append(" / ")
            .append(Formats.humanBytes(DataprocModel.num(m, "diskBytesSpilled"))).append(" | ")
            .append(Markdown.text(s.path("name").asText(), 80)).append(" |\n");
      }
      for (JsonNode s : rows) {
        reason(s).ifPresent(f -> md.append("\n**Stage ").append(DataprocModel.num(s, "stageId")).append('.')
            .append(DataprocModel.num(s, "stageAttemptId")).append(" failure reason:** ").append(Markdown.code(f, 600))
            .append('\n'));
      }
    }
    return new View(md.toString(), list(rows));
  }

  private View stage(Optional<String> id, Request r) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("stageId", Integer.toString(r.stageId().getAsInt()));
    q.put("stageAttemptId", Integer.toString(r.stageAttemptId()));
    q.put("summaryMetricsMask", "task_quantile_metrics");
    JsonNode s = api.call(workload.parent(), id, "accessStageAttempt", q).path("stageData");
    StringBuilder md = new StringBuilder("# Stage " + r.stageId().getAsInt() + "." + r.stageAttemptId() + " of `"
        + id.get() + "`\n\n");
    md.append("- Name: ").append(Markdown.code(s.path("name").asText(), 200)).append('\n')
        .append("- Status: ").append(s.path("status").asText().replace("STAGE_STATUS_", "")).append("; tasks: ")
        .append(DataprocModel.num(s, "numTasks")).append(" total, ").append(DataprocModel.num(s, "numFailedTasks"))
        .append(" failed, ").append(DataprocModel.num(s, "numKilledTasks")).append(" killed\n")
        .append("- Duration: ").append(duration(s) < 0 ? "n/a" : Formats.humanMillis(duration(s))).append('\n');
    reason(s).ifPresent(f -> md.append("- Failure reason: ").append(Markdown.code(f, 600)).append('\n'));
    JsonNode qm = s.path("taskQuantileMetrics");
    if (qm.isMissingNode() || qm.isEmpty()) {
      md.append("\nNo task quantile metrics were returned for this stage.\n");
    } else {
      md.append("\n## Task quantiles\n\n| Metric | Min | p25 | Median | p75 | Max |\n|---|---|---|---|---|---|\n");
      Object[][] rows = {
        {"Task duration", qm.path("durationMillis"), true},
        {"Executor run time", qm.path("executorRunTimeMillis"), true},
        {"GC time", qm.path("jvmGcTimeMillis"), true},
        {"Scheduler delay", qm.path("schedulerDelayMillis"), true},
        {"Input bytes", qm.path("inputMetrics").path("bytesRead"), false},
        {"Output bytes", qm.path("outputMetrics").path("bytesWritten"), false},
        {"Shuffle read bytes", qm.path("shuffleReadMetrics").path("readBytes"), false},
        {"Shuffle write bytes", qm.path("shuffleWriteMetrics").path("writeBytes"), false},
        {"Memory spilled", qm.path("memoryBytesSpilled"), false},
        {"Disk spilled", qm.path("diskBytesSpilled"), false},
        {"Peak execution memory", qm.path("peakExecutionMemoryBytes"), false},
      };
      for (Object[] row : rows) {
        JsonNode v = (JsonNode) row[1];
        if (v.isMissingNode() || DataprocModel.num(v, "count") == 0) {
          continue;
        }
        boolean ms = (Boolean) row[2];
        md.append("| ").append(row[0]);
        for (String f : List.of("minimum", "percentile25", "percentile50", "percentile75", "maximum")) {
          long x = DataprocModel.num(v, f);
          md.append(" | ").append(ms ? Formats.humanMillis(x) : Formats.humanBytes(x));
        }
        md.append(" |\n");
      }
    }
    return new View(md.toString(), s);
  }

  private View tasks(Optional<String> id, Request r) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("stageId", Integer.toString(r.stageId().getAsInt()));
    q.put("stageAttemptId", Integer.toString(r.stageAttemptId()));
    // Server-side taskStatus and sortRuntime are rejected by the API ("not supported yet"): filter here.
    List<JsonNode> fetched = api.paginate(workload.parent(), id, "searchStageAttemptTasks",
        "sparkApplicationStageAttemptTasks", q, r.maxFetch());
    List<JsonNode> rows = new ArrayList<>();
    for (JsonNode t : fetched) {
      if (r.status().isEmpty() || t.path("status").asText().toUpperCase(Locale.ROOT).equals(r.status().get())) {
        rows.add(t);
      }
    }
    sort(rows, r.sort(), t -> DataprocModel.num(t, "durationMillis"),
        t -> DataprocModel.num(t.path("taskMetrics"), "executorRunTimeMillis"));
    if (rows.size() > r.limit()) {
      rows = new ArrayList<>(rows.subList(0, r.limit()));
    }
    StringBuilder md = new StringBuilder("# Tasks of stage " + r.stageId().getAsInt() + "." + r.stageAttemptId() + " (`"
        + id.get() + "`): " + rows.size() + " shown of " + fetched.size() + " fetched\n\n");
    if (fetched.size() >= r.maxFetch()) {
      md.append("> Stopped after ").append(r.maxFetch()).append(" tasks; raise the most tasks fetched to scan more.\n\n");
    }
    if (rows.isEmpty()) {
      md.append("No tasks matched.\n");
    } else {
      md.append("| Task | Index.attempt | Status | Executor / host | Duration | GC | Input | Shuffle read | Spill mem/disk |\n")
          .append("|---|---|---|---|---|---|---|---|---|\n");
      Map<String, List<String>> errors = new LinkedHashMap<>();
      for (JsonNode t : rows) {
        JsonNode m = t.path("taskMetrics");
        JsonNode sr = m.path("shuffleReadMetrics");
        long remote = DataprocModel.num(sr, "remoteBytesRead");
        long local = DataprocModel.num(sr, "localBytesRead");
        long shuffle = remote >= 0 && local >= 0 ? remote + local : -1;
        String task = Long.toString(DataprocModel.num(t, "taskId"));
        md.append("| ").append(task).append(" | ").append(DataprocModel.num(t, "index")).append('.')
            .append(DataprocModel.num(t, "attempt")).append(" | ").append(t.path("status").asText()).append(" | ")
            .append(Markdown.text(t.path("executorId").asText(), 40)).append(" / ")
            .append(Markdown.text(t.path("host").asText(), 80)).append(" | ")
            .append(Formats.humanMillis(DataprocModel.num(t, "durationMillis"))).append(" | ")
            .append(Formats.humanMillis(DataprocModel.num(m, "jvmGcTimeMillis"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(m.path("inputMetrics"), "bytesRead"))).append(" | ")
            .append(Formats.humanBytes(shuffle)).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(m, "memoryBytesSpilled"))).append(" / ")
            .append(Formats.humanBytes(DataprocModel.num(m, "diskBytesSpilled"))).append(" |\n");
        String err = t.path("errorMessage").asText("");
        if (!err.isEmpty()) {
          errors.computeIfAbsent(summarizeError(err), k -> new ArrayList<>()).add(task);
        }
      }
      if (!errors.isEmpty()) {
        md.append("\n## Task errors (deduplicated)\n");
        errors.forEach((e, ids) -> md.append("- Tasks ").append(String.join(", ", ids)).append(": ")
            .append(Markdown.code(e, 600)).append('\n'));
      }
    }
    return new View(md.toString(), list(rows));
  }

  private View executors(Optional<String> id, Request r) {
    Map<String, String> q = new LinkedHashMap<>();
    r.status().ifPresent(s -> q.put("executorStatus", "EXECUTOR_STATUS_" + s));
    List<JsonNode> rows = api.paginate(workload.parent(), id, "searchExecutors", "sparkApplicationExecutors", q, r.limit());
    StringBuilder md = new StringBuilder("# Executors of `" + id.get() + "` (" + rows.size() + " shown)\n\n");
    if (rows.isEmpty()) {
      md.append("No executors matched.\n");
    } else {
      md.append("| Executor | Host | Active | Tasks (failed) | Task time | GC | Input | Shuffle R/W | Removed | Remove reason |\n")
          .append("|---|---|---|---|---|---|---|---|---|---|\n");
      for (JsonNode e : rows) {
        md.append("| ").append(Markdown.text(e.path("executorId").asText(), 40)).append(" | ")
            .append(Markdown.text(e.path("hostPort").asText(), 80)).append(" | ")
            .append(e.path("isActive").asBoolean(false)).append(" | ").append(DataprocModel.num(e, "totalTasks"))
            .append(" (").append(DataprocModel.num(e, "failedTasks")).append(") | ")
            .append(Formats.humanMillis(DataprocModel.num(e, "totalDurationMillis"))).append(" | ")
            .append(Formats.humanMillis(DataprocModel.num(e, "totalGcTimeMillis"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(e, "totalInputBytes"))).append(" | ")
            .append(Formats.humanBytes(DataprocModel.num(e, "totalShuffleRead"))).append(" / ")
            .append(Formats.humanBytes(DataprocModel.num(e, "totalShuffleWrite"))).append(" | ")
            .append(DataprocModel.time(e, "removeTime").map(Object::toString).orElse("")).append(" | ")
            .append(Markdown.text(e.path("removeReason").asText(""), 200)).append(" |\n");
      }
    }
    return new View(md.toString(), list(rows));
  }

  private View jobs(Optional<String> id, Request r) {
    Map<String, String> q = new LinkedHashMap<>();
    r.status().ifPresent(s -> q.put("jobStatus", "JOB_EXECUTION_STATUS_" + s));
    List<JsonNode> rows = api.paginate(workload.parent(), id, "searchJobs", "sparkApplicationJobs", q, r.limit());
    StringBuilder md = new StringBuilder("# Jobs of `" + id.get() + "` (" + rows.size() + " shown)\n\n");
    if (rows.isEmpty()) {
      md.append("No jobs matched.\n");
    } else {
      md.append("| Job | Status | Stages (failed) | Tasks (failed/killed) | Duration | Name |\n|---|---|---|---|---|---|\n");
      for (JsonNode j : rows) {
        long d = DataprocModel.time(j, "completionTime").flatMap(c -> DataprocModel.time(j, "submissionTime")
            .map(s -> c.toEpochMilli() - s.toEpochMilli())).orElse(-1L);
        md.append("| ").append(DataprocModel.num(j, "jobId")).append(" | ")
            .append(j.path("status").asText().replace("JOB_EXECUTION_STATUS_", "")).append(" | ")
            .append(j.path("stageIds").size()).append(" (").append(DataprocModel.num(j, "numFailedStages")).append(") | ")
            .append(DataprocModel.num(j, "numTasks")).append(" (").append(DataprocModel.num(j, "numFailedTasks")).append('/')
            .append(DataprocModel.num(j, "numKilledTasks")).append(") | ").append(Formats.humanMillis(d)).append(" | ")
            .append(Markdown.text(j.path("name").asText(), 80)).append(" |\n");
      }
    }
    return new View(md.toString(), list(rows));
  }

  private View sql(Optional<String> id, Request r) {
    List<JsonNode> rows = api.paginate(workload.parent(), id, "searchSqlQueries", "sparkApplicationSqlQueries",
        Map.of("details", "false", "planDescription", "false"), r.limit());
    StringBuilder md = new StringBuilder("# SQL executions of `" + id.get() + "` (" + rows.size() + " shown)\n\n");
    if (rows.isEmpty()) {
      md.append("No SQL executions recorded.\n");
    } else {
      md.append("| Execution | Duration | Jobs | Error | Description |\n|---|---|---|---|---|\n");
      for (JsonNode x : rows) {
        long d = DataprocModel.time(x, "completionTime").flatMap(c -> DataprocModel.time(x, "submissionTime")
            .map(s -> c.toEpochMilli() - s.toEpochMilli())).orElse(-1L);
        md.append("| ").append(DataprocModel.num(x, "executionId")).append(" | ").append(Formats.humanMillis(d))
            .append(" | ").append(x.path("jobs").size()).append(" | ")
            .append(Markdown.text(x.path("errorMessage").asText(""), 200)).append(" | ")
            .append(Markdown.text(x.path("description").asText(""), 100)).append(" |\n");
      }
    }
    ArrayNode redacted = F.arrayNode();
    rows.forEach(x -> {
      ObjectNode c = x.deepCopy();
      if (c.hasNonNull("errorMessage")) {
        c.put("errorMessage", Redactor.standard().redactText(c.get("errorMessage").asText()));
      }
      redacted.add(c);
    });
    return new View(md.toString(), redacted);
  }

  private View environment(Optional<String> id, Request r) {
    JsonNode env = api.call(workload.parent(), id, "accessEnvironmentInfo", Map.of()).path("applicationEnvironmentInfo");
    TreeMap<String, String> props = new TreeMap<>();
    env.path("sparkProperties").properties().forEach(e -> {
      if (r.grep().isEmpty() || e.getKey().toLowerCase(Locale.ROOT).contains(r.grep().get().toLowerCase(Locale.ROOT))) {
        // Unlike spark_applications.py, secrets are redacted: a report may be pasted anywhere.
        props.put(e.getKey(), Redactor.standard().redactProperty(e.getKey(), e.getValue().asText("")));
      }
    });
    JsonNode rt = env.path("runtime");
    StringBuilder md = new StringBuilder("# Spark environment of `" + id.get() + "`\n\n- Java ")
        .append(rt.path("javaVersion").asText("?")).append(", Scala ").append(rt.path("scalaVersion").asText("?"))
        .append("\n\n## Spark properties (").append(props.size()).append(")\n");
    props.forEach((k, v) -> md.append("- ").append(Markdown.code(k, 200)).append(" = ").append(Markdown.code(v, 200))
        .append('\n'));
    ObjectNode payload = F.objectNode();
    payload.set("runtime", rt);
    ObjectNode sp = payload.putObject("sparkProperties");
    props.forEach(sp::put);
    return new View(md.toString(), payload);
  }

  private static void sort(List<JsonNode> rows, String sort, java.util.function.ToLongFunction<JsonNode> duration,
      java.util.function.ToLongFunction<JsonNode> runTime) {
    if (sort.equals("duration")) {
      rows.sort(Comparator.comparingLong((JsonNode n) -> Math.max(0, duration.applyAsLong(n))).reversed());
    } else if (sort.equals("run_time")) {
      rows.sort(Comparator.comparingLong((JsonNode n) -> Math.max(0, runTime.applyAsLong(n))).reversed());
    }
  }

  private static long duration(JsonNode s) {
    return DataprocModel.time(s, "completionTime").flatMap(c -> DataprocModel.time(s, "submissionTime")
        .map(t -> c.toEpochMilli() - t.toEpochMilli())).orElse(-1L);
  }

  private static Optional<String> reason(JsonNode s) {
    String f = s.path("failureReason").asText("");
    return f.isBlank() ? Optional.empty() : Optional.of(summarizeError(f));
  }

  private static final java.util.regex.Pattern FRAMEWORK = java.util.regex.Pattern.compile(
      "^at (org\\.apache\\.(spark|hadoop)|scala\\.|java\\.|javax\\.|jdk\\.|sun\\.|py4j\\.|com\\.google\\.cloud\\.hadoop)");
  private static final java.util.regex.Pattern EXCEPTION_LINE =
      java.util.regex.Pattern.compile("^[A-Za-z_][\\w.]*(Error|Exception|Exit)\\b");

  /**
   * A JVM or Python trace on one line (as the Python tools' summarize_error): the headline, the
   * first frame outside Spark/Hadoop/the JDK, the innermost "Caused by", the last user {@code File
   * "..."} line and the last exception line, each once, joined with {@code " | "}, at most 600
   * characters.
   */
  static String summarizeError(String text) {
    List<String> lines = text.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    if (lines.isEmpty()) {
      return "";
    }
    List<String> picks = new ArrayList<>();
    picks.add(lines.get(0));
    lines.stream().filter(l -> l.startsWith("at ") && !FRAMEWORK.matcher(l).find()).findFirst().ifPresent(picks::add);
    last(lines, l -> l.startsWith("Caused by:")).ifPresent(picks::add);
    last(lines, l -> l.startsWith("File \"") && !l.contains("/pyspark/") && !l.contains("py4j")).ifPresent(picks::add);
    last(lines, l -> EXCEPTION_LINE.matcher(l).find()).ifPresent(picks::add);
    String s = String.join(" | ", picks.stream().distinct().toList());
    return s.length() > 600 ? s.substring(0, 600) : s;
  }

  private static Optional<String> last(List<String> lines, java.util.function.Predicate<String> p) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (p.test(lines.get(i))) {
        return Optional.of(lines.get(i));
      }
    }
    return Optional.empty();
  }

  private static double pct(long part, long whole) {
    return whole == 0 ? 0.0 : Math.round(10000.0 * part / whole) / 100.0;
  }

  private static ArrayNode list(List<JsonNode> rows) {
    ArrayNode a = F.arrayNode();
    rows.forEach(a::add);
    return a;
  }
}
