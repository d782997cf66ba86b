package io.sparkrca.gcp.testing;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.model.AccumulableInfo;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorMetrics;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.SqlMetric;
import io.sparkrca.core.model.SqlNode;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The core model (a History Server answer, a replay) written as Dataproc's {@code sparkApplications}
 * API writes it, for the loopback fake: the proto's camelCase names ({@code executorRunTimeMillis},
 * {@code stageMetrics.stageInputMetrics.bytesRead}, {@code stageAttemptId}), int64 fields as JSON
 * strings and int32 ones as numbers, enum names with their prefixes ({@code STAGE_STATUS_FAILED}),
 * RFC 3339 timestamps, and every zero, false, empty or unset field omitted (so stage 0 has no
 * {@code stageId}). Field names and types follow the Dataproc v1 discovery document.
 */
public final class DataprocShapes {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private DataprocShapes() {}

  static void i64(ObjectNode o, String name, long v) {
    if (v != 0) {
      o.put(name, Long.toString(v));
    }
  }

  static void i32(ObjectNode o, String name, long v) {
    if (v != 0) {
      o.put(name, (int) v);
    }
  }

  static void str(ObjectNode o, String name, Optional<String> v) {
    v.filter(s -> !s.isEmpty()).ifPresent(s -> o.put(name, s));
  }

  static void str(ObjectNode o, String name, String v) {
    str(o, name, Optional.ofNullable(v));
  }

  static void bool(ObjectNode o, String name, boolean v) {
    if (v) {
      o.put(name, true);
    }
  }

  static void time(ObjectNode o, String name, Optional<Instant> t) {
    t.filter(i -> i.toEpochMilli() > 0).ifPresent(i -> o.put(name, i.toString()));
  }

  static void int64s(ObjectNode o, String name, List<Integer> ids) {
    if (!ids.isEmpty()) {
      ArrayNode a = o.putArray(name);
      ids.forEach(i -> a.add(Integer.toString(i)));
    }
  }

  public static ObjectNode application(ApplicationInfo a) {
    ObjectNode o = F.objectNode();
    o.put("applicationId", a.id());
    str(o, "name", a.name());
    a.coresGranted().ifPresent(v -> i32(o, "coresGranted", v));
    a.maxCores().ifPresent(v -> i32(o, "maxCores", v));
    a.coresPerExecutor().ifPresent(v -> i32(o, "coresPerExecutor", v));
    a.memoryPerExecutorMB().ifPresent(v -> i32(o, "memoryPerExecutorMb", v));
    ArrayNode attempts = o.putArray("attempts");
    for (ApplicationAttemptInfo x : a.attempts()) {
      ObjectNode t = attempts.addObject();
      str(t, "attemptId", x.attemptId());
      time(t, "startTime", Optional.of(x.startTime()));
      time(t, "endTime", Optional.of(x.endTime()));
      time(t, "lastUpdated", Optional.of(x.lastUpdated()));
      i64(t, "durationMillis", x.duration());
      str(t, "sparkUser", x.sparkUser());
      bool(t, "completed", x.completed());
      str(t, "appSparkVersion", x.appSparkVersion());
    }
    o.put("quantileDataStatus", "QUANTILE_DATA_STATUS_COMPLETED");
    o.put("applicationContextIngestionStatus", "APPLICATION_CONTEXT_INGESTION_STATUS_COMPLETED");
    return o;
  }

  public static ObjectNode job(JobData j) {
    ObjectNode o = F.objectNode();
    i64(o, "jobId", j.jobId());
    str(o, "name", j.name());
    str(o, "description", j.description());
    time(o, "submissionTime", j.submissionTime());
    time(o, "completionTime", j.completionTime());
    int64s(o, "stageIds", j.stageIds());
    str(o, "jobGroup", j.jobGroup());
    o.put("status", "JOB_EXECUTION_STATUS_" + j.status().name());
    i32(o, "numTasks", j.numTasks());
    i32(o, "numActiveTasks", j.numActiveTasks());
    i32(o, "numCompletedTasks", j.numCompletedTasks());
    i32(o, "numSkippedTasks", j.numSkippedTasks());
    i32(o, "numFailedTasks", j.numFailedTasks());
    i32(o, "numKilledTasks", j.numKilledTasks());
    i32(o, "numCompletedIndices", j.numCompletedIndices());
    i32(o, "numActiveStages", j.numActiveStages());
    i32(o, "numCompletedStages", j.numCompletedStages());
    i32(o, "numSkippedStages", j.numSkippedStages());
    i32(o, "numFailedStages", j.numFailedStages());
    if (!j.killedTasksSummary().isEmpty()) {
      ObjectNode k = o.putObject("killTasksSummary");
      j.killedTasksSummary().forEach(k::put);
    }
    return o;
  }

  /** A stage attempt; {@code details} adds its tasks and per-executor summaries, {@code quantiles} its task quantiles. */
  public static ObjectNode stage(StageData s, Optional<TaskMetricDistributions> quantiles, boolean details) {
    ObjectNode o = F.objectNode();
    o.put("status", "STAGE_STATUS_" + s.status().name());
    i64(o, "stageId", s.stageId());
    i32(o, "stageAttemptId", s.attemptId());
    i32(o, "numTasks", s.numTasks());
    i32(o, "numActiveTasks", s.numActiveTasks());
    i32(o, "numCompleteTasks", s.numCompleteTasks());
    i32(o, "numFailedTasks", s.numFailedTasks());
    i32(o, "numKilledTasks", s.numKilledTasks());
    i32(o, "numCompletedIndices", s.numCompletedIndices());
    time(o, "submissionTime", s.submissionTime());
    time(o, "firstTaskLaunchedTime", s.firstTaskLaunchedTime());
    time(o, "completionTime", s.completionTime());
    str(o, "failureReason", s.failureReason());
    ObjectNode m = F.objectNode();
    i64(m, "executorDeserializeTimeMillis", s.executorDeserializeTime());
    i64(m, "executorDeserializeCpuTimeNanos", s.executorDeserializeCpuTime());
    i64(m, "executorRunTimeMillis", s.executorRunTime());
    i64(m, "executorCpuTimeNanos", s.executorCpuTime());
    i64(m, "resultSize", s.resultSize());
    i64(m, "jvmGcTimeMillis", s.jvmGcTime());
    i64(m, "resultSerializationTimeMillis", s.resultSerializationTime());
    i64(m, "memoryBytesSpilled", s.memoryBytesSpilled());
    i64(m, "diskBytesSpilled", s.diskBytesSpilled());
    i64(m, "peakExecutionMemoryBytes", s.peakExecutionMemory());
    ObjectNode in = F.objectNode();
    i64(in, "bytesRead", s.inputBytes());
    i64(in, "recordsRead", s.inputRecords());
    put(m, "stageInputMetrics", in);
    ObjectNode out = F.objectNode();
    i64(out, "bytesWritten", s.outputBytes());
    i64(out, "recordsWritten", s.outputRecords());
    put(m, "stageOutputMetrics", out);
    ObjectNode sr = F.objectNode();
    i64(sr, "bytesRead", s.shuffleReadBytes());
    i64(sr, "fetchWaitTimeMillis", s.shuffleFetchWaitTime());
    i64(sr, "localBlocksFetched", s.shuffleLocalBlocksFetched());
    i64(sr, "localBytesRead", s.shuffleLocalBytesRead());
    i64(sr, "recordsRead", s.shuffleReadRecords());
    i64(sr, "remoteBlocksFetched", s.shuffleRemoteBlocksFetched());
    i64(sr, "remoteBytesRead", s.shuffleRemoteBytesRead());
    i64(sr, "remoteBytesReadToDisk", s.shuffleRemoteBytesReadToDisk());
    i64(sr, "remoteReqsDuration", s.shuffleRemoteReqsDuration());
    ObjectNode push = F.objectNode();
    i64(push, "corruptMergedBlockChunks", s.shuffleCorruptMergedBlockChunks());
    i64(push, "mergedFetchFallbackCount", s.shuffleMergedFetchFallbackCount());
    i64(push, "remoteMergedBlocksFetched", s.shuffleMergedRemoteBlocksFetched());
    i64(push, "localMergedBlocksFetched", s.shuffleMergedLocalBlocksFetched());
    i64(push, "remoteMergedChunksFetched", s.shuffleMergedRemoteChunksFetched());
    i64(push, "localMergedChunksFetched", s.shuffleMergedLocalChunksFetched());
    i64(push, "remoteMergedBytesRead", s.shuffleMergedRemoteBytesRead());
    i64(push, "localMergedBytesRead", s.shuffleMergedLocalBytesRead());
    i64(push, "remoteMergedReqsDuration", s.shuffleMergedRemoteReqsDuration());
    put(sr, "stageShufflePushReadMetrics", push);
    put(m, "stageShuffleReadMetrics", sr);
    ObjectNode sw = F.objectNode();
    i64(sw, "bytesWritten", s.shuffleWriteBytes());
    i64(sw, "writeTimeNanos", s.shuffleWriteTime());
    i64(sw, "recordsWritten", s.shuffleWriteRecords());
    put(m, "stageShuffleWriteMetrics", sw);
    put(o, "stageMetrics", m);
    str(o, "name", s.name());
    str(o, "description", s.description());
    str(o, "details", s.details());
    str(o, "schedulingPool", s.schedulingPool());
    int64s(o, "rddIds", s.rddIds());
    if (!s.accumulatorUpdates().isEmpty()) {
      ArrayNode a = o.putArray("accumulatorUpdates");
      s.accumulatorUpdates().forEach(x -> a.add(accumulable(x)));
    }
    if (details) {
      s.tasks().ifPresent(ts -> {
        ObjectNode t = o.putObject("tasks");
        ts.forEach((id, task) -> t.set(Long.toString(id), task(task, s.stageId(), s.attemptId())));
      });
      s.executorSummary().ifPresent(es -> {
        ObjectNode e = o.putObject("executorSummary");
        es.forEach((id, x) -> e.set(id, executorStageSummary(id, x, s)));
      });
    }
    if (!s.killedTasksSummary().isEmpty()) {
      ObjectNode k = o.putObject("killedTasksSummary");
      s.killedTasksSummary().forEach(k::put);
    }
    i32(o, "resourceProfileId", s.resourceProfileId());
    s.peakExecutorMetrics().ifPresent(p -> put(o, "peakExecutorMetrics", metrics(p)));
    quantiles.ifPresent(q -> o.set("taskQuantileMetrics", quantiles(q)));
    bool(o, "isShufflePushEnabled", s.isShufflePushEnabled());
    i32(o, "shuffleMergersCount", s.shuffleMergersCount());
    return o;
  }

  private static ObjectNode accumulable(AccumulableInfo a) {
    ObjectNode o = F.objectNode();
    i64(o, "accumullableInfoId", a.id());
    str(o, "name", a.name());
    str(o, "update", a.update());
    str(o, "value", a.value());
    return o;
  }

  private static ObjectNode executorStageSummary(String id, ExecutorStageSummary x, StageData s) {
    ObjectNode o = F.objectNode();
    str(o, "executorId", id);
    i64(o, "stageId", s.stageId());
    i32(o, "stageAttemptId", s.attemptId());
    i64(o, "taskTimeMillis", x.taskTime());
    i32(o, "failedTasks", x.failedTasks());
    i32(o, "succeededTasks", x.succeededTasks());
    i32(o, "killedTasks", x.killedTasks());
    i64(o, "inputBytes", x.inputBytes());
    i64(o, "inputRecords", x.inputRecords());
    i64(o, "outputBytes", x.outputBytes());
    i64(o, "outputRecords", x.outputRecords());
    i64(o, "shuffleRead", x.shuffleRead());
    i64(o, "shuffleReadRecords", x.shuffleReadRecords());
    i64(o, "shuffleWrite", x.shuffleWrite());
    i64(o, "shuffleWriteRecords", x.shuffleWriteRecords());
    i64(o, "memoryBytesSpilled", x.memoryBytesSpilled());
    i64(o, "diskBytesSpilled", x.diskBytesSpilled());
    bool(o, "isExcludedForStage", x.isExcludedForStage());
    x.peakMemoryMetrics().ifPresent(p -> put(o, "peakMemoryMetrics", metrics(p)));
    return o;
  }

  private static ObjectNode metrics(ExecutorMetrics m) {
    ObjectNode o = F.objectNode();
    ObjectNode v = F.objectNode();
    m.values().forEach((k, x) -> {
      if (x != 0) {
        v.put(k, Long.toString(x));
      }
    });
    put(o, "metrics", v);
    return o;
  }

  private static ObjectNode quantiles(TaskMetricDistributions d) {
    ObjectNode o = F.objectNode();
    put(o, "durationMillis", q(d.duration()));
    put(o, "executorDeserializeTimeMillis", q(d.executorDeserializeTime()));
    put(o, "executorDeserializeCpuTimeNanos", q(d.executorDeserializeCpuTime()));
    put(o, "executorRunTimeMillis", q(d.executorRunTime()));
    put(o, "executorCpuTimeNanos", q(d.executorCpuTime()));
    put(o, "resultSize", q(d.resultSize()));
    put(o, "jvmGcTimeMillis", q(d.jvmGcTime()));
    put(o, "resultSerializationTimeMillis", q(d.resultSerializationTime()));
    put(o, "gettingResultTimeMillis", q(d.gettingResultTime()));
    put(o, "schedulerDelayMillis", q(d.schedulerDelay()));
    put(o, "peakExecutionMemoryBytes", q(d.peakExecutionMemory()));
    put(o, "memoryBytesSpilled", q(d.memoryBytesSpilled()));
    put(o, "diskBytesSpilled", q(d.diskBytesSpilled()));
    ObjectNode in = F.objectNode();
    put(in, "bytesRead", q(d.inputMetrics().bytesRead()));
    put(in, "recordsRead", q(d.inputMetrics().recordsRead()));
    put(o, "inputMetrics", in);
    ObjectNode out = F.objectNode();
    put(out, "bytesWritten", q(d.outputMetrics().bytesWritten()));
    put(out, "recordsWritten", q(d.outputMetrics().recordsWritten()));
    put(o, "outputMetrics", out);
    var r = d.shuffleReadMetrics();
    ObjectNode sr = F.objectNode();
    put(sr, "readBytes", q(r.readBytes()));
    put(sr, "readRecords", q(r.readRecords()));
    put(sr, "remoteBlocksFetched", q(r.remoteBlocksFetched()));
    put(sr, "localBlocksFetched", q(r.localBlocksFetched()));
    put(sr, "fetchWaitTimeMillis", q(r.fetchWaitTime()));
    put(sr, "remoteBytesRead", q(r.remoteBytesRead()));
    put(sr, "remoteBytesReadToDisk", q(r.remoteBytesReadToDisk()));
    put(sr, "totalBlocksFetched", q(r.totalBlocksFetched()));
    put(sr, "remoteReqsDuration", q(r.remoteReqsDuration()));
    put(o, "shuffleReadMetrics", sr);
    var w = d.shuffleWriteMetrics();
    ObjectNode sw = F.objectNode();
    put(sw, "writeBytes", q(w.writeBytes()));
    put(sw, "writeRecords", q(w.writeRecords()));
    put(sw, "writeTimeNanos", q(w.writeTime()));
    put(o, "shuffleWriteMetrics", sw);
    return o;
  }

  /** A Quantiles message from the History Server's five values (min, p25, p50, p75, max); int64, rounded. */
  private static ObjectNode q(List<Double> v) {
    ObjectNode o = F.objectNode();
    if (v.size() != 5) {
      return o;
    }
    i64(o, "minimum", Math.round(v.get(0)));
    i64(o, "percentile25", Math.round(v.get(1)));
    i64(o, "percentile50", Math.round(v.get(2)));
    i64(o, "percentile75", Math.round(v.get(3)));
    i64(o, "maximum", Math.round(v.get(4)));
    i64(o, "count", 1); // Dataproc counts the tasks; any non-zero count says "measured"
    return o;
  }

  public static ObjectNode task(TaskData t, int stageId, int attemptId) {
    ObjectNode o = F.objectNode();
    i64(o, "taskId", t.taskId());
    i32(o, "index", t.index());
    i32(o, "attempt", t.attempt());
    i32(o, "partitionId", t.partitionId());
    time(o, "launchTime", Optional.of(t.launchTime()));
    time(o, "resultFetchStart", t.resultFetchStart());
    t.duration().ifPresent(d -> i64(o, "durationMillis", d));
    str(o, "executorId", t.executorId());
    str(o, "host", t.host());
    str(o, "status", t.status());
    str(o, "taskLocality", t.taskLocality());
    bool(o, "speculative", t.speculative());
    if (!t.accumulatorUpdates().isEmpty()) {
      ArrayNode a = o.putArray("accumulatorUpdates");
      t.accumulatorUpdates().forEach(x -> a.add(accumulable(x)));
    }
    str(o, "errorMessage", t.errorMessage());
    i64(o, "stageId", stageId);
    i32(o, "stageAttemptId", attemptId);
    if (t.taskMetrics().isPresent()) {
      o.put("hasMetrics", true);
      TaskMetrics m = t.taskMetrics().get();
      ObjectNode x = F.objectNode();
      i64(x, "executorDeserializeTimeMillis", m.executorDeserializeTime());
      i64(x, "executorDeserializeCpuTimeNanos", m.executorDeserializeCpuTime());
      i64(x, "executorRunTimeMillis", m.executorRunTime());
      i64(x, "executorCpuTimeNanos", m.executorCpuTime());
      i64(x, "resultSize", m.resultSize());
      i64(x, "jvmGcTimeMillis", m.jvmGcTime());
      i64(x, "resultSerializationTimeMillis", m.resultSerializationTime());
      i64(x, "memoryBytesSpilled", m.memoryBytesSpilled());
      i64(x, "diskBytesSpilled", m.diskBytesSpilled());
      i64(x, "peakExecutionMemoryBytes", m.peakExecutionMemory());
      ObjectNode in = F.objectNode();
      i64(in, "bytesRead", m.inputMetrics().bytesRead());
      i64(in, "recordsRead", m.inputMetrics().recordsRead());
      put(x, "inputMetrics", in);
      ObjectNode out = F.objectNode();
      i64(out, "bytesWritten", m.outputMetrics().bytesWritten());
      i64(out, "recordsWritten", m.outputMetrics().recordsWritten());
      put(x, "outputMetrics", out);
      var r = m.shuffleReadMetrics();
      ObjectNode sr = F.objectNode();
      i64(sr, "remoteBlocksFetched", r.remoteBlocksFetched());
      i64(sr, "localBlocksFetched", r.localBlocksFetched());
      i64(sr, "fetchWaitTimeMillis", r.fetchWaitTime());
      i64(sr, "remoteBytesRead", r.remoteBytesRead());
      i64(sr, "remoteBytesReadToDisk", r.remoteBytesReadToDisk());
      i64(sr, "localBytesRead", r.localBytesRead());
      i64(sr, "recordsRead", r.recordsRead());
      i64(sr, "remoteReqsDuration", r.remoteReqsDuration());
      put(x, "shuffleReadMetrics", sr);
      var w = m.shuffleWriteMetrics();
      ObjectNode sw = F.objectNode();
      i64(sw, "bytesWritten", w.bytesWritten());
      i64(sw, "writeTimeNanos", w.writeTime());
      i64(sw, "recordsWritten", w.recordsWritten());
      put(x, "shuffleWriteMetrics", sw);
      put(o, "taskMetrics", x);
    }
    if (!t.executorLogs().isEmpty()) {
      ObjectNode l = o.putObject("executorLogs");
      t.executorLogs().forEach(l::put);
    }
    i64(o, "schedulerDelayMillis", t.schedulerDelay());
    i64(o, "gettingResultTimeMillis", t.gettingResultTime());
    return o;
  }

  public static ObjectNode executor(ExecutorSummary e) {
    ObjectNode o = F.objectNode();
    str(o, "executorId", e.id());
    str(o, "hostPort", e.hostPort());
    bool(o, "isActive", e.isActive());
    i32(o, "rddBlocks", e.rddBlocks());
    i64(o, "memoryUsed", e.memoryUsed());
    i64(o, "diskUsed", e.diskUsed());
    i32(o, "totalCores", e.totalCores());
    i32(o, "maxTasks", e.maxTasks());
    i32(o, "activeTasks", e.activeTasks());
    i32(o, "failedTasks", e.failedTasks());
    i32(o, "completedTasks", e.completedTasks());
    i32(o, "totalTasks", e.totalTasks());
    i64(o, "totalDurationMillis", e.totalDuration());
    i64(o, "totalGcTimeMillis", e.totalGCTime());
    i64(o, "totalInputBytes", e.totalInputBytes());
    i64(o, "totalShuffleRead", e.totalShuffleRead());
    i64(o, "totalShuffleWrite", e.totalShuffleWrite());
    bool(o, "isExcluded", e.isExcluded() || e.isBlacklisted());
    i64(o, "maxMemory", e.maxMemory());
    time(o, "addTime", Optional.of(e.addTime()));
    time(o, "removeTime", e.removeTime());
    str(o, "removeReason", e.removeReason());
    if (!e.executorLogs().isEmpty()) {
      ObjectNode l = o.putObject("executorLogs");
      e.executorLogs().forEach(l::put);
    }
    e.memoryMetrics().ifPresent(m -> {
      ObjectNode x = F.objectNode();
      i64(x, "usedOnHeapStorageMemory", m.usedOnHeapStorageMemory());
      i64(x, "usedOffHeapStorageMemory", m.usedOffHeapStorageMemory());
      i64(x, "totalOnHeapStorageMemory", m.totalOnHeapStorageMemory());
      i64(x, "totalOffHeapStorageMemory", m.totalOffHeapStorageMemory());
      put(o, "memoryMetrics", x);
    });
    int64s(o, "excludedInStages", e.excludedInStages());
    e.peakMemoryMetrics().ifPresent(p -> put(o, "peakMemoryMetrics", metrics(p)));
    if (!e.attributes().isEmpty()) {
      ObjectNode a = o.putObject("attributes");
      e.attributes().forEach(a::put);
    }
    i32(o, "resourceProfileId", e.resourceProfileId());
    return o;
  }

  public static ObjectNode environment(ApplicationEnvironmentInfo env) {
    ObjectNode o = F.objectNode();
    ObjectNode rt = o.putObject("runtime");
    str(rt, "javaVersion", env.runtime().javaVersion());
    str(rt, "javaHome", env.runtime().javaHome());
    str(rt, "scalaVersion", env.runtime().scalaVersion());
    props(o, "sparkProperties", env.sparkProperties());
    props(o, "hadoopProperties", env.hadoopProperties());
    props(o, "systemProperties", env.systemProperties());
    props(o, "metricsProperties", env.metricsProperties());
    props(o, "classpathEntries", env.classpathEntries());
    return o;
  }

  private static void props(ObjectNode o, String name, List<Map.Entry<String, String>> entries) {
    if (!entries.isEmpty()) {
      ObjectNode p = o.putObject(name);
      entries.forEach(e -> p.put(e.getKey(), e.getValue()));
    }
  }

  /** A SQL execution as searchSqlQueries lists it, and its plan graph as accessSqlPlan answers. */
  public static ObjectNode[] execution(ExecutionData x, Optional<String> errorMessage) {
    ObjectNode o = F.objectNode();
    i64(o, "executionId", x.id());
    str(o, "description", x.description());
    str(o, "physicalPlanDescription", x.planDescription());
    time(o, "submissionTime", Optional.of(x.submissionTime()));
    if (!x.status().equals("RUNNING")) {
      time(o, "completionTime", Optional.of(x.submissionTime().plusMillis(x.duration())));
    }
    str(o, "errorMessage", errorMessage.or(() -> x.status().equals("FAILED") ? Optional.of("failed") : Optional.empty()));
    TreeMap<Integer, String> jobs = new TreeMap<>();
    x.runningJobIds().forEach(j -> jobs.put(j, "JOB_EXECUTION_STATUS_RUNNING"));
    x.successJobIds().forEach(j -> jobs.put(j, "JOB_EXECUTION_STATUS_SUCCEEDED"));
    x.failedJobIds().forEach(j -> jobs.put(j, "JOB_EXECUTION_STATUS_FAILED"));
    if (!jobs.isEmpty()) {
      ObjectNode j = o.putObject("jobs");
      jobs.forEach((k, v) -> j.put(Integer.toString(k), v));
    }
    ObjectNode values = F.objectNode();
    ObjectNode graph = F.objectNode();
    i64(graph, "executionId", x.id());
    ArrayNode nodes = graph.putArray("nodes");
    long[] acc = {1};
    Map<Long, ObjectNode> clusters = new TreeMap<>();
    for (SqlNode n : x.nodes()) {
      if (n.nodeName().startsWith("WholeStageCodegen (") && n.wholeStageCodegenId().isEmpty()) {
        ObjectNode c = F.objectNode();
        i64(c, "sparkPlanGraphClusterId", n.nodeId());
        c.put("name", n.nodeName());
        c.set("metrics", metricsOf(n.metrics(), values, acc));
        c.putArray("nodes");
        long id = Long.parseLong(n.nodeName().replaceAll("\\D", ""));
        clusters.put(id, c);
        nodes.addObject().set("cluster", c);
      }
    }
    for (SqlNode n : x.nodes()) {
      if (clusters.values().stream().anyMatch(c -> c.path("name").asText().equals(n.nodeName())
          && n.wholeStageCodegenId().isEmpty())) {
        continue;
      }
      ObjectNode node = F.objectNode();
      i64(node, "sparkPlanGraphNodeId", n.nodeId());
      node.put("name", n.nodeName());
      node.set("metrics", metricsOf(n.metrics(), values, acc));
      ObjectNode wrapper = F.objectNode().set("node", node);
      ObjectNode c = n.wholeStageCodegenId().map(clusters::get).orElse(null);
      if (c != null) {
        ((ArrayNode) c.get("nodes")).add(wrapper);
      } else {
        nodes.add(wrapper);
      }
    }
    ArrayNode edges = graph.putArray("edges");
    x.edges().forEach(e -> {
      ObjectNode ed = edges.addObject();
      i64(ed, "fromId", e.fromId());
      i64(ed, "toId", e.toId());
    });
    put(o, "metricValues", values);
    return new ObjectNode[] {o, graph};
  }

  private static ArrayNode metricsOf(List<SqlMetric> metrics, ObjectNode values, long[] acc) {
    ArrayNode a = F.arrayNode();
    for (SqlMetric m : metrics) {
      long id = acc[0]++;
      ObjectNode x = a.addObject();
      x.put("accumulatorId", Long.toString(id));
      x.put("name", m.name());
      x.put("metricType", "sum");
      values.put(Long.toString(id), m.value());
    }
    return a;
  }

  private static void put(ObjectNode o, String name, ObjectNode v) {
    if (!v.isEmpty()) {
      o.set(name, v);
    }
  }
}
