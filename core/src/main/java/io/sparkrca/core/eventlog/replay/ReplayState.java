package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.AccumulableInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ExecutorResourceRequest;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ResourceInformation;
import io.sparkrca.core.model.ResourceProfileInfo;
import io.sparkrca.core.model.RuntimeInfo;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskResourceRequest;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The History Server's {@code AppStatusListener}, replay mode, ported: the same state changes on
 * the same events, so that the answers equal the History Server's. Where Spark writes an entity to
 * its store only at certain moments, this class keeps the entity's final state, which is what the
 * store holds once a replay finishes; jobs, whose state can change after their last write, keep
 * a published snapshot instead.
 */
final class ReplayState {
  static final String DRIVER = "driver";

  private final int maxTasksPerStage;
  /** An array, not a list: iterated twice per task without an iterator. */
  private final ReplayExtension[] extensions;
  final ReplayFacts facts;

  // Application listing (FsHistoryProvider's AppListingListener) and app info.
  String sparkVersion = "";
  /** The driver's exit code from the application end event (Spark 4.0+). */
  Optional<Integer> exitCode = Optional.empty();
  String appId;
  String appName;
  Optional<String> attemptId = Optional.empty();
  long startTime = -1;
  long endTime = -1;
  String sparkUser;
  boolean completed;
  private Map<String, String> driverLogs;
  private Map<String, String> driverAttributes;

  ApplicationEnvironmentInfo environment;
  private int defaultCpusPerTask = 1;

  // Live entities, keyed as in Spark.
  private final LiveStages liveStages = new LiveStages();
  private final Map<Integer, LiveJob> liveJobs = new LinkedHashMap<>();
  private final Map<String, LiveExecutor> liveExecutors = new LinkedHashMap<>();
  private final Map<String, LiveExecutor> deadExecutors = new HashMap<>();
  private final LongObjectMap<LiveTaskRef> liveTasks = new LongObjectMap<>();
  /** Refs of ended tasks, reused for tasks that start (at most the peak of running tasks). */
  private final ArrayDeque<LiveTaskRef> freeTaskRefs = new ArrayDeque<>();
  /** The task table of the last task event: stages run one or a few at a time. */
  private TaskTable lastTable;
  /** Scratch for {@link #writeTaskInfo}. */
  private final long[] infoValues = new long[TaskTable.INFO_COLUMNS];
  private final Map<Integer, LiveRdd> liveRdds = new TreeMap<>();
  private final Map<Integer, ResourceProfileInfo> resourceProfiles = new TreeMap<>();

  // The "store": the latest entity per key.
  final TreeMap<Long, LiveStage> stages = new TreeMap<>();
  final Map<Integer, LiveJob> jobs = new TreeMap<>();
  final Map<String, LiveExecutor> executors = new TreeMap<>();
  final Map<Long, TaskTable> taskTables = new HashMap<>();
  final Map<Integer, LiveRdd> rdds = new TreeMap<>();
  final Map<String, MiscProcess> processes = new TreeMap<>();

  ReplayState(int maxTasksPerStage, List<ReplayExtension> extensions, ReplayFacts facts) {
    this.maxTasksPerStage = maxTasksPerStage;
    this.extensions = extensions.toArray(new ReplayExtension[0]);
    this.facts = facts;
  }

  static long key(int stageId, int attemptId) {
    return ((long) stageId << 32) | (attemptId & 0xffffffffL);
  }

  List<ResourceProfileInfo> resourceProfiles() {
    return new ArrayList<>(resourceProfiles.values());
  }

  // ---------------------------------------------------------------- application

  void onLogStart(String version) {
    sparkVersion = version == null ? "" : version;
  }

  void onApplicationStart(JsonNode e, long line) {
    if (appName != null) {
      facts.inconsistent("application start events after the first", line);
    }
    appName = Json.requiredString(e, "App Name");
    appId = Json.optText(e, "App ID").orElse(null);
    startTime = Json.requiredLong(e, "Timestamp");
    sparkUser = Json.requiredString(e, "User");
    attemptId = Json.optText(e, "App Attempt ID");
    if (Json.present(e.get("Driver Logs"))) {
      driverLogs = Json.stringMap(e.get("Driver Logs"));
      driverAttributes = Json.stringMap(e.get("Driver Attributes"));
      LiveExecutor driver = liveExecutors.get(DRIVER);
      if (driver != null) {
        driver.executorLogs = driverLogs;
        driver.attributes = driverAttributes;
      }
    }
  }

  void onApplicationEnd(JsonNode e, long line) {
    if (completed) {
      facts.inconsistent("application end events after the first", line);
    }
    endTime = Json.requiredLong(e, "Timestamp");
    completed = true;
    JsonNode exit = e.get("ExitCode");
    exitCode = exit != null && exit.canConvertToInt() ? Optional.of(exit.intValue()) : Optional.empty();
  }

  void onEnvironmentUpdate(JsonNode e) {
    Map<String, String> jvm = Json.stringMap(e.get("JVM Information"));
    RuntimeInfo runtime =
        new RuntimeInfo(
            Optional.ofNullable(jvm.get("Java Version")),
            Optional.ofNullable(jvm.get("Java Home")),
            Optional.ofNullable(jvm.get("Scala Version")));
    Map<String, String> spark = Json.stringMap(e.get("Spark Properties"));
    environment =
        new ApplicationEnvironmentInfo(
            runtime,
            pairs(spark),
            pairs(Json.stringMap(e.get("Hadoop Properties"))),
            pairs(Json.stringMap(e.get("System Properties"))),
            pairs(Json.stringMap(e.get("Metrics Properties"))),
            pairs(Json.stringMap(e.get("Classpath Entries"))),
            List.of());
    String cpus = spark.get("spark.task.cpus");
    if (cpus != null) {
      try {
        defaultCpusPerTask = Integer.parseInt(cpus.trim());
      } catch (NumberFormatException ignored) {
        facts.note("spark.task.cpus is not a number ('" + cpus + "'); assumed 1");
      }
    }
  }

  private static List<Map.Entry<String, String>> pairs(Map<String, String> m) {
    List<Map.Entry<String, String>> out = new ArrayList<>(m.size());
    for (Map.Entry<String, String> e : m.entrySet()) {
      out.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()));
    }
    return out;
  }

  void onResourceProfileAdded(JsonNode e) {
    int id = Json.requiredInt(e, "Resource Profile Id");
    Map<String, ExecutorResourceRequest> execReqs = new LinkedHashMap<>();
    JsonNode er = e.get("Executor Resource Requests");
    if (Json.present(er)) {
      for (Iterator<Map.Entry<String, JsonNode>> it = er.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        JsonNode r = f.getValue();
        execReqs.put(
            f.getKey(),
            new ExecutorResourceRequest(
                Json.requiredString(r, "Resource Name"),
                Json.requiredLong(r, "Amount"),
                Json.optText(r, "Discovery Script").orElse(""),
                Json.optText(r, "Vendor").orElse("")));
      }
    }
    Map<String, TaskResourceRequest> taskReqs = new LinkedHashMap<>();
    JsonNode tr = e.get("Task Resource Requests");
    if (Json.present(tr)) {
      for (Iterator<Map.Entry<String, JsonNode>> it = tr.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        JsonNode r = f.getValue();
        JsonNode amount = r.get("Amount");
        if (!Json.present(amount) || !amount.isNumber()) {
          throw new BadEventException("task resource 'Amount' should be a number");
        }
        taskReqs.put(
            f.getKey(), new TaskResourceRequest(Json.requiredString(r, "Resource Name"), amount.doubleValue()));
      }
    }
    resourceProfiles.put(id, new ResourceProfileInfo(id, execReqs, taskReqs));
  }

  void onMiscellaneousProcessAdded(JsonNode e) {
    String id = Json.requiredString(e, "processId");
    long time = Json.requiredLong(e, "time");
    JsonNode info = e.get("info");
    MiscProcess p = processes.computeIfAbsent(id, k -> new MiscProcess(id, time));
    p.hostPort = Json.optText(info, "hostPort").orElse(null);
    p.totalCores = Json.optInt(info, "cores", 0);
    p.processLogs = Json.stringMap(Json.field(info, "logUrlInfo"));
    p.isActive = true;
  }

  // ---------------------------------------------------------------- executors

  private LiveExecutor getOrCreateExecutor(String id, long addTime) {
    LiveExecutor exec = liveExecutors.get(id);
    if (exec == null) {
      exec = new LiveExecutor(id, addTime);
      liveExecutors.put(id, exec);
      executors.put(id, exec);
    }
    return exec;
  }

  void onExecutorAdded(JsonNode e) {
    long time = Json.requiredLong(e, "Timestamp");
    String id = Json.requiredId(e, "Executor ID");
    JsonNode info = e.get("Executor Info");
    if (!Json.present(info)) {
      throw new BadEventException("executor added without 'Executor Info'");
    }
    LiveExecutor exec = getOrCreateExecutor(id, time);
    exec.host = Json.requiredString(info, "Host");
    exec.isActive = true;
    exec.totalCores = Json.requiredInt(info, "Total Cores");
    int rpId = Json.optInt(info, "Resource Profile Id", 0);
    ResourceProfileInfo rp = resourceProfiles.get(rpId);
    int cpusPerTask = defaultCpusPerTask;
    if (rp != null && rp.taskResources().containsKey("cpus")) {
      cpusPerTask = (int) rp.taskResources().get("cpus").amount();
    }
    // The History Server never knows a profile's core limit when it replays (Spark checks
    // isCoresLimitKnown before computing it), so the task slots are cores over cpus per task.
    exec.maxTasks = exec.totalCores / Math.max(1, cpusPerTask);
    exec.executorLogs = Json.stringMap(info.get("Log Urls"));
    exec.attributes = Json.stringMap(info.get("Attributes"));
    exec.resources = resources(info.get("Resources"));
    exec.resourceProfileId = rpId;
    facts.executorAdded(id, exec.host, exec.totalCores, time);
  }

  private static Map<String, ResourceInformation> resources(JsonNode n) {
    Map<String, ResourceInformation> m = new LinkedHashMap<>();
    if (!Json.present(n)) {
      return m;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      List<String> addresses = new ArrayList<>();
      JsonNode a = f.getValue().get("addresses");
      if (Json.present(a)) {
        a.forEach(x -> addresses.add(x.asText()));
      }
      m.put(f.getKey(), new ResourceInformation(Json.optText(f.getValue(), "name").orElse(f.getKey()), addresses));
    }
    return m;
  }

  void onExecutorRemoved(JsonNode e, long line) {
    long time = Json.requiredLong(e, "Timestamp");
    String id = Json.requiredId(e, "Executor ID");
    String reason = Json.field(e, "Removed Reason") == null ? null : Json.requiredString(e, "Removed Reason");
    facts.executorRemoved(id, reason, time, line);
    LiveExecutor exec = liveExecutors.remove(id);
    if (exec == null) {
      return;
    }
    exec.isActive = false;
    exec.removeTime = time;
    exec.removeReason = reason;
    exec.removedAtLine = line;
    for (LiveRdd rdd : liveRdds.values()) {
      rdd.removeDistribution(id);
      rdd.removeExecutorFromPartitions(id);
    }
    if (isExecutorActiveForLiveStages(exec)) {
      deadExecutors.put(id, exec);
    }
  }

  private boolean isExecutorActiveForLiveStages(LiveExecutor exec) {
    for (LiveStage stage : liveStages.values()) {
      if (stage.info.submissionTime().orElse(0L) < exec.removeTime) {
        return true;
      }
    }
    return false;
  }

  void onBlockManagerAdded(JsonNode e) {
    JsonNode bm = e.get("Block Manager ID");
    if (!Json.present(bm)) {
      throw new BadEventException("block manager added without 'Block Manager ID'");
    }
    String execId = Json.requiredId(bm, "Executor ID");
    long time = Json.optLong(e, "Timestamp", -1L);
    LiveExecutor exec = getOrCreateExecutor(execId, time);
    exec.hostPort = Json.requiredString(bm, "Host") + ":" + Json.requiredInt(bm, "Port");
    Optional<Long> onHeap = Json.optLong(e, "Maximum Onheap Memory");
    if (onHeap.isPresent()) {
      exec.totalOnHeap = onHeap.get();
      exec.totalOffHeap = Json.optLong(e, "Maximum Offheap Memory", 0L);
      exec.usedOnHeap = 0;
      exec.usedOffHeap = 0;
    }
    exec.isActive = true;
    exec.maxMemory = Json.requiredLong(e, "Maximum Memory");
    if (DRIVER.equals(execId) && driverLogs != null) {
      exec.executorLogs = driverLogs;
      exec.attributes = driverAttributes;
    }
  }

  void onExecutorExclusion(String executorId, boolean excluded) {
    LiveExecutor exec = liveExecutors.get(executorId);
    if (exec != null) {
      exec.isExcluded = excluded;
    }
  }

  void onNodeExclusion(String host, boolean excluded) {
    for (LiveExecutor exec : liveExecutors.values()) {
      if (host.equals(exec.hostname()) && !DRIVER.equals(exec.executorId)) {
        exec.isExcluded = excluded;
      }
    }
  }

  void onExecutorExcludedForStage(int stageId, int attemptId, String executorId) {
    LiveStage stage = liveStages.get(key(stageId, attemptId));
    if (stage != null) {
      setStageExcluded(stage, List.of(executorId));
    }
    LiveExecutor exec = liveExecutors.get(executorId);
    if (exec != null) {
      exec.excludedInStages.add(stageId);
    }
  }

  void onNodeExcludedForStage(int stageId, int attemptId, String host) {
    LiveStage stage = liveStages.get(key(stageId, attemptId));
    if (stage != null) {
      List<String> ids = new ArrayList<>();
      for (LiveExecutor exec : liveExecutors.values()) {
        if (host.equals(exec.host) && !DRIVER.equals(exec.executorId)) {
          ids.add(exec.executorId);
        }
      }
      setStageExcluded(stage, ids);
    }
    for (LiveExecutor exec : liveExecutors.values()) {
      if (host.equals(exec.hostname()) && !DRIVER.equals(exec.executorId)) {
        exec.excludedInStages.add(stageId);
      }
    }
  }

  private static void setStageExcluded(LiveStage stage, List<String> executorIds) {
    for (String id : executorIds) {
      stage.executorSummary(id).excluded = true;
    }
    stage.excludedExecutors.addAll(executorIds);
  }

  // ---------------------------------------------------------------- jobs and stages

  private LiveStage getOrCreateStage(StageInfo info) {
    long k = key(info.stageId(), info.attemptId());
    LiveStage stage = liveStages.get(k);
    if (stage == null) {
      stage = new LiveStage(info);
      liveStages.put(k, stage);
      stages.put(k, stage);
    }
    stage.info = info;
    return stage;
  }

  void onJobStart(JsonNode e, long line) {
    int jobId = Json.requiredInt(e, "Job ID");
    if (jobs.containsKey(jobId)) {
      facts.inconsistent("job start events for a job already started", line);
    }
    long time = Json.optLong(e, "Submission Time", -1L);
    List<Integer> stageIds = Json.intList(e.get("Stage IDs"));
    Map<String, String> props = Json.stringMap(e.get("Properties"));
    List<StageInfo> infos = new ArrayList<>();
    JsonNode si = e.get("Stage Infos");
    if (Json.present(si)) {
      for (JsonNode n : si) {
        infos.add(StageInfos.parse(n));
      }
    } else {
      for (int id : stageIds) {
        infos.add(
            new StageInfo(id, 0, "unknown", 0, List.of(), List.of(), List.of(), "unknown",
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), 0, 0, 0, false, 0));
      }
    }
    int numTasks = 0;
    StageInfo last = null;
    for (StageInfo info : infos) {
      if (info.completionTime().isEmpty()) {
        numTasks += info.numTasks();
      }
      if (last == null || info.stageId() >= last.stageId()) {
        last = info;
      }
    }
    List<String> tags = new ArrayList<>();
    String tagText = props.get("spark.job.tags");
    if (tagText != null) {
      TreeSet<String> sorted = new TreeSet<>(Arrays.asList(tagText.split(",")));
      sorted.remove("");
      tags.addAll(sorted);
    }
    Optional<Long> sqlId = Optional.empty();
    String sqlText = props.get("spark.sql.execution.id");
    if (sqlText != null) {
      try {
        sqlId = Optional.of(Long.parseLong(sqlText.trim()));
      } catch (NumberFormatException ignored) {
        // Spark would fail here; a bad id only loses the job's link to its query.
      }
    }
    LiveJob job =
        new LiveJob(
            jobId,
            last == null ? "" : last.name(),
            Optional.ofNullable(props.get("spark.job.description")),
            time > 0 ? Optional.of(Instant.ofEpochMilli(time)) : Optional.empty(),
            stageIds,
            Optional.ofNullable(props.get("spark.jobGroup.id")),
            tags,
            numTasks,
            sqlId);
    liveJobs.put(jobId, job);
    jobs.put(jobId, job);
    for (StageInfo info : infos) {
      LiveStage stage = getOrCreateStage(info);
      stage.jobs.add(job);
      stage.jobIds.add(jobId);
    }
    facts.jobStarted(jobId, line);
    for (ReplayExtension x : extensions) {
      x.onJobStart(jobId, stageIds, infos, props, time);
    }
  }

  void onJobEnd(JsonNode e, long line) {
    int jobId = Json.requiredInt(e, "Job ID");
    long time = Json.optLong(e, "Completion Time", -1L);
    JsonNode result = e.get("Job Result");
    String resultName = Json.present(result) ? Json.optText(result, "Result").orElse("") : "";
    boolean succeeded = "JobSucceeded".equals(resultName);
    facts.jobEnded(jobId, succeeded, succeeded ? "" : jobError(result), time, line);
    LiveJob job = liveJobs.remove(jobId);
    if (job == null) {
      facts.inconsistent(jobs.containsKey(jobId) ? "job end events for a job already ended"
          : "job end events for a job whose start is not in the log", line);
    }
    if (job != null) {
      for (Iterator<LiveStage> it = liveStages.iterator(); it.hasNext(); ) {
        LiveStage stage = it.next();
        if (job.stageIds.contains(stage.info.stageId()) && stage.status == StageStatus.PENDING) {
          stage.status = StageStatus.SKIPPED;
          job.skippedStages.add(stage.info.stageId());
          job.skippedTasks += stage.info.numTasks();
          it.remove();
        }
      }
      job.status = succeeded ? JobExecutionStatus.SUCCEEDED : JobExecutionStatus.FAILED;
      job.completionTime = time > 0 ? Optional.of(Instant.ofEpochMilli(time)) : Optional.empty();
      job.publish();
    }
    for (ReplayExtension x : extensions) {
      x.onJobEnd(jobId, succeeded, time);
    }
  }

  /** A failed job's exception as text: its message, then one "at" line per frame (at most 60). */
  private static String jobError(JsonNode result) {
    JsonNode ex = result == null ? null : result.get("Exception");
    if (!Json.present(ex) || !ex.isObject()) {
      return "";
    }
    StringBuilder sb = new StringBuilder(Json.optText(ex, "Message").orElse(""));
    JsonNode frames = ex.get("Stack Trace");
    if (Json.present(frames) && frames.isArray()) {
      int n = 0;
      for (JsonNode f : frames) {
        if (n++ >= 60) {
          sb.append("\n\t...");
          break;
        }
        sb.append("\n\tat ").append(Json.optText(f, "Declaring Class").orElse("?")).append('.')
            .append(Json.optText(f, "Method Name").orElse("?")).append('(')
            .append(Json.optText(f, "File Name").orElse("Unknown Source"));
        long lineNumber = Json.optLong(f, "Line Number", -1L);
        if (lineNumber >= 0) {
          sb.append(':').append(lineNumber);
        }
        sb.append(')');
      }
    }
    return sb.toString();
  }

  void onStageSubmitted(JsonNode e, long line) {
    StageInfo info = StageInfos.parse(requiredObject(e, "Stage Info"));
    Map<String, String> props = Json.stringMap(e.get("Properties"));
    LiveStage stage = getOrCreateStage(info);
    stage.status = StageStatus.ACTIVE;
    String pool = props.get("spark.scheduler.pool");
    stage.schedulingPool = pool == null ? "default" : pool;
    List<LiveJob> stageJobs = new ArrayList<>();
    for (LiveJob job : liveJobs.values()) {
      if (job.stageIds.contains(info.stageId())) {
        stageJobs.add(job);
      }
    }
    stage.jobs = stageJobs;
    stage.jobIds = new java.util.HashSet<>();
    for (LiveJob job : stageJobs) {
      stage.jobIds.add(job.jobId);
      job.completedStages.remove(info.stageId());
      job.activeStages++;
    }
    stage.description = Optional.ofNullable(props.get("spark.job.description"));
    for (RddInfo rdd : info.rddInfos()) {
      if (rdd.storageLevel().isValid()) {
        LiveRdd live = liveRdds.computeIfAbsent(rdd.id(), k -> new LiveRdd(rdd));
        rdds.put(rdd.id(), live);
      }
    }
    facts.stageSubmitted(info.stageId(), info.attemptId(), line);
    for (ReplayExtension x : extensions) {
      x.onStageSubmitted(info.stageId(), info.attemptId(), props);
    }
  }

  void onStageCompleted(JsonNode e, long line) {
    StageInfo info = StageInfos.parse(requiredObject(e, "Stage Info"));
    facts.stageCompleted(info, line);
    long k = key(info.stageId(), info.attemptId());
    LiveStage stage = liveStages.get(k);
    if (stage == null) {
      facts.inconsistent("stage completion events for a stage attempt not running (ended already, or never submitted)", line);
    }
    if (stage != null) {
      stage.info = info;
      if (info.failureReason().isPresent()) {
        stage.status = StageStatus.FAILED;
      } else if (info.submissionTime().isPresent()) {
        stage.status = StageStatus.COMPLETE;
      } else {
        stage.status = StageStatus.SKIPPED;
      }
      for (LiveJob job : stage.jobs) {
        switch (stage.status) {
          case COMPLETE:
            job.completedStages.add(info.stageId());
            break;
          case SKIPPED:
            job.skippedStages.add(info.stageId());
            job.skippedTasks += info.numTasks();
            break;
          default:
            job.failedStages++;
        }
        job.activeStages--;
      }
      for (String execId : stage.excludedExecutors) {
        LiveExecutor exec = liveExecutors.get(execId);
        if (exec != null) {
          exec.excludedInStages.remove(info.stageId());
        }
      }
      if (stage.activeTasks == 0) {
        liveStages.remove(k);
      }
    }
    deadExecutors.values().removeIf(exec -> !isExecutorActiveForLiveStages(exec));
  }

  private static JsonNode requiredObject(JsonNode e, String name) {
    JsonNode n = e.get(name);
    if (!Json.present(n) || !n.isObject()) {
      throw new BadEventException("missing '" + name + "'");
    }
    return n;
  }

  // ---------------------------------------------------------------- tasks

  private TaskTable table(int stageId, int attemptId, LiveStage stage) {
    TaskTable t = lastTable;
    if (t != null && t.stageId == stageId && t.stageAttemptId == attemptId) {
      return t;
    }
    long k = key(stageId, attemptId);
    t = taskTables.get(k);
    if (t == null) {
      // Sized for the stage's tasks up front, so its columns are not copied as they grow.
      int expected = stage == null ? 0 : stage.info.numTasks();
      t = new TaskTable(stageId, attemptId, maxTasksPerStage, Math.min(expected, maxTasksPerStage));
      taskTables.put(k, t);
    }
    lastTable = t;
    return t;
  }

  void onTaskStart(TaskStartEvent e, long line) {
    TaskInfoScratch info = e.info;
    LiveStage stage = liveStages.get(key(e.stageId, e.stageAttemptId));
    TaskTable table = table(e.stageId, e.stageAttemptId, stage);
    LiveTaskRef existing = liveTasks.get(info.taskId);
    if (existing != null) {
      facts.inconsistent("task start events for a task already running", line);
    }
    int row = existing != null && existing.table == table ? existing.row : table.addRow();
    if (row >= 0) {
      writeTaskInfo(table, row, info);
      table.status(row, info.status());
      table.duration.set(row, 0);
    }
    LiveTaskRef ref = existing != null ? existing : freeTaskRefs.poll();
    if (ref == null) {
      ref = new LiveTaskRef();
    }
    ref.set(table, row, info.launchTime);
    if (ref != existing) {
      liveTasks.put(info.taskId, ref);
    }

    if (stage != null) {
      if (info.speculative) {
        stage.speculation().numActiveTasks++;
        stage.speculation().numTasks++;
      }
      stage.activeTasks++;
      stage.firstLaunchTime = Math.min(stage.firstLaunchTime, info.launchTime);
      List<LiveJob> jobs = stage.jobs;
      for (int j = 0, n = jobs.size(); j < n; j++) {
        jobs.get(j).activeTasks++;
      }
    }
    LiveExecutor exec = liveExecutors.get(info.executorId);
    if (exec != null) {
      exec.activeTasks++;
      exec.totalTasks++;
    }
    for (ReplayExtension x : extensions) {
      x.onTaskStart(e.stageId, e.stageAttemptId, info);
    }
  }

  private void writeTaskInfo(TaskTable t, int row, TaskInfoScratch info) {
    long[] v = infoValues;
    v[TaskTable.INFO_TASK_ID] = info.taskId;
    v[TaskTable.INFO_INDEX] = info.index;
    v[TaskTable.INFO_ATTEMPT] = info.attempt;
    v[TaskTable.INFO_PARTITION_ID] = info.partitionId;
    v[TaskTable.INFO_LAUNCH_TIME] = info.launchTime;
    v[TaskTable.INFO_RESULT_FETCH_START] = info.gettingResult() ? info.gettingResultTime : -1L;
    v[TaskTable.INFO_EXECUTOR] = facts.strings.id(info.executorId);
    v[TaskTable.INFO_HOST] = facts.strings.id(info.host);
    v[TaskTable.INFO_LOCALITY] = facts.strings.id(info.locality);
    t.setInfo(row, v);
    t.speculative.set(row, info.speculative);
  }

  void onTaskEnd(TaskEndEvent e, long line) {
    if (e.infoMissing) {
      return;
    }
    TaskInfoScratch info = e.info;
    TaskEndReason reason = e.reason;
    facts.taskEnded(e, line);
    LiveTaskRef task = liveTasks.remove(info.taskId);
    if (task == null && !reason.isResubmitted()) {
      // A resubmitted task's second end is Spark's own; any other end without a running task is not.
      facts.inconsistent("task end events without the task's start (a start lost or an end repeated)", line);
    }
    long[] delta = null;
    if (task != null) {
      delta = e.metrics;
      if (task.partialMetrics != null) {
        delta = e.metrics.clone();
        for (int i = 0; i < Metrics.COUNT; i++) {
          delta[i] -= task.partialMetrics[i];
        }
      }
      if (task.row >= 0) {
        TaskTable t = task.table;
        int row = task.row;
        writeTaskInfo(t, row, info);
        t.status(row, info.status());
        t.duration.set(row, info.finished() ? info.duration() : facts.lastUpdateTime - info.launchTime);
        t.hasMetrics.set(row, e.metrics[Metrics.EXECUTOR_DESERIALIZE_TIME] >= 0);
        t.setMetrics(row, e.metrics);
        t.setRareData(row, reason.isSuccess() ? null : reason.errorMessage(), info.userAccumulables);
      }
      task.clear();
      freeTaskRefs.push(task);
    }

    int completedDelta = 0;
    int failedDelta = 0;
    int killedDelta = 0;
    int activeDelta = 1;
    if (reason.isSuccess()) {
      completedDelta = 1;
    } else if (reason.isKilled() || reason.isCommitDenied()) {
      killedDelta = 1;
    } else if (reason.isResubmitted()) {
      failedDelta = 1;
      activeDelta = 0;
    } else {
      failedDelta = 1;
    }

    LiveStage stage = liveStages.get(key(e.stageId, e.stageAttemptId));
    if (stage != null) {
      if (delta != null) {
        Metrics.add(stage.metrics, delta);
      }
      stage.activeTasks -= activeDelta;
      stage.completedTasks += completedDelta;
      if (completedDelta > 0 && info.index >= 0) {
        stage.completedIndices.set(info.index);
      }
      stage.failedTasks += failedDelta;
      stage.killedTasks += killedDelta;
      if (killedDelta > 0) {
        stage.killedSummary.merge(killedKey(reason), 1, Integer::sum);
      }
      LiveExecutorStageSummary es = stage.executorSummary(info.executorId);
      stage.peak.update(e.executorMetrics);
      es.peak.update(e.executorMetrics);
      boolean removeStage =
          stage.activeTasks == 0
              && (stage.status == StageStatus.COMPLETE || stage.status == StageStatus.FAILED);
      List<LiveJob> jobs = stage.jobs;
      for (int j = 0, n = jobs.size(); j < n; j++) {
        LiveJob job = jobs.get(j);
        job.activeTasks -= activeDelta;
        job.completedTasks += completedDelta;
        if (completedDelta > 0) {
          job.addCompletedIndex(e.stageId, info.index);
        }
        job.failedTasks += failedDelta;
        job.killedTasks += killedDelta;
        if (killedDelta > 0) {
          job.killedSummary.merge(killedKey(reason), 1, Integer::sum);
        }
        if (removeStage) {
          job.publish();
        }
      }
      es.taskTime += info.duration();
      es.succeededTasks += completedDelta;
      es.failedTasks += failedDelta;
      es.killedTasks += killedDelta;
      if (delta != null) {
        Metrics.add(es.metrics, delta);
      }
      if (info.speculative) {
        LiveStage.SpeculationCounts s = stage.speculation();
        s.numActiveTasks--;
        s.numCompletedTasks += completedDelta;
        s.numFailedTasks += failedDelta;
        s.numKilledTasks += killedDelta;
      }
      if (removeStage) {
        liveStages.remove(key(e.stageId, e.stageAttemptId));
      }
    }

    LiveExecutor exec = liveExecutors.get(info.executorId);
    if (exec != null) {
      exec.activeTasks -= activeDelta;
      exec.completedTasks += completedDelta;
      exec.failedTasks += failedDelta;
      exec.totalDuration += info.duration();
      exec.peak.update(e.executorMetrics);
      if (!reason.isResubmitted()) {
        exec.totalGcTime += e.metrics[Metrics.JVM_GC_TIME];
        exec.totalInputBytes += e.metrics[Metrics.INPUT_BYTES];
        exec.totalShuffleRead += e.metrics[Metrics.SHUFFLE_LOCAL_BYTES] + e.metrics[Metrics.SHUFFLE_REMOTE_BYTES];
        exec.totalShuffleWrite += e.metrics[Metrics.SHUFFLE_WRITE_BYTES];
      }
    }
    for (ReplayExtension x : extensions) {
      x.onTaskEnd(e.stageId, e.stageAttemptId, info);
    }
  }

  private static String killedKey(TaskEndReason reason) {
    return reason.isKilled() ? reason.killReasonOrDefault() : reason.commitDeniedText();
  }

  void onExecutorMetricsUpdate(JsonNode e) {
    String execId = Json.requiredId(e, "Executor ID");
    JsonNode updates = e.get("Metrics Updated");
    if (Json.present(updates)) {
      for (JsonNode u : updates) {
        long taskId = Json.requiredLong(u, "Task ID");
        LiveTaskRef task = liveTasks.get(taskId);
        if (task == null) {
          continue;
        }
        long[] fresh = AccumulatorMetrics.fromAccumulatorUpdates(u.get("Accumulator Updates"));
        long[] delta = fresh.clone();
        if (task.partialMetrics != null) {
          for (int i = 0; i < Metrics.COUNT; i++) {
            delta[i] -= task.partialMetrics[i];
          }
        }
        task.partialMetrics = fresh;
        LiveStage stage =
            liveStages.get(key(Json.requiredInt(u, "Stage ID"), Json.requiredInt(u, "Stage Attempt ID")));
        if (stage != null) {
          Metrics.add(stage.metrics, delta);
          Metrics.add(stage.executorSummary(execId).metrics, delta);
        }
      }
    }
    JsonNode peaks = e.get("Executor Metrics Updated");
    if (Json.present(peaks)) {
      for (JsonNode u : peaks) {
        long[] sample = ExecutorMetricsJson.parse(u.get("Executor Metrics"));
        LiveExecutor exec = liveExecutors.get(execId);
        if (exec != null) {
          exec.peak.update(sample);
        }
        updateStagePeaks(
            Json.requiredInt(u, "Stage ID"), Json.requiredInt(u, "Stage Attempt ID"), execId, sample);
      }
    }
  }

  void onStageExecutorMetrics(JsonNode e) {
    String execId = Json.requiredId(e, "Executor ID");
    long[] sample = ExecutorMetricsJson.parse(e.get("Executor Metrics"));
    updateExecutorPeak(execId, sample);
    updateStagePeaks(
        Json.requiredInt(e, "Stage ID"), Json.requiredInt(e, "Stage Attempt ID"), execId, sample);
  }

  /** The same event, parsed by {@link TaskEventScanner}. */
  void onStageExecutorMetrics(StageExecutorMetricsEvent e) {
    updateExecutorPeak(e.executorId, e.metrics);
    updateStagePeaks(e.stageId, e.stageAttemptId, e.executorId, e.metrics);
  }

  private void updateExecutorPeak(String execId, long[] sample) {
    LiveExecutor exec = liveExecutors.get(execId);
    if (exec == null) {
      exec = deadExecutors.get(execId);
    }
    if (exec != null) {
      exec.peak.update(sample);
    }
  }

  private void updateStagePeaks(int stageId, int attemptId, String execId, long[] sample) {
    LiveStage stage = liveStages.get(key(stageId, attemptId));
    if (stage != null) {
      stage.peak.update(sample);
      stage.executorSummary(execId).peak.update(sample);
    }
  }

  // ---------------------------------------------------------------- storage

  void onBlockUpdated(JsonNode e) {
    JsonNode info = e.get("Block Updated Info");
    if (!Json.present(info)) {
      throw new BadEventException("block update without 'Block Updated Info'");
    }
    String blockId = Json.requiredString(info, "Block ID");
    JsonNode bm = info.get("Block Manager ID");
    String execId = Json.requiredId(bm, "Executor ID");
    StorageLevel level = StageInfos.storageLevel(info.get("Storage Level"));
    long memSize = Json.requiredLong(info, "Memory Size");
    long diskSize = Json.requiredLong(info, "Disk Size");
    long diskDelta = diskSize * (level.useDisk() ? 1 : -1);
    long memoryDelta = memSize * (level.useMemory() ? 1 : -1);
    LiveExecutor exec = liveExecutors.get(execId);
    if (blockId.startsWith("rdd_")) {
      int rddId;
      try {
        rddId = Integer.parseInt(blockId.substring(4, blockId.indexOf('_', 4)));
      } catch (RuntimeException ex) {
        throw new BadEventException("malformed RDD block id '" + blockId + "'");
      }
      if (exec != null) {
        updateExecutorMemory(exec, level, memoryDelta, diskDelta);
      }
      LiveRdd rdd = liveRdds.get(rddId);
      int rddBlocksDelta = 0;
      if (rdd != null) {
        rddBlocksDelta = rdd.updateBlock(blockId, execId, exec, level, memoryDelta, diskDelta);
      }
      if (exec != null) {
        exec.rddBlocks += rddBlocksDelta;
      }
    } else if (blockId.startsWith("broadcast_")) {
      if (exec != null) {
        updateExecutorMemory(exec, level, memoryDelta, diskDelta);
      }
    }
  }

  private static void updateExecutorMemory(
      LiveExecutor exec, StorageLevel level, long memoryDelta, long diskDelta) {
    if (exec.hasMemoryInfo()) {
      if (level.useOffHeap()) {
        exec.usedOffHeap = Math.max(0, exec.usedOffHeap + memoryDelta);
      } else {
        exec.usedOnHeap = Math.max(0, exec.usedOnHeap + memoryDelta);
      }
    }
    exec.memoryUsed = Math.max(0, exec.memoryUsed + memoryDelta);
    exec.diskUsed = Math.max(0, exec.diskUsed + diskDelta);
  }

  void onUnpersistRdd(JsonNode e) {
    int rddId = Json.requiredInt(e, "RDD ID");
    LiveRdd rdd = liveRdds.remove(rddId);
    if (rdd != null) {
      for (String execId : rdd.partitionExecutors()) {
        LiveExecutor exec = liveExecutors.get(execId);
        if (exec != null) {
          exec.rddBlocks--;
        }
      }
      for (LiveRdd.Distribution d : rdd.distributions()) {
        LiveExecutor exec = liveExecutors.get(d.executorId);
        if (exec != null) {
          if (exec.hasMemoryInfo()) {
            if (rdd.info.storageLevel().useOffHeap()) {
              exec.usedOffHeap = Math.max(0, exec.usedOffHeap - d.offHeapUsed);
            } else {
              exec.usedOnHeap = Math.max(0, exec.usedOnHeap - d.onHeapUsed);
            }
          }
          exec.memoryUsed = Math.max(0, exec.memoryUsed - d.memoryUsed);
          exec.diskUsed = Math.max(0, exec.diskUsed - d.diskUsed);
        }
      }
    }
    rdds.remove(rddId);
  }

  // ---------------------------------------------------------------- end of log

  /**
   * What the History Server's final flush writes: tasks still running get their running time up
   * to {@code lastUpdateTime}; live jobs publish their state.
   */
  void finish(long lastUpdateTime) {
    liveTasks.forEachValue(
        t -> {
          if (t.row >= 0) {
            t.table.duration.set(t.row, lastUpdateTime - t.launchTime);
            if (t.partialMetrics != null) {
              t.table.hasMetrics.set(t.row, t.partialMetrics[Metrics.EXECUTOR_DESERIALIZE_TIME] >= 0);
              for (int i = 0; i < Metrics.COUNT; i++) {
                t.table.metrics[i].set(t.row, t.partialMetrics[i]);
              }
            }
          }
        });
    for (LiveJob job : liveJobs.values()) {
      job.publish();
    }
    for (ReplayExtension x : extensions) {
      x.finish(lastUpdateTime);
    }
  }

  boolean hasLiveTasks() {
    return liveTasks.size() > 0;
  }

  int liveTaskCount() {
    return liveTasks.size();
  }

  /**
   * Where a running task's row lives, and metrics reported for it before it ended. Reused once
   * its task ends.
   */
  static final class LiveTaskRef {
    TaskTable table;
    int row;
    long launchTime;
    long[] partialMetrics;

    void set(TaskTable table, int row, long launchTime) {
      this.table = table;
      this.row = row;
      this.launchTime = launchTime;
      this.partialMetrics = null;
    }

    void clear() {
      table = null;
      partialMetrics = null;
    }
  }

  /**
   * The live stage attempts by key, in insertion order (iterations follow it, as Spark's do),
   * with the last looked-up entry remembered: every task event looks up its stage.
   */
  private static final class LiveStages {
    private final Map<Long, LiveStage> map = new LinkedHashMap<>();
    private long lastKey;
    private LiveStage last;

    LiveStage get(long key) {
      if (last != null && lastKey == key) {
        return last;
      }
      LiveStage s = map.get(key);
      if (s != null) {
        lastKey = key;
        last = s;
      }
      return s;
    }

    void put(long key, LiveStage stage) {
      map.put(key, stage);
      last = null;
    }

    void remove(long key) {
      map.remove(key);
      last = null;
    }

    Collection<LiveStage> values() {
      return Collections.unmodifiableCollection(map.values());
    }

    /** Iterates in insertion order; removing through the iterator is allowed. */
    Iterator<LiveStage> iterator() {
      Iterator<LiveStage> it = map.values().iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public LiveStage next() {
          return it.next();
        }

        @Override
        public void remove() {
          it.remove();
          last = null;
        }
      };
    }
  }

  /** A miscellaneous process (e.g. a YARN application master). */
  static final class MiscProcess {
    final String id;
    final long addTime;
    String hostPort;
    boolean isActive;
    int totalCores;
    Map<String, String> processLogs = Map.of();

    MiscProcess(String id, long addTime) {
      this.id = id;
      this.addTime = addTime;
    }
  }
}
