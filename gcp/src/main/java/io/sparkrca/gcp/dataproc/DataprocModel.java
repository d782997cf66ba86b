package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.RuntimeInfo;
import io.sparkrca.core.model.SqlEdge;
import io.sparkrca.core.model.SqlMetric;
import io.sparkrca.core.model.SqlNode;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dataproc {@code sparkApplications} JSON (proto3: camelCase, int64 as strings, zero fields and
 * unset timestamps omitted, enums prefixed {@code STAGE_STATUS_}, ...) into the core model, which
 * mirrors the History Server's REST API. The shapes differ in names only where Dataproc says so:
 * {@code executorRunTimeMillis} is the History Server's {@code executorRunTime}, the stage totals
 * sit under {@code stageMetrics}, quantiles are {@code minimum..maximum} objects rather than lists,
 * {@code killTasksSummary} is {@code killedTasksSummary}. Each answer is rewritten to the History
 * Server's JSON, then read by the same mapper that reads a History Server ({@link SparkJson}).
 *
 * <p>Hand-written rather than read by protobuf-java-util's {@code JsonFormat}: the v1 protos of
 * google-cloud-dataproc 4.85.0 hold none of the sparkApplications messages (no {@code
 * SparkApplication}, stage, task or executor types, as no Java client has these methods), so there
 * is no message to parse into.
 */
final class DataprocModel {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final ObjectMapper READER = reader();
  private static final Pattern CODEGEN = Pattern.compile("WholeStageCodegen \\((\\d+)\\)");
  /** The quantiles a Dataproc {@code Quantiles} object holds. */
  static final List<Double> QUANTILES = List.of(0.0, 0.25, 0.5, 0.75, 1.0);
  /** Placeholder for an unset end time, as the History Server shows it. */
  static final Instant UNSET = Instant.ofEpochMilli(-1);

  private DataprocModel() {}

  private static ObjectMapper reader() {
    ObjectMapper m = SparkJson.mapper().copy();
    // Absent lists and maps are empty, as in the History Server's answers where they are always present.
    m.configOverride(List.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY));
    m.configOverride(Map.class).setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY));
    return m;
  }

  private static <T> T read(ObjectNode shs, Class<T> type, String what) {
    try {
      return READER.treeToValue(shs, type);
    } catch (Exception e) {
      throw new CorruptInputException("a Dataproc " + what + " could not be read as the model (" + e.getMessage()
          + "); the sparkApplications answer has an unexpected shape", e);
    }
  }

  // --- applications

  static ApplicationInfo application(JsonNode app) {
    ObjectNode o = F.objectNode();
    o.put("id", app.path("applicationId").asText(""));
    o.put("name", app.path("name").asText(""));
    copyInt(app, "coresGranted", o, "coresGranted");
    copyInt(app, "maxCores", o, "maxCores");
    copyInt(app, "coresPerExecutor", o, "coresPerExecutor");
    copyInt(app, "memoryPerExecutorMb", o, "memoryPerExecutorMB");
    ArrayNode attempts = o.putArray("attempts");
    for (JsonNode a : app.path("attempts")) {
      ObjectNode x = attempts.addObject();
      text(a, "attemptId", x, "attemptId");
      x.put("startTime", time(a, "startTime").orElse(UNSET).toEpochMilli());
      x.put("endTime", time(a, "endTime").orElse(UNSET).toEpochMilli());
      x.put("lastUpdated", time(a, "lastUpdated").orElse(UNSET).toEpochMilli());
      x.put("duration", num(a, "durationMillis"));
      x.put("sparkUser", a.path("sparkUser").asText(""));
      x.put("completed", a.path("completed").asBoolean(false));
      x.put("appSparkVersion", a.path("appSparkVersion").asText(""));
    }
    return read(o, ApplicationInfo.class, "application");
  }

  // --- jobs

  static JobData job(JsonNode j) {
    ObjectNode o = F.objectNode();
    o.put("jobId", num(j, "jobId"));
    o.put("name", j.path("name").asText(""));
    text(j, "description", o, "description");
    timeField(j, "submissionTime", o, "submissionTime");
    timeField(j, "completionTime", o, "completionTime");
    o.set("stageIds", ints(j.path("stageIds")));
    text(j, "jobGroup", o, "jobGroup");
    o.putArray("jobTags");
    o.put("status", known(strip(j.path("status").asText(""), "JOB_EXECUTION_STATUS_"),
        List.of("RUNNING", "SUCCEEDED", "FAILED"), "UNKNOWN"));
    for (String n : List.of("numTasks", "numActiveTasks", "numCompletedTasks", "numSkippedTasks", "numFailedTasks",
        "numKilledTasks", "numCompletedIndices", "numActiveStages", "numCompletedStages", "numSkippedStages",
        "numFailedStages")) {
      o.put(n, num(j, n));
    }
    o.set("killedTasksSummary", intMap(j.path("killTasksSummary")));
    return read(o, JobData.class, "job");
  }

  // --- stages

  static StageData stage(JsonNode s) {
    ObjectNode o = F.objectNode();
    o.put("status", known(strip(s.path("status").asText(""), "STAGE_STATUS_"),
        List.of("ACTIVE", "COMPLETE", "FAILED", "SKIPPED"), "PENDING"));
    o.put("stageId", num(s, "stageId"));
    o.put("attemptId", num(s, "stageAttemptId"));
    for (String n : List.of("numTasks", "numActiveTasks", "numCompleteTasks", "numFailedTasks", "numKilledTasks",
        "numCompletedIndices", "resourceProfileId", "shuffleMergersCount")) {
      o.put(n, num(s, n));
    }
    timeField(s, "submissionTime", o, "submissionTime");
    timeField(s, "firstTaskLaunchedTime", o, "firstTaskLaunchedTime");
    timeField(s, "completionTime", o, "completionTime");
    text(s, "failureReason", o, "failureReason");
    JsonNode m = s.path("stageMetrics");
    o.put("executorDeserializeTime", num(m, "executorDeserializeTimeMillis"));
    o.put("executorDeserializeCpuTime", num(m, "executorDeserializeCpuTimeNanos"));
    o.put("executorRunTime", num(m, "executorRunTimeMillis"));
    o.put("executorCpuTime", num(m, "executorCpuTimeNanos"));
    o.put("resultSize", num(m, "resultSize"));
    o.put("jvmGcTime", num(m, "jvmGcTimeMillis"));
    o.put("resultSerializationTime", num(m, "resultSerializationTimeMillis"));
    o.put("memoryBytesSpilled", num(m, "memoryBytesSpilled"));
    o.put("diskBytesSpilled", num(m, "diskBytesSpilled"));
    o.put("peakExecutionMemory", num(m, "peakExecutionMemoryBytes"));
    JsonNode in = m.path("stageInputMetrics");
    o.put("inputBytes", num(in, "bytesRead"));
    o.put("inputRecords", num(in, "recordsRead"));
    JsonNode out = m.path("stageOutputMetrics");
    o.put("outputBytes", num(out, "bytesWritten"));
    o.put("outputRecords", num(out, "recordsWritten"));
    JsonNode sr = m.path("stageShuffleReadMetrics");
    o.put("shuffleRemoteBlocksFetched", num(sr, "remoteBlocksFetched"));
    o.put("shuffleLocalBlocksFetched", num(sr, "localBlocksFetched"));
    o.put("shuffleFetchWaitTime", num(sr, "fetchWaitTimeMillis"));
    o.put("shuffleRemoteBytesRead", num(sr, "remoteBytesRead"));
    o.put("shuffleRemoteBytesReadToDisk", num(sr, "remoteBytesReadToDisk"));
    o.put("shuffleLocalBytesRead", num(sr, "localBytesRead"));
    o.put("shuffleReadBytes", num(sr, "bytesRead"));
    o.put("shuffleReadRecords", num(sr, "recordsRead"));
    o.put("shuffleRemoteReqsDuration", num(sr, "remoteReqsDuration"));
    JsonNode push = sr.path("stageShufflePushReadMetrics");
    o.put("shuffleCorruptMergedBlockChunks", num(push, "corruptMergedBlockChunks"));
    o.put("shuffleMergedFetchFallbackCount", num(push, "mergedFetchFallbackCount"));
    o.put("shuffleMergedRemoteBlocksFetched", num(push, "remoteMergedBlocksFetched"));
    o.put("shuffleMergedLocalBlocksFetched", num(push, "localMergedBlocksFetched"));
    o.put("shuffleMergedRemoteChunksFetched", num(push, "remoteMergedChunksFetched"));
    o.put("shuffleMergedLocalChunksFetched", num(push, "localMergedChunksFetched"));
    o.put("shuffleMergedRemoteBytesRead", num(push, "remoteMergedBytesRead"));
    o.put("shuffleMergedLocalBytesRead", num(push, "localMergedBytesRead"));
    o.put("shuffleMergedRemoteReqsDuration", num(push, "remoteMergedReqsDuration"));
    JsonNode sw = m.path("stageShuffleWriteMetrics");
    o.put("shuffleWriteBytes", num(sw, "bytesWritten"));
    o.put("shuffleWriteTime", num(sw, "writeTimeNanos"));
    o.put("shuffleWriteRecords", num(sw, "recordsWritten"));
    o.put("name", s.path("name").asText(""));
    text(s, "description", o, "description");
    o.put("details", s.path("details").asText(""));
    o.put("schedulingPool", s.path("schedulingPool").asText(""));
    o.set("rddIds", ints(s.path("rddIds")));
    o.set("accumulatorUpdates", accumulables(s.path("accumulatorUpdates")));
    if (s.path("tasks").isObject()) {
      ObjectNode tasks = o.putObject("tasks");
      s.path("tasks").properties().forEach(e -> tasks.set(e.getKey(), taskJson(e.getValue())));
    }
    if (s.path("executorSummary").isObject()) {
      ObjectNode ex = o.putObject("executorSummary");
      s.path("executorSummary").properties().forEach(e -> ex.set(e.getKey(), executorStageSummary(e.getValue())));
    }
    if (s.path("speculationSummary").isObject()) {
      JsonNode sp = s.path("speculationSummary");
      ObjectNode x = o.putObject("speculationSummary");
      for (String n : List.of("numTasks", "numActiveTasks", "numCompletedTasks", "numFailedTasks", "numKilledTasks")) {
        x.put(n, num(sp, n));
      }
    }
    o.set("killedTasksSummary", intMap(s.path("killedTasksSummary")));
    if (s.path("peakExecutorMetrics").isObject()) {
      o.set("peakExecutorMetrics", longMap(s.path("peakExecutorMetrics").path("metrics")));
    }
    if (s.path("taskQuantileMetrics").isObject()) {
      o.set("taskMetricsDistributions", distributionsJson(s.path("taskQuantileMetrics")));
    }
    if (s.path("executorMetricsDistributions").isObject()) {
      o.set("executorMetricsDistributions", executorDistributions(s.path("executorMetricsDistributions")));
    }
    o.put("isShufflePushEnabled", s.path("isShufflePushEnabled").asBoolean(false));
    return read(o, StageData.class, "stage");
  }

  /** The task quantiles of a stage attempt, when Dataproc sent them. */
  static Optional<TaskMetricDistributions> distributions(JsonNode stage) {
    JsonNode q = stage.path("taskQuantileMetrics");
    if (!q.isObject() || num(q.path("durationMillis"), "count") == 0 && num(q.path("executorRunTimeMillis"), "count") == 0) {
      return Optional.empty();
    }
    return Optional.of(read(distributionsJson(q), TaskMetricDistributions.class, "task quantiles"));
  }

  private static ObjectNode distributionsJson(JsonNode q) {
    ObjectNode o = F.objectNode();
    ArrayNode qs = o.putArray("quantiles");
    QUANTILES.forEach(qs::add);
    o.set("duration", quantiles(q.path("durationMillis")));
    o.set("executorDeserializeTime", quantiles(q.path("executorDeserializeTimeMillis")));
    o.set("executorDeserializeCpuTime", quantiles(q.path("executorDeserializeCpuTimeNanos")));
    o.set("executorRunTime", quantiles(q.path("executorRunTimeMillis")));
    o.set("executorCpuTime", quantiles(q.path("executorCpuTimeNanos")));
    o.set("resultSize", quantiles(q.path("resultSize")));
    o.set("jvmGcTime", quantiles(q.path("jvmGcTimeMillis")));
    o.set("resultSerializationTime", quantiles(q.path("resultSerializationTimeMillis")));
    o.set("gettingResultTime", quantiles(q.path("gettingResultTimeMillis")));
    o.set("schedulerDelay", quantiles(q.path("schedulerDelayMillis")));
    o.set("peakExecutionMemory", quantiles(q.path("peakExecutionMemoryBytes")));
    o.set("memoryBytesSpilled", quantiles(q.path("memoryBytesSpilled")));
    o.set("diskBytesSpilled", quantiles(q.path("diskBytesSpilled")));
    ObjectNode in = o.putObject("inputMetrics");
    in.set("bytesRead", quantiles(q.path("inputMetrics").path("bytesRead")));
    in.set("recordsRead", quantiles(q.path("inputMetrics").path("recordsRead")));
    ObjectNode out = o.putObject("outputMetrics");
    out.set("bytesWritten", quantiles(q.path("outputMetrics").path("bytesWritten")));
    out.set("recordsWritten", quantiles(q.path("outputMetrics").path("recordsWritten")));
    JsonNode r = q.path("shuffleReadMetrics");
    ObjectNode sr = o.putObject("shuffleReadMetrics");
    sr.set("readBytes", quantiles(r.path("readBytes")));
    sr.set("readRecords", quantiles(r.path("readRecords")));
    sr.set("remoteBlocksFetched", quantiles(r.path("remoteBlocksFetched")));
    sr.set("localBlocksFetched", quantiles(r.path("localBlocksFetched")));
    sr.set("fetchWaitTime", quantiles(r.path("fetchWaitTimeMillis")));
    sr.set("remoteBytesRead", quantiles(r.path("remoteBytesRead")));
    sr.set("remoteBytesReadToDisk", quantiles(r.path("remoteBytesReadToDisk")));
    sr.set("totalBlocksFetched", quantiles(r.path("totalBlocksFetched")));
    sr.set("remoteReqsDuration", quantiles(r.path("remoteReqsDuration")));
    JsonNode p = r.path("shufflePushReadMetrics");
    ObjectNode sp = sr.putObject("shufflePushReadMetricsDist");
    for (String n : List.of("corruptMergedBlockChunks", "mergedFetchFallbackCount", "remoteMergedBlocksFetched",
        "localMergedBlocksFetched", "remoteMergedChunksFetched", "localMergedChunksFetched", "remoteMergedBytesRead",
        "localMergedBytesRead", "remoteMergedReqsDuration")) {
      sp.set(n, quantiles(p.path(n)));
    }
    JsonNode w = q.path("shuffleWriteMetrics");
    ObjectNode sw = o.putObject("shuffleWriteMetrics");
    sw.set("writeBytes", quantiles(w.path("writeBytes")));
    sw.set("writeRecords", quantiles(w.path("writeRecords")));
    sw.set("writeTime", quantiles(w.path("writeTimeNanos")));
    return o;
  }

  private static ArrayNode quantiles(JsonNode q) {
    ArrayNode a = F.arrayNode();
    for (String n : List.of("minimum", "percentile25", "percentile50", "percentile75", "maximum")) {
      a.add((double) num(q, n));
    }
    return a;
  }

  private static ObjectNode executorDistributions(JsonNode d) {
    ObjectNode o = F.objectNode();
    d.properties().forEach(e -> {
      if (e.getValue().isArray()) {
        o.set(e.getKey().equals("taskTimeMillis") ? "taskTime" : e.getKey(), e.getValue());
      }
    });
    // Dataproc: one ExecutorMetrics per quantile; the History Server: per metric, its values over the quantiles.
    ObjectNode peak = o.putObject("peakMemoryMetrics");
    JsonNode perQuantile = d.path("peakMemoryMetrics").path("executorMetrics");
    int n = perQuantile.size();
    for (int i = 0; i < n; i++) {
      final int q = i;
      perQuantile.get(i).path("metrics").properties().forEach(e -> {
        ArrayNode values = peak.has(e.getKey()) ? (ArrayNode) peak.get(e.getKey()) : peak.putArray(e.getKey());
        while (values.size() < q) {
          values.add(0.0);
        }
        values.add((double) num(perQuantile.get(q).path("metrics"), e.getKey()));
      });
    }
    peak.properties().forEach(e -> {
      while (e.getValue().size() < n) {
        ((ArrayNode) e.getValue()).add(0.0);
      }
    });
    return o;
  }

  private static ObjectNode executorStageSummary(JsonNode e) {
    ObjectNode o = F.objectNode();
    o.put("taskTime", num(e, "taskTimeMillis"));
    for (String n : List.of("failedTasks", "succeededTasks", "killedTasks", "inputBytes", "inputRecords", "outputBytes",
        "outputRecords", "shuffleRead", "shuffleReadRecords", "shuffleWrite", "shuffleWriteRecords", "memoryBytesSpilled",
        "diskBytesSpilled")) {
      o.put(n, num(e, n));
    }
    boolean excluded = e.path("isExcludedForStage").asBoolean(false);
    o.put("isBlacklistedForStage", excluded);
    o.put("isExcludedForStage", excluded);
    if (e.path("peakMemoryMetrics").isObject()) {
      o.set("peakMemoryMetrics", longMap(e.path("peakMemoryMetrics").path("metrics")));
    }
    return o;
  }

  // --- tasks

  static TaskData task(JsonNode t) {
    return read(taskJson(t), TaskData.class, "task");
  }

  private static ObjectNode taskJson(JsonNode t) {
    ObjectNode o = F.objectNode();
    o.put("taskId", num(t, "taskId"));
    o.put("index", num(t, "index"));
    o.put("attempt", num(t, "attempt"));
    o.put("partitionId", num(t, "partitionId"));
    o.put("launchTime", time(t, "launchTime").orElse(UNSET).toEpochMilli());
    timeField(t, "resultFetchStart", o, "resultFetchStart");
    if (t.has("durationMillis") || t.path("status").asText("").equals("SUCCESS")) {
      o.put("duration", num(t, "durationMillis"));
    }
    o.put("executorId", t.path("executorId").asText(""));
    o.put("host", t.path("host").asText(""));
    o.put("status", t.path("status").asText(""));
    o.put("taskLocality", t.path("taskLocality").asText(""));
    o.put("speculative", t.path("speculative").asBoolean(false));
    o.set("accumulatorUpdates", accumulables(t.path("accumulatorUpdates")));
    text(t, "errorMessage", o, "errorMessage");
    JsonNode m = t.path("taskMetrics");
    if (m.isObject() && t.path("hasMetrics").asBoolean(true)) {
      ObjectNode x = o.putObject("taskMetrics");
      x.put("executorDeserializeTime", num(m, "executorDeserializeTimeMillis"));
      x.put("executorDeserializeCpuTime", num(m, "executorDeserializeCpuTimeNanos"));
      x.put("executorRunTime", num(m, "executorRunTimeMillis"));
      x.put("executorCpuTime", num(m, "executorCpuTimeNanos"));
      x.put("resultSize", num(m, "resultSize"));
      x.put("jvmGcTime", num(m, "jvmGcTimeMillis"));
      x.put("resultSerializationTime", num(m, "resultSerializationTimeMillis"));
      x.put("memoryBytesSpilled", num(m, "memoryBytesSpilled"));
      x.put("diskBytesSpilled", num(m, "diskBytesSpilled"));
      x.put("peakExecutionMemory", num(m, "peakExecutionMemoryBytes"));
      ObjectNode in = x.putObject("inputMetrics");
      in.put("bytesRead", num(m.path("inputMetrics"), "bytesRead"));
      in.put("recordsRead", num(m.path("inputMetrics"), "recordsRead"));
      ObjectNode out = x.putObject("outputMetrics");
      out.put("bytesWritten", num(m.path("outputMetrics"), "bytesWritten"));
      out.put("recordsWritten", num(m.path("outputMetrics"), "recordsWritten"));
      JsonNode r = m.path("shuffleReadMetrics");
      ObjectNode sr = x.putObject("shuffleReadMetrics");
      sr.put("remoteBlocksFetched", num(r, "remoteBlocksFetched"));
      sr.put("localBlocksFetched", num(r, "localBlocksFetched"));
      sr.put("fetchWaitTime", num(r, "fetchWaitTimeMillis"));
      sr.put("remoteBytesRead", num(r, "remoteBytesRead"));
      sr.put("remoteBytesReadToDisk", num(r, "remoteBytesReadToDisk"));
      sr.put("localBytesRead", num(r, "localBytesRead"));
      sr.put("recordsRead", num(r, "recordsRead"));
      sr.put("remoteReqsDuration", num(r, "remoteReqsDuration"));
      JsonNode p = r.path("shufflePushReadMetrics");
      ObjectNode sp = sr.putObject("shufflePushReadMetrics");
      for (String n : List.of("corruptMergedBlockChunks", "mergedFetchFallbackCount", "remoteMergedBlocksFetched",
          "localMergedBlocksFetched", "remoteMergedChunksFetched", "localMergedChunksFetched", "remoteMergedBytesRead",
          "localMergedBytesRead", "remoteMergedReqsDuration")) {
        sp.put(n, num(p, n));
      }
      JsonNode w = m.path("shuffleWriteMetrics");
      ObjectNode sw = x.putObject("shuffleWriteMetrics");
      sw.put("bytesWritten", num(w, "bytesWritten"));
      sw.put("writeTime", num(w, "writeTimeNanos"));
      sw.put("recordsWritten", num(w, "recordsWritten"));
    }
    o.set("executorLogs", strMap(t.path("executorLogs")));
    o.put("schedulerDelay", num(t, "schedulerDelayMillis"));
    o.put("gettingResultTime", num(t, "gettingResultTimeMillis"));
    return o;
  }

  // --- executors

  static ExecutorSummary executor(JsonNode e) {
    ObjectNode o = F.objectNode();
    o.put("id", e.path("executorId").asText(""));
    o.put("hostPort", e.path("hostPort").asText(""));
    o.put("isActive", e.path("isActive").asBoolean(false));
    for (String n : List.of("rddBlocks", "memoryUsed", "diskUsed", "totalCores", "maxTasks", "activeTasks", "failedTasks",
        "completedTasks", "totalTasks", "totalInputBytes", "totalShuffleRead", "totalShuffleWrite", "maxMemory",
        "resourceProfileId")) {
      o.put(n, num(e, n));
    }
    o.put("totalDuration", num(e, "totalDurationMillis"));
    o.put("totalGCTime", num(e, "totalGcTimeMillis"));
    boolean excluded = e.path("isExcluded").asBoolean(false);
    o.put("isBlacklisted", excluded);
    o.put("isExcluded", excluded);
    o.put("addTime", time(e, "addTime").orElse(UNSET).toEpochMilli());
    timeField(e, "removeTime", o, "removeTime");
    text(e, "removeReason", o, "removeReason");
    o.set("executorLogs", strMap(e.path("executorLogs")));
    if (e.path("memoryMetrics").isObject()) {
      ObjectNode mm = o.putObject("memoryMetrics");
      for (String n : List.of("usedOnHeapStorageMemory", "usedOffHeapStorageMemory", "totalOnHeapStorageMemory",
          "totalOffHeapStorageMemory")) {
        mm.put(n, num(e.path("memoryMetrics"), n));
      }
    }
    o.set("blacklistedInStages", ints(e.path("excludedInStages")));
    o.set("excludedInStages", ints(e.path("excludedInStages")));
    if (e.path("peakMemoryMetrics").isObject()) {
      o.set("peakMemoryMetrics", longMap(e.path("peakMemoryMetrics").path("metrics")));
    }
    o.set("attributes", strMap(e.path("attributes")));
    o.putObject("resources");
    return read(o, ExecutorSummary.class, "executor");
  }

  // --- environment

  static ApplicationEnvironmentInfo environment(JsonNode env) {
    JsonNode rt = env.path("runtime");
    RuntimeInfo runtime = new RuntimeInfo(opt(rt, "javaVersion"), opt(rt, "javaHome"), opt(rt, "scalaVersion"));
    return new ApplicationEnvironmentInfo(runtime, props(env.path("sparkProperties")), props(env.path("hadoopProperties")),
        props(env.path("systemProperties")), props(env.path("metricsProperties")), props(env.path("classpathEntries")),
        List.of());
  }

  private static List<Map.Entry<String, String>> props(JsonNode map) {
    TreeMap<String, String> sorted = new TreeMap<>();
    map.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText("")));
    List<Map.Entry<String, String>> out = new ArrayList<>(sorted.size());
    sorted.forEach((k, v) -> out.add(new AbstractMap.SimpleImmutableEntry<>(k, v)));
    return out;
  }

  // --- SQL

  /** An execution from {@code searchSqlQueries}, with the nodes and edges of its plan graph when given. */
  static ExecutionData execution(JsonNode x, Optional<JsonNode> graph) {
    long id = num(x, "executionId");
    List<Integer> running = new ArrayList<>();
    List<Integer> success = new ArrayList<>();
    List<Integer> failed = new ArrayList<>();
    x.path("jobs").properties().forEach(e -> {
      int job = Integer.parseInt(e.getKey());
      String st = e.getValue().asText("");
      if (st.endsWith("SUCCEEDED")) {
        success.add(job);
      } else if (st.endsWith("FAILED")) {
        failed.add(job);
      } else if (st.endsWith("RUNNING")) {
        running.add(job);
      }
    });
    Optional<Instant> submitted = time(x, "submissionTime");
    Optional<Instant> completed = time(x, "completionTime");
    String status = x.hasNonNull("errorMessage") && !x.path("errorMessage").asText("").isEmpty() || !failed.isEmpty()
        ? "FAILED" : completed.isPresent() ? "COMPLETED" : "RUNNING";
    long duration = submitted.isPresent() && completed.isPresent()
        ? completed.get().toEpochMilli() - submitted.get().toEpochMilli() : 0;
    List<SqlNode> nodes = new ArrayList<>();
    List<SqlEdge> edges = new ArrayList<>();
    if (graph.isPresent()) {
      Map<String, String> values = new java.util.HashMap<>();
      x.path("metricValues").properties().forEach(e -> values.put(e.getKey(), e.getValue().asText("")));
      for (JsonNode w : graph.get().path("nodes")) {
        addNodes(w, Optional.empty(), values, nodes);
      }
      for (JsonNode e : graph.get().path("edges")) {
        edges.add(new SqlEdge(num(e, "fromId"), num(e, "toId")));
      }
    }
    return new ExecutionData(id, status, x.path("description").asText(""), x.path("physicalPlanDescription").asText(""),
        submitted.orElse(UNSET), duration, running, success, failed, nodes, edges);
  }

  private static void addNodes(JsonNode wrapper, Optional<Long> codegen, Map<String, String> values, List<SqlNode> out) {
    if (wrapper.path("cluster").isObject()) {
      JsonNode c = wrapper.path("cluster");
      Matcher m = CODEGEN.matcher(c.path("name").asText(""));
      Optional<Long> cg = m.matches() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
      for (JsonNode child : c.path("nodes")) {
        addNodes(child, cg, values, out);
      }
      out.add(new SqlNode(num(c, "sparkPlanGraphClusterId"), c.path("name").asText(""), Optional.empty(),
          metrics(c.path("metrics"), values)));
    } else if (wrapper.path("node").isObject()) {
      JsonNode n = wrapper.path("node");
      out.add(new SqlNode(num(n, "sparkPlanGraphNodeId"), n.path("name").asText(""), codegen,
          metrics(n.path("metrics"), values)));
    }
  }

  private static List<SqlMetric> metrics(JsonNode metrics, Map<String, String> values) {
    List<SqlMetric> out = new ArrayList<>();
    for (JsonNode m : metrics) {
      String v = values.get(m.path("accumulatorId").asText(""));
      if (v != null) {
        out.add(new SqlMetric(m.path("name").asText(""), v));
      }
    }
    return out;
  }

  // --- helpers

  /** The stages a {@code summarizeStages} answer ({@code stagesSummary}) counts, in every state. */
  static long stageCount(JsonNode stagesSummary) {
    long all = 0;
    for (String n : List.of("numCompletedStages", "numFailedStages", "numActiveStages", "numPendingStages",
        "numSkippedStages")) {
      all += num(stagesSummary, n);
    }
    return all;
  }

  /** An int64 or int32 field: a JSON number or a decimal string; 0 when absent (proto3 omits zeros). */
  static long num(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (v.isNumber()) {
      return v.asLong();
    }
    if (v.isTextual()) {
      String t = v.asText().trim();
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw new CorruptInputException("the Dataproc field " + field + " holds '" + t
            + "', not an integer; the sparkApplications answer is malformed");
      }
    }
    return 0;
  }

  /** A timestamp field; empty when absent or at/before the epoch (proto3's placeholder for unset). */
  static Optional<Instant> time(JsonNode n, String field) {
    JsonNode v = n.path(field);
    if (!v.isTextual() || v.asText().isEmpty()) {
      return Optional.empty();
    }
    try {
      Instant i = OffsetDateTime.parse(v.asText()).toInstant();
      return i.toEpochMilli() <= 0 ? Optional.empty() : Optional.of(i);
    } catch (DateTimeParseException e) {
      throw new CorruptInputException("the Dataproc field " + field + " holds '" + v.asText()
          + "', not an RFC 3339 timestamp; the sparkApplications answer is malformed", e);
    }
  }

  private static void timeField(JsonNode in, String from, ObjectNode out, String to) {
    time(in, from).ifPresent(t -> out.put(to, t.toEpochMilli()));
  }

  private static void text(JsonNode in, String from, ObjectNode out, String to) {
    if (in.path(from).isTextual()) {
      out.put(to, in.path(from).asText());
    }
  }

  private static Optional<String> opt(JsonNode in, String field) {
    return in.path(field).isTextual() ? Optional.of(in.path(field).asText()) : Optional.empty();
  }

  private static void copyInt(JsonNode in, String from, ObjectNode out, String to) {
    if (in.has(from)) {
      out.put(to, num(in, from));
    }
  }

  private static String known(String value, List<String> names, String otherwise) {
    return names.contains(value) ? value : otherwise;
  }

  private static String strip(String s, String prefix) {
    return s.startsWith(prefix) ? s.substring(prefix.length()) : s;
  }

  private static ArrayNode ints(JsonNode arr) {
    ArrayNode a = F.arrayNode();
    for (JsonNode v : arr) {
      a.add(v.isNumber() ? v.asLong() : Long.parseLong(v.asText().trim()));
    }
    return a;
  }

  private static ObjectNode intMap(JsonNode map) {
    ObjectNode o = F.objectNode();
    map.properties().forEach(e -> o.put(e.getKey(), e.getValue().isNumber() ? e.getValue().asLong()
        : Long.parseLong(e.getValue().asText("0").trim())));
    return o;
  }

  private static ObjectNode longMap(JsonNode map) {
    return intMap(map);
  }

  private static ObjectNode strMap(JsonNode map) {
    ObjectNode o = F.objectNode();
    map.properties().forEach(e -> o.put(e.getKey(), e.getValue().asText("")));
    return o;
  }

  private static ArrayNode accumulables(JsonNode arr) {
    ArrayNode a = F.arrayNode();
    for (JsonNode v : arr) {
      ObjectNode o = a.addObject();
      o.put("id", num(v, "accumullableInfoId"));
      o.put("name", v.path("name").asText(""));
      text(v, "update", o, "update");
      o.put("value", v.path("value").asText(""));
    }
    return a;
  }

  static Iterator<JsonNode> elements(JsonNode n) {
    return n.elements();
  }
}
