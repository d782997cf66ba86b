package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small synthetic event logs, in Spark 3.5's JSON, for SQL scenarios that real runs rarely
 * produce on demand (retried tasks, re-submitted stages, heartbeats, late jobs). The expectations
 * of the tests that use them were taken from the real History Server over the same logs.
 */
final class SqlLogBuilder {
  private static final ObjectMapper M = new ObjectMapper();
  private final List<String> lines = new ArrayList<>();
  private long time;

  SqlLogBuilder(String appId, long startTime) {
    time = startTime;
    add(obj("SparkListenerLogStart").put("Spark Version", "3.5.9"));
    add(obj("SparkListenerApplicationStart").put("App Name", "sql-" + appId).put("App ID", appId)
        .put("Timestamp", time).put("User", "tester"));
    ObjectNode info = M.createObjectNode().put("Host", "localhost").put("Total Cores", 2);
    info.putObject("Log Urls");
    info.putObject("Attributes");
    info.putObject("Resources");
    info.put("Resource Profile Id", 0);
    ObjectNode exec = obj("SparkListenerExecutorAdded").put("Timestamp", time).put("Executor ID", "driver");
    exec.set("Executor Info", info);
    add(exec);
  }

  static ObjectNode obj(String event) {
    return M.createObjectNode().put("Event", event);
  }

  /** A plan node: {@code metrics} are (name, accumulatorId, type) triples. */
  static ObjectNode plan(String name, String simple, Object[][] metrics, ObjectNode... children) {
    ObjectNode n = M.createObjectNode().put("nodeName", name).put("simpleString", simple);
    ArrayNode c = n.putArray("children");
    for (ObjectNode child : children) {
      c.add(child);
    }
    n.putObject("metadata");
    ArrayNode ms = n.putArray("metrics");
    for (Object[] m : metrics) {
      ms.addObject().put("name", (String) m[0]).put("accumulatorId", ((Number) m[1]).longValue()).put("metricType", (String) m[2]);
    }
    return n;
  }

  static Object[][] metrics(Object... triples) {
    Object[][] out = new Object[triples.length / 3][];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Object[] {triples[3 * i], triples[3 * i + 1], triples[3 * i + 2]};
    }
    return out;
  }

  SqlLogBuilder tick(long ms) {
    time += ms;
    return this;
  }

  SqlLogBuilder add(ObjectNode event) {
    lines.add(event.toString());
    return this;
  }

  SqlLogBuilder raw(String line) {
    lines.add(line);
    return this;
  }

  SqlLogBuilder executionStart(long id, String description, ObjectNode plan) {
    ObjectNode e = obj("org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart")
        .put("executionId", id).put("rootExecutionId", id).put("description", description)
        .put("details", "details of " + description).put("physicalPlanDescription", "== Physical Plan ==\n" + description);
    if (plan != null) {
      e.set("sparkPlanInfo", plan);
    }
    e.put("time", time);
    e.putObject("modifiedConfigs");
    e.putArray("jobTags");
    return add(e);
  }

  SqlLogBuilder adaptiveUpdate(long id, ObjectNode plan) {
    ObjectNode e = obj("org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate")
        .put("executionId", id).put("physicalPlanDescription", "== Physical Plan ==\nre-planned " + id);
    e.set("sparkPlanInfo", plan);
    return add(e);
  }

  SqlLogBuilder adaptiveMetrics(long id, Object... triples) {
    ObjectNode e = obj("org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveSQLMetricUpdates").put("executionId", id);
    ArrayNode ms = e.putArray("sqlPlanMetrics");
    for (Object[] m : metrics(triples)) {
      ms.addObject().put("name", (String) m[0]).put("accumulatorId", ((Number) m[1]).longValue()).put("metricType", (String) m[2]);
    }
    return add(e);
  }

  SqlLogBuilder driverUpdates(long id, long... pairs) {
    ObjectNode e = obj("org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates").put("executionId", id);
    ArrayNode a = e.putArray("accumUpdates");
    for (int i = 0; i < pairs.length; i += 2) {
      a.addArray().add(pairs[i]).add(pairs[i + 1]);
    }
    return add(e);
  }

  /** Execution end; {@code error} null leaves the field out (logs of Spark before 3.4). */
  SqlLogBuilder executionEnd(long id, String error) {
    ObjectNode e = obj("org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd").put("executionId", id).put("time", time);
    if (error != null) {
      e.put("errorMessage", error);
    }
    return add(e);
  }

  private static ObjectNode stageInfo(int stageId, int attempt, int numTasks) {
    ObjectNode s = M.createObjectNode().put("Stage ID", stageId).put("Stage Attempt ID", attempt)
        .put("Stage Name", "stage " + stageId).put("Number of Tasks", numTasks);
    s.putArray("RDD Info");
    s.putArray("Parent IDs");
    s.put("Details", "");
    s.putArray("Accumulables");
    s.put("Resource Profile Id", 0);
    return s;
  }

  /** A job of execution {@code sqlId} (or none when negative); stages are (id, numTasks) pairs. */
  SqlLogBuilder jobStart(int jobId, long sqlId, int... stages) {
    ObjectNode e = obj("SparkListenerJobStart").put("Job ID", jobId).put("Submission Time", time);
    ArrayNode infos = e.putArray("Stage Infos");
    ArrayNode ids = e.putArray("Stage IDs");
    for (int i = 0; i < stages.length; i += 2) {
      infos.add(stageInfo(stages[i], 0, stages[i + 1]));
      ids.add(stages[i]);
    }
    ObjectNode props = e.putObject("Properties");
    if (sqlId >= 0) {
      props.put("spark.sql.execution.id", Long.toString(sqlId));
    }
    return add(e);
  }

  SqlLogBuilder jobEnd(int jobId, boolean succeeded) {
    ObjectNode e = obj("SparkListenerJobEnd").put("Job ID", jobId).put("Completion Time", time);
    ObjectNode r = e.putObject("Job Result");
    if (succeeded) {
      r.put("Result", "JobSucceeded");
    } else {
      r.put("Result", "JobFailed");
      r.putObject("Exception").put("Message", "job failed");
    }
    return add(e);
  }

  SqlLogBuilder stageSubmitted(int stageId, int attempt, int numTasks) {
    ObjectNode s = stageInfo(stageId, attempt, numTasks).put("Submission Time", time);
    ObjectNode e = obj("SparkListenerStageSubmitted");
    e.set("Stage Info", s);
    e.putObject("Properties");
    return add(e);
  }

  SqlLogBuilder stageCompleted(int stageId, int attempt, int numTasks, String failure) {
    ObjectNode s = stageInfo(stageId, attempt, numTasks).put("Submission Time", time).put("Completion Time", time);
    if (failure != null) {
      s.put("Failure Reason", failure);
    }
    ObjectNode e = obj("SparkListenerStageCompleted");
    e.set("Stage Info", s);
    return add(e);
  }

  private ObjectNode taskInfo(long taskId, int index, int attempt, long finish, boolean failed, boolean killed, long[] accums) {
    ObjectNode t = M.createObjectNode().put("Task ID", taskId).put("Index", index).put("Attempt", attempt)
        .put("Partition ID", index).put("Launch Time", time).put("Executor ID", "driver").put("Host", "localhost")
        .put("Locality", "PROCESS_LOCAL").put("Speculative", false).put("Getting Result Time", 0)
        .put("Finish Time", finish).put("Failed", failed).put("Killed", killed);
    ArrayNode a = t.putArray("Accumulables");
    for (int i = 0; i < accums.length; i += 2) {
      a.addObject().put("ID", accums[i]).put("Name", "m" + accums[i]).put("Update", Long.toString(accums[i + 1]))
          .put("Value", Long.toString(accums[i + 1])).put("Internal", true).put("Count Failed Values", true)
          .put("Metadata", "sql");
    }
    return t;
  }

  SqlLogBuilder taskStart(int stageId, int attempt, long taskId, int index) {
    ObjectNode e = obj("SparkListenerTaskStart").put("Stage ID", stageId).put("Stage Attempt ID", attempt);
    e.set("Task Info", taskInfo(taskId, index, 0, 0, false, false, new long[0]));
    return add(e);
  }

  /**
   * A task end; {@code outcome} is "Success", "ExceptionFailure" or "TaskKilled"; accums are
   * (accumulatorId, update) pairs.
   */
  SqlLogBuilder taskEnd(int stageId, int attempt, long taskId, int index, String outcome, long... accums) {
    ObjectNode e = obj("SparkListenerTaskEnd").put("Stage ID", stageId).put("Stage Attempt ID", attempt)
        .put("Task Type", "ShuffleMapTask");
    ObjectNode reason = e.putObject("Task End Reason").put("Reason", outcome);
    if (outcome.equals("ExceptionFailure")) {
      reason.put("Class Name", "java.lang.RuntimeException").put("Description", "injected").put("Full Stack Trace", "");
      reason.putArray("Stack Trace");
      reason.putArray("Accumulator Updates");
    } else if (outcome.equals("TaskKilled")) {
      reason.put("Kill Reason", "another attempt succeeded");
      reason.putArray("Accumulator Updates");
    }
    e.set("Task Info", taskInfo(taskId, index, 0, time + 1, outcome.equals("ExceptionFailure"),
        outcome.equals("TaskKilled"), accums));
    return add(e);
  }

  /** A heartbeat carrying accumulator updates of one running task. */
  SqlLogBuilder heartbeat(long taskId, int stageId, int attempt, long... accums) {
    ObjectNode e = obj("SparkListenerExecutorMetricsUpdate").put("Executor ID", "driver");
    ArrayNode all = e.putArray("Metrics Updated");
    ObjectNode u = all.addObject().put("Task ID", taskId).put("Stage ID", stageId).put("Stage Attempt ID", attempt);
    ArrayNode a = u.putArray("Accumulator Updates");
    for (int i = 0; i < accums.length; i += 2) {
      a.addObject().put("ID", accums[i]).put("Name", "m" + accums[i]).put("Update", Long.toString(accums[i + 1]))
          .put("Internal", true).put("Count Failed Values", true).put("Metadata", "sql");
    }
    return add(e);
  }

  SqlLogBuilder applicationEnd() {
    return add(obj("SparkListenerApplicationEnd").put("Timestamp", time));
  }

  String build() {
    return String.join("\n", lines) + "\n";
  }
}
