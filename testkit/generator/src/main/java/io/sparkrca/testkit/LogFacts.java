package io.sparkrca.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The facts the generator verifies a scenario against, read straight from an event log: tasks
 * with their end reasons and metrics, stage attempts, jobs, executors, SQL executions. It keeps
 * only what the fault checks and labels need.
 *
 * @param appId application id
 * @param appName application name
 * @param sparkVersion the version in {@code SparkListenerLogStart}
 * @param startTime application start (epoch ms), or -1
 * @param endTime application end (epoch ms), or -1 when the log has no end event
 * @param lines number of complete JSON lines read
 * @param truncatedLines lines that were not valid JSON (a log cut off mid-line has one)
 * @param tasks every task end, in log order
 * @param stages every stage attempt that completed (or was submitted, for incomplete logs)
 * @param jobs every job that ended
 * @param executors executors added and removed, by id
 * @param sql SQL executions by id
 * @param sparkProperties the Spark properties of the environment update
 * @param accumulators per accumulator id, the sum of the numeric task and driver updates
 * @param jobsStarted ids of every job with a start event, in log order (a job missing from
 *     {@code jobs} never ended)
 * @param lastEvent the {@code Event} of the last complete line
 * @param inProgress whether the log is still marked in progress: a file named {@code
 *     *.inprogress}, or a rolling directory whose {@code appstatus_*} file is
 * @param streamingQueries every run of a structured streaming query that started, in log order,
 *     with how it ended
 */
public record LogFacts(
    String appId,
    String appName,
    String sparkVersion,
    long startTime,
    long endTime,
    int lines,
    int truncatedLines,
    List<Task> tasks,
    List<StageAttempt> stages,
    List<Job> jobs,
    Map<String, Executor> executors,
    Map<Long, SqlExecution> sql,
    Map<String, String> sparkProperties,
    Map<Long, Long> accumulators,
    List<Integer> jobsStarted,
    String lastEvent,
    boolean inProgress,
    List<StreamingQueryRun> streamingQueries) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One finished task attempt. {@code reason} is Success, ExceptionFailure, FetchFailed, ... */
  public record Task(
      int stageId,
      int stageAttempt,
      long taskId,
      int index,
      int attempt,
      String executorId,
      long launchTime,
      long finishTime,
      String reason,
      String exceptionClass,
      String message,
      JsonNode endReason,
      long runTimeMs,
      long gcTimeMs,
      long memorySpilled,
      long diskSpilled,
      long shuffleWriteBytes,
      long shuffleWriteRecords,
      long shuffleWriteTimeNs,
      long shuffleReadBytes,
      long shuffleReadRecords,
      long inputRecords,
      long resultSize) {

    public long durationMs() {
      return finishTime - launchTime;
    }

    public boolean succeeded() {
      return "Success".equals(reason);
    }
  }

  /** One stage attempt. {@code failureReason} is null when it succeeded. */
  public record StageAttempt(
      int stageId, int attempt, String name, int numTasks, long submitted, long completed,
      String failureReason) {}

  /** One job: its stages, result ({@code JobSucceeded} or {@code JobFailed}) and times. */
  public record Job(
      int jobId, List<Integer> stageIds, Long sqlExecutionId, String result, String failureMessage,
      long submitted, long completed) {

    public long durationMs() {
      return submitted < 0 || completed < 0 ? 0 : completed - submitted;
    }
  }

  /** One executor: when it came and went, and why it went. */
  public record Executor(String id, int cores, long added, long removed, String removedReason) {}

  /**
   * One SQL execution: its plans (the initial one and every adaptive update) and error, if any.
   */
  public record SqlExecution(
      long id, String description, List<String> planDescriptions, List<JsonNode> planInfos,
      String errorMessage, long start, long end) {}

  /**
   * One run of a structured streaming query (a start and, if it ended, its termination).
   *
   * @param id the query's id, the same across restarts on one checkpoint
   * @param runId this run's id
   * @param name the query's name, or null
   * @param batches progress events of this run
   * @param terminated whether the log has its termination
   * @param exception the exception it terminated with, or null (stopped normally or still running)
   * @param errorClass Spark's error class of that exception, where the log has it (Spark 4), or null
   */
  public record StreamingQueryRun(
      String id, String runId, String name, int batches, boolean terminated, String exception, String errorClass) {}

  /** Reads all facts from one event log (a file or a rolling directory). */
  public static LogFacts read(Path log) throws IOException {
    Builder b = new Builder();
    EventLogFiles.forEachLine(log, b::accept);
    return b.build(EventLogFiles.inProgress(log));
  }

  /** The tasks of one stage attempt. */
  public List<Task> tasksOf(int stageId, int stageAttempt) {
    return tasks.stream().filter(t -> t.stageId() == stageId && t.stageAttempt() == stageAttempt).toList();
  }

  /** All failed task attempts. */
  public List<Task> failedTasks() {
    return tasks.stream().filter(t -> !t.succeeded()).toList();
  }

  /** Ids of the jobs that started and never ended, in log order. */
  public List<Integer> unfinishedJobs() {
    return jobsStarted.stream().filter(id -> jobs.stream().noneMatch(j -> j.jobId() == id)).toList();
  }

  /** Wall-clock duration of the application, or -1. */
  public long appDurationMs() {
    return startTime < 0 || endTime < 0 ? -1 : endTime - startTime;
  }

  /** The stage attempt that completed or was submitted, if any. */
  public StageAttempt stage(int stageId, int attempt) {
    return stages.stream().filter(s -> s.stageId() == stageId && s.attempt() == attempt).findFirst().orElse(null);
  }

  private static final class Builder {
    String appId;
    String appName;
    String version;
    long start = -1;
    long end = -1;
    int lines;
    int truncated;
    final List<Task> tasks = new ArrayList<>();
    final Map<String, StageAttempt> stages = new LinkedHashMap<>();
    final Map<Integer, List<Integer>> jobStages = new TreeMap<>();
    final Map<Integer, Long> jobSql = new TreeMap<>();
    final Map<Integer, Long> jobSubmitted = new TreeMap<>();
    final Map<Long, Long> accumulators = new TreeMap<>();
    final List<Job> jobs = new ArrayList<>();
    final Map<String, Executor> executors = new LinkedHashMap<>();
    final Map<Long, SqlExecution> sql = new TreeMap<>();
    final Map<String, String> props = new TreeMap<>();
    final List<Integer> jobsStarted = new ArrayList<>();
    String lastEvent;
    final Map<String, StreamingQueryRun> streaming = new LinkedHashMap<>();

    void accept(String line) {
      JsonNode e;
      try {
        e = JSON.readTree(line);
      } catch (JsonProcessingException ex) {
        truncated++;
        return;
      }
      lines++;
      String ev = e.path("Event").asText();
      lastEvent = ev;
      switch (ev) {
        case "SparkListenerLogStart" -> version = e.path("Spark Version").asText();
        case "SparkListenerApplicationStart" -> {
          appId = e.path("App ID").asText(null);
          appName = e.path("App Name").asText();
          start = e.path("Timestamp").asLong(-1);
        }
        case "SparkListenerApplicationEnd" -> end = e.path("Timestamp").asLong(-1);
        case "SparkListenerEnvironmentUpdate" ->
            e.path("Spark Properties").properties().forEach(f -> props.put(f.getKey(), f.getValue().asText()));
        case "SparkListenerExecutorAdded" -> {
          String id = e.path("Executor ID").asText();
          int cores = e.path("Executor Info").path("Total Cores").asInt();
          executors.put(id, new Executor(id, cores, e.path("Timestamp").asLong(), -1, null));
        }
        case "SparkListenerExecutorRemoved" -> {
          String id = e.path("Executor ID").asText();
          Executor old = executors.get(id);
          executors.put(id, new Executor(id, old == null ? 0 : old.cores(), old == null ? -1 : old.added(),
              e.path("Timestamp").asLong(), e.path("Removed Reason").asText()));
        }
        case "SparkListenerJobStart" -> {
          List<Integer> ids = new ArrayList<>();
          e.path("Stage IDs").forEach(n -> ids.add(n.asInt()));
          jobStages.put(e.path("Job ID").asInt(), ids);
          jobsStarted.add(e.path("Job ID").asInt());
          jobSubmitted.put(e.path("Job ID").asInt(), e.path("Submission Time").asLong(-1));
          JsonNode sqlId = e.path("Properties").path("spark.sql.execution.id");
          if (!sqlId.isMissingNode()) {
            jobSql.put(e.path("Job ID").asInt(), sqlId.asLong());
          }
        }
        case "SparkListenerJobEnd" -> {
          int id = e.path("Job ID").asInt();
          JsonNode r = e.path("Job Result");
          jobs.add(new Job(id, jobStages.getOrDefault(id, List.of()), jobSql.get(id), r.path("Result").asText(),
              r.path("Exception").path("Message").asText(null), jobSubmitted.getOrDefault(id, -1L),
              e.path("Completion Time").asLong(-1)));
        }
        case "SparkListenerStageSubmitted", "SparkListenerStageCompleted" -> {
          JsonNode si = e.path("Stage Info");
          StageAttempt s = new StageAttempt(si.path("Stage ID").asInt(), si.path("Stage Attempt ID").asInt(),
              si.path("Stage Name").asText(), si.path("Number of Tasks").asInt(),
              si.path("Submission Time").asLong(-1), si.path("Completion Time").asLong(-1),
              si.path("Failure Reason").asText(null));
          stages.put(s.stageId() + "." + s.attempt(), s);
        }
        case "SparkListenerTaskEnd" -> {
          Task t = task(e);
          tasks.add(t);
          if (t.succeeded()) {
            e.path("Task Info").path("Accumulables").forEach(a -> addAccumulator(a.path("ID"), a.path("Update")));
          }
        }
        case "org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates" ->
            e.path("accumUpdates").forEach(a -> addAccumulator(a.path(0), a.path(1)));
        case "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart" -> {
          long id = e.path("executionId").asLong();
          List<String> plans = new ArrayList<>(List.of(e.path("physicalPlanDescription").asText()));
          List<JsonNode> infos = new ArrayList<>(List.of(e.path("sparkPlanInfo")));
          sql.put(id, new SqlExecution(id, e.path("description").asText(), plans, infos, null,
              e.path("time").asLong(), -1));
        }
        case "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate" -> {
          SqlExecution x = sql.get(e.path("executionId").asLong());
          if (x != null) {
            x.planDescriptions().add(e.path("physicalPlanDescription").asText());
            x.planInfos().add(e.path("sparkPlanInfo"));
          }
        }
        case "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd" -> {
          long id = e.path("executionId").asLong();
          SqlExecution x = sql.get(id);
          if (x != null) {
            String err = e.path("errorMessage").asText("");
            sql.put(id, new SqlExecution(id, x.description(), x.planDescriptions(), x.planInfos(),
                err.isEmpty() ? null : err, x.start(), e.path("time").asLong()));
          }
        }
        case "org.apache.spark.sql.streaming.StreamingQueryListener$QueryStartedEvent" -> {
          String runId = e.path("runId").asText();
          streaming.put(runId, new StreamingQueryRun(e.path("id").asText(), runId, e.path("name").asText(null),
              0, false, null, null));
        }
        case "org.apache.spark.sql.streaming.StreamingQueryListener$QueryProgressEvent" -> {
          String runId = e.path("progress").path("runId").asText();
          StreamingQueryRun q = streaming.get(runId);
          if (q != null) {
            streaming.put(runId, new StreamingQueryRun(q.id(), runId, q.name(), q.batches() + 1, false, null, null));
          }
        }
        case "org.apache.spark.sql.streaming.StreamingQueryListener$QueryTerminatedEvent" -> {
          String runId = e.path("runId").asText();
          StreamingQueryRun q = streaming.get(runId);
          streaming.put(runId, new StreamingQueryRun(e.path("id").asText(), runId, q == null ? null : q.name(),
              q == null ? 0 : q.batches(), true, e.path("exception").asText(null),
              e.path("errorClassOnException").asText(null)));
        }
        default -> {}
      }
    }

    private void addAccumulator(JsonNode id, JsonNode update) {
      // Numeric updates only; the text form of some metrics ("1,234") is not summed.
      if (id.canConvertToLong() && (update.isNumber() || update.asText().matches("-?\\d+"))) {
        accumulators.merge(id.asLong(), update.asLong(), Long::sum);
      }
    }

    private static Task task(JsonNode e) {
      JsonNode info = e.path("Task Info");
      JsonNode r = e.path("Task End Reason");
      JsonNode m = e.path("Task Metrics");
      String reason = r.path("Reason").asText();
      String cls = r.path("Class Name").asText(null);
      String msg = switch (reason) {
        case "ExceptionFailure" -> r.path("Description").asText(null);
        case "FetchFailed" -> firstLine(r.path("Message").asText(null));
        case "ExecutorLostFailure" -> r.path("Loss Reason").asText(null);
        case "TaskKilled" -> r.path("Kill Reason").asText(null);
        default -> null;
      };
      return new Task(e.path("Stage ID").asInt(), e.path("Stage Attempt ID").asInt(),
          info.path("Task ID").asLong(), info.path("Index").asInt(), info.path("Attempt").asInt(),
          info.path("Executor ID").asText(), info.path("Launch Time").asLong(), info.path("Finish Time").asLong(),
          reason, cls, msg, r,
          m.path("Executor Run Time").asLong(), m.path("JVM GC Time").asLong(),
          m.path("Memory Bytes Spilled").asLong(), m.path("Disk Bytes Spilled").asLong(),
          m.path("Shuffle Write Metrics").path("Shuffle Bytes Written").asLong(),
          m.path("Shuffle Write Metrics").path("Shuffle Records Written").asLong(),
          m.path("Shuffle Write Metrics").path("Shuffle Write Time").asLong(),
          m.path("Shuffle Read Metrics").path("Remote Bytes Read").asLong()
              + m.path("Shuffle Read Metrics").path("Local Bytes Read").asLong(),
          m.path("Shuffle Read Metrics").path("Total Records Read").asLong(),
          m.path("Input Metrics").path("Records Read").asLong(),
          m.path("Result Size").asLong());
    }

    private static String firstLine(String s) {
      if (s == null) {
        return null;
      }
      int nl = s.indexOf('\n');
      return nl < 0 ? s : s.substring(0, nl);
    }

    LogFacts build(boolean inProgress) {
      List<StageAttempt> st = new ArrayList<>(stages.values());
      st.sort(Comparator.comparingInt(StageAttempt::stageId).thenComparingInt(StageAttempt::attempt));
      return new LogFacts(appId, appName, version, start, end, lines, truncated, List.copyOf(tasks),
          List.copyOf(st), List.copyOf(jobs), Map.copyOf(executors), sql, Map.copyOf(props),
          Map.copyOf(accumulators), List.copyOf(jobsStarted), lastEvent, inProgress,
          List.copyOf(streaming.values()));
    }
  }
}
