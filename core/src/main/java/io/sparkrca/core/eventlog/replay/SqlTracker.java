package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobExecutionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Spark SQL's {@code SQLAppStatusListener}, replay mode: SQL executions, their jobs, plans and
 * status.
 */
final class SqlTracker implements ReplayExtension {
  private static final String PREFIX = "org.apache.spark.sql.execution.ui.";

  final Map<Long, Execution> executions = new TreeMap<>();

  @Override
  public boolean handles(String eventName) {
    return eventName.startsWith(PREFIX) || eventName.startsWith("SparkListenerSQL");
  }

  @Override
  public void onEvent(String eventName, JsonNode e, long line) {
    String simple = eventName.substring(eventName.lastIndexOf('.') + 1);
    switch (simple) {
      case "SparkListenerSQLExecutionStart":
        onExecutionStart(e);
        break;
      case "SparkListenerSQLAdaptiveExecutionUpdate":
        Execution exec = executions.get(Json.requiredLong(e, "executionId"));
        if (exec != null) {
          exec.physicalPlanDescription = Json.optText(e, "physicalPlanDescription").orElse("");
          exec.sparkPlanInfo = e.get("sparkPlanInfo");
        }
        break;
      case "SparkListenerSQLExecutionEnd":
        Execution ended = executions.get(Json.requiredLong(e, "executionId"));
        if (ended != null) {
          ended.completionTime = Optional.of(Json.requiredLong(e, "time"));
          ended.errorMessage = Json.optText(e, "errorMessage");
        }
        break;
      default:
        break;
    }
  }

  private void onExecutionStart(JsonNode e) {
    long id = Json.requiredLong(e, "executionId");
    Execution exec = executions.computeIfAbsent(id, Execution::new);
    exec.description = Json.optText(e, "description").orElse("");
    exec.details = Json.optText(e, "details").orElse("");
    exec.physicalPlanDescription = Json.optText(e, "physicalPlanDescription").orElse("");
    exec.sparkPlanInfo = e.get("sparkPlanInfo");
    exec.submissionTime = Json.requiredLong(e, "time");
  }

  @Override
  public void onJobStart(int jobId, Map<String, String> properties, long time) {
    String id = properties.get("spark.sql.execution.id");
    if (id == null) {
      return;
    }
    try {
      Execution exec = executions.computeIfAbsent(Long.parseLong(id.trim()), Execution::new);
      exec.jobs.put(jobId, JobExecutionStatus.RUNNING);
    } catch (NumberFormatException ignored) {
      // not a SQL job after all
    }
  }

  @Override
  public void onJobEnd(int jobId, boolean succeeded, long time) {
    for (Execution exec : executions.values()) {
      if (exec.jobs.containsKey(jobId)) {
        exec.jobs.put(jobId, succeeded ? JobExecutionStatus.SUCCEEDED : JobExecutionStatus.FAILED);
      }
    }
  }

  List<ExecutionData> toApi(long now) {
    List<ExecutionData> out = new ArrayList<>();
    for (Execution e : executions.values()) {
      out.add(e.toApi(now));
    }
    return out;
  }

  /** One SQL execution being tracked. */
  static final class Execution {
    final long id;
    String description = "";
    String details = "";
    String physicalPlanDescription = "";
    JsonNode sparkPlanInfo;
    long submissionTime = -1;
    Optional<Long> completionTime = Optional.empty();
    Optional<String> errorMessage = Optional.empty();
    final Map<Integer, JobExecutionStatus> jobs = new LinkedHashMap<>();

    Execution(long id) {
      this.id = id;
    }

    String status() {
      if (errorMessage.isPresent() && errorMessage.get().isEmpty()) {
        return "COMPLETED";
      }
      if (errorMessage.isPresent()) {
        return "FAILED";
      }
      if (completionTime.isEmpty()) {
        return "RUNNING";
      }
      return jobs.containsValue(JobExecutionStatus.FAILED) ? "FAILED" : "COMPLETED";
    }

    ExecutionData toApi(long now) {
      List<Integer> running = new ArrayList<>();
      List<Integer> success = new ArrayList<>();
      List<Integer> failed = new ArrayList<>();
      for (Map.Entry<Integer, JobExecutionStatus> j : jobs.entrySet()) {
        switch (j.getValue()) {
          case RUNNING:
            running.add(j.getKey());
            break;
          case SUCCEEDED:
            success.add(j.getKey());
            break;
          case FAILED:
            failed.add(j.getKey());
            break;
          default:
            break;
        }
      }
      return new ExecutionData(
          id,
          status(),
          description,
          physicalPlanDescription,
          Instant.ofEpochMilli(submissionTime),
          completionTime.orElse(now) - submissionTime,
          running,
          success,
          failed,
          List.of(),
          List.of());
    }
  }
}
