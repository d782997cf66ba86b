package io.sparkrca.core.eventlog.replay;

import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.metrics;
import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.plan;
import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.SqlMetric;
import io.sparkrca.core.model.SqlNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Robustness and memory of the SQL tracker; History Server parity is in SqlHistoryServerAnswersTest. */
class SqlTrackerTest {
  @TempDir Path dir;

  private ReplayedApplication replay(String log) throws IOException {
    Path file = dir.resolve("local-1");
    Files.writeString(file, log);
    return EventLogs.replay(file);
  }

  private static String value(ExecutionData e, String node, String metric) {
    for (SqlNode n : e.nodes()) {
      if (n.nodeName().equals(node)) {
        for (SqlMetric m : n.metrics()) {
          if (m.name().equals(metric)) {
            return m.value();
          }
        }
      }
    }
    return null;
  }

  @Test
  void anExecutionWithoutAPlanIsStillListedAndTheReportSaysWhy() throws IOException {
    SqlLogBuilder b = new SqlLogBuilder("local-1", 1_000_000L);
    b.executionStart(0, "no plan", null);
    b.jobStart(0, 0, 0, 1).stageSubmitted(0, 0, 1).taskStart(0, 0, 0, 0).taskEnd(0, 0, 0, 0, "Success", 5, 1);
    b.jobEnd(0, true).tick(10).executionEnd(0, "").applicationEnd();
    ReplayedApplication app = replay(b.build());
    assertThat(app.sqlExecutions()).singleElement().satisfies(e -> {
      assertThat(e.status()).isEqualTo("COMPLETED");
      assertThat(e.description()).isEqualTo("no plan");
      assertThat(e.successJobIds()).containsExactly(0);
      assertThat(e.nodes()).isEmpty();
      assertThat(e.edges()).isEmpty();
      assertThat(e.duration()).isEqualTo(10);
    });
    assertThat(app.report().notes()).anyMatch(n -> n.contains("SQL execution 0") && n.contains("no sparkPlanInfo"));
  }

  @Test
  void malformedPlansAndUpdatesNeitherThrowNorHideTheExecution() throws IOException {
    SqlLogBuilder b = new SqlLogBuilder("local-1", 1_000_000L);
    b.executionStart(0, "odd plan", plan("Project", "Project", metrics("rows", 7, "sum"),
        plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics())));
    b.raw("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate\",\"executionId\":0,"
        + "\"physicalPlanDescription\":\"p\",\"sparkPlanInfo\":[1,2]}");
    b.raw("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates\",\"executionId\":0,"
        + "\"accumUpdates\":[[7],\"x\",[7,\"y\"],null,[7,3]]}");
    b.raw("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveSQLMetricUpdates\",\"executionId\":0,"
        + "\"sqlPlanMetrics\":[{\"name\":\"x\"},{\"name\":\"t\",\"accumulatorId\":8,\"metricType\":\"timing\"}]}");
    b.raw("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":0}");
    b.applicationEnd();
    ReplayedApplication app = replay(b.build());
    ExecutionData e = app.sqlExecution(0).orElseThrow();
    // The last plan could not be read: the graph is empty, and the report says so.
    assertThat(e.nodes()).isEmpty();
    assertThat(e.planDescription()).isEqualTo("p");
    assertThat(e.status()).isEqualTo("COMPLETED");
    assertThat(e.duration()).isEqualTo(-1_000_000L - 1); // an end without a time: Spark's -1 default is ours too
    assertThat(app.report().notes()).anyMatch(n -> n.contains("SQL execution 0") && n.contains("not an object"));
    assertThat(app.report().notes()).anyMatch(n -> n.contains("has no child"));
  }

  @Test
  void driverUpdatesCountEvenWithoutTasks() throws IOException {
    SqlLogBuilder b = new SqlLogBuilder("local-1", 1_000_000L);
    b.executionStart(0, "driver only", plan("Scan", "Scan parquet", metrics(
        "number of files read", 1, "sum", "metadata time", 2, "timing", "size of files read", 3, "size")));
    b.driverUpdates(0, 1, 4, 2, 12, 3, 4096, 1, 6, 3, 1024).tick(3).executionEnd(0, "").applicationEnd();
    ExecutionData e = replay(b.build()).sqlExecution(0).orElseThrow();
    assertThat(value(e, "Scan", "number of files read")).isEqualTo("10");
    assertThat(value(e, "Scan", "metadata time")).isEqualTo("12 ms");
    assertThat(value(e, "Scan", "size of files read"))
        .isEqualTo("total (min, med, max (stageId: taskId))\n5.0 KiB (1024.0 B, 4.0 KiB, 4.0 KiB (driver))");
  }

  @Test
  void aJobOfAnUnknownExecutionIsListedWithoutAPlan() throws IOException {
    SqlLogBuilder b = new SqlLogBuilder("local-1", 1_000_000L);
    b.jobStart(0, 42, 0, 1).jobEnd(0, false).applicationEnd();
    ReplayedApplication app = replay(b.build());
    assertThat(app.sqlExecutions()).singleElement().satisfies(e -> {
      assertThat(e.id()).isEqualTo(42);
      assertThat(e.status()).isEqualTo("RUNNING");
      assertThat(e.failedJobIds()).containsExactly(0);
      assertThat(e.nodes()).isEmpty();
    });
  }

  /**
   * Values are kept per task index only while an execution runs: a sum metric costs nothing per
   * task, the others one to eight bytes per index, plus a bit per index; the task-id map holds
   * running tasks only. All of it goes when the execution ends.
   */
  @Test
  void memoryIsBoundedAndReleasedWhenTheExecutionEnds() {
    SqlTracker t = new SqlTracker(null);
    com.fasterxml.jackson.databind.node.ObjectNode start = SqlLogBuilder.obj("SparkListenerSQLExecutionStart")
        .put("executionId", 0).put("description", "big").put("physicalPlanDescription", "p").put("time", 0);
    start.set("sparkPlanInfo", plan("Exchange", "Exchange", metrics(
        "rows", 1, "sum", "records", 2, "sum", "bytes", 3, "size", "time", 4, "nsTiming", "wait", 5, "timing")));
    t.onEvent("SparkListenerSQLExecutionStart", start, 1);
    int tasks = 200_000;
    StageInfo stage = new StageInfo(0, 0, "s", tasks, List.of(), List.of(), List.of(), "", java.util.Optional.empty(),
        java.util.Optional.empty(), java.util.Optional.empty(), List.of(), 0L, 0L, 0, false, 0);
    t.onJobStart(0, List.of(0), List.of(stage), Map.of("spark.sql.execution.id", "0"), 0);
    t.onStageSubmitted(0, 0, Map.of());
    TaskInfoScratch info = new TaskInfoScratch();
    for (int i = 0; i < tasks; i++) {
      info.reset();
      info.taskId = i;
      info.index = i;
      info.launchTime = 1;
      info.finishTime = 2;
      info.addSqlUpdate(1, 10);
      info.addSqlUpdate(2, 1);
      info.addSqlUpdate(3, 1000 + i % 100);
      info.addSqlUpdate(4, 5_000_000L + i);
      info.addSqlUpdate(5, i % 3);
      t.onTaskStart(0, 0, info);
      t.onTaskEnd(0, 0, info);
    }
    long bytes = t.liveStageBytes();
    // 3 non-sum metrics at 2, 4 and 1 bytes per index, and the completed-index bits.
    assertThat(bytes / tasks).isLessThanOrEqualTo(8);
    t.onJobEnd(0, true, 3);
    com.fasterxml.jackson.databind.node.ObjectNode end = SqlLogBuilder.obj("SparkListenerSQLExecutionEnd")
        .put("executionId", 0).put("time", 10).put("errorMessage", "");
    t.onEvent("SparkListenerSQLExecutionEnd", end, 2);
    assertThat(t.liveStageBytes()).isZero();
    ExecutionData e = t.toApi(0, 10).orElseThrow();
    assertThat(value(e, "Exchange", "rows")).isEqualTo("2,000,000");
    assertThat(value(e, "Exchange", "records")).isEqualTo("200,000");
    assertThat(value(e, "Exchange", "bytes")).isEqualTo(
        "total (min, med, max (stageId: taskId))\n200.2 MiB (1000.0 B, 1050.0 B, 1099.0 B (stage 0.0: task 99))");
    assertThat(value(e, "Exchange", "wait")).isEqualTo(
        "total (min, med, max (stageId: taskId))\n3.3 m (0 ms, 1 ms, 2 ms (stage 0.0: task 2))");
  }
}
