package io.sparkrca.core.eventlog.replay;

import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.metrics;
import static io.sparkrca.core.eventlog.replay.SqlLogBuilder.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Synthetic SQL event logs for behaviours real runs rarely show on demand. The History Server's
 * answers over these logs (Spark 3.5.9 and 4.0.4, which agreed except where noted in the test) are
 * in {@code src/test/resources/io/sparkrca/core/eventlog/replay/sql-scenarios}.
 */
final class SqlScenarios {
  static final String MAIN = "local-1700000000001";
  static final String RUNNING = "local-1700000000002";
  static final String MANY = "local-1700000000003";
  static final int MANY_EXECUTIONS = 1004;

  private SqlScenarios() {}

  /** File name to log text. */
  static Map<String, String> logs() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put(MAIN, main());
    out.put(RUNNING + ".inprogress", running());
    out.put(MANY, many());
    return out;
  }

  static void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (Map.Entry<String, String> e : logs().entrySet()) {
      Files.writeString(dir.resolve(e.getKey()), e.getValue());
    }
  }

  private static ObjectNode leaf(String name, Object[][] m) {
    return plan(name, name + " (leaf)", m);
  }

  static String main() {
    SqlLogBuilder b = new SqlLogBuilder(MAIN, 1_700_000_000_000L);

    // Execution 0: a retried task, a killed one, a late duplicate of a completed index, and
    // driver updates (one above the tasks' largest value).
    ObjectNode plan0 =
        plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", metrics(),
            plan("WholeStageCodegen (2)", "WholeStageCodegen (2)", metrics("duration", 22, "timing"),
                plan("HashAggregate", "HashAggregate(keys=[k], functions=[sum(v)])",
                    metrics("number of output rows", 10, "sum", "time in aggregation build", 11, "timing",
                        "peak memory", 12, "size", "avg hash probe bucket list iters", 13, "average"),
                    plan("InputAdapter", "InputAdapter", metrics(),
                        plan("Exchange", "Exchange hashpartitioning(k, 4)",
                            metrics("data size", 20, "size", "shuffle write time", 21, "nsTiming"),
                            plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics("duration", 9, "timing"),
                                leaf("Range", metrics("number of output rows", 23, "sum"))))))));
    b.executionStart(0, "retries", plan0).tick(5);
    b.jobStart(0, 0, 0, 4).stageSubmitted(0, 0, 4).tick(5);
    b.taskStart(0, 0, 0, 0).taskEnd(0, 0, 0, 0, "Success", 10, 5, 11, 3, 12, 1024, 13, 15, 20, 300, 21, 2_500_000, 23, 25, 9, 4, 22, 6);
    b.taskStart(0, 0, 1, 1).taskEnd(0, 0, 1, 1, "ExceptionFailure", 10, 100, 11, 50, 12, 99_999, 13, 25, 23, 25);
    b.taskStart(0, 0, 2, 1).taskEnd(0, 0, 2, 1, "Success", 10, 7, 11, 4, 12, 2048, 13, 20, 20, 310, 21, 1_500_000, 23, 25);
    b.taskStart(0, 0, 3, 2).taskEnd(0, 0, 3, 2, "Success", 10, 1, 11, -1, 12, -1, 13, 0, 20, -1, 23, 25);
    b.taskStart(0, 0, 4, 3).taskEnd(0, 0, 4, 3, "TaskKilled", 10, 9, 23, 12);
    b.taskStart(0, 0, 5, 0).taskEnd(0, 0, 5, 0, "Success", 10, 1000, 12, 5_000_000);
    b.tick(3).driverUpdates(0, 12, 100_000, 23, 5, 23, 6);
    b.stageCompleted(0, 0, 4, null).jobEnd(0, true).tick(2).executionEnd(0, "");

    // Execution 1: six jobs (Scala lists them in hash order), one failed; the same size metric
    // with equal largest values in six stages (the first stage in Scala's order names the task).
    ObjectNode[] exchanges = new ObjectNode[6];
    for (int i = 0; i < 6; i++) {
      exchanges[i] = plan("Exchange", "Exchange part " + i, metrics("data size", 40, "size", "records", 41, "sum"),
          leaf("Range", metrics()));
    }
    b.tick(10).executionStart(1, "many jobs", plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", metrics(),
        plan("Union", "Union", metrics(), exchanges)));
    for (int j = 1; j <= 6; j++) {
      int stage = j + 2;
      b.tick(1).jobStart(j, 1, stage, 1).stageSubmitted(stage, 0, 1);
      boolean ok = j != 3;
      b.taskStart(stage, 0, 5 + j, 0).taskEnd(stage, 0, 5 + j, 0, ok ? "Success" : "ExceptionFailure", 40, 100, 41, j);
      b.stageCompleted(stage, 0, 1, ok ? null : "task failed").jobEnd(j, ok);
    }
    b.tick(1).executionEnd(1, "");

    // Execution 2: a stage re-submitted after a fetch failure (its new attempt starts from
    // nothing) and its child stage's failed attempt.
    b.tick(10).executionStart(2, "stage retry", plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", metrics(),
        plan("Exchange", "Exchange e2", metrics("records", 30, "sum", "bytes", 31, "size"),
            leaf("Range", metrics("number of output rows", 32, "sum")))));
    b.jobStart(7, 2, 9, 3, 10, 2).stageSubmitted(9, 0, 3);
    b.taskStart(9, 0, 20, 0).taskEnd(9, 0, 20, 0, "Success", 30, 10, 31, 100);
    b.taskStart(9, 0, 21, 1).taskEnd(9, 0, 21, 1, "Success", 30, 10, 31, 200);
    b.taskStart(9, 0, 22, 2).taskEnd(9, 0, 22, 2, "Success", 30, 10, 31, 300);
    b.stageCompleted(9, 0, 3, null).stageSubmitted(10, 0, 2);
    b.taskStart(10, 0, 23, 0).taskEnd(10, 0, 23, 0, "ExceptionFailure", 30, 1, 32, 1);
    b.stageCompleted(10, 0, 2, "fetch failed").stageSubmitted(9, 1, 1);
    b.taskStart(9, 1, 24, 0).taskEnd(9, 1, 24, 0, "Success", 30, 7, 31, 50);
    b.stageCompleted(9, 1, 1, null).stageSubmitted(10, 1, 2);
    b.taskStart(10, 1, 25, 0).taskEnd(10, 1, 25, 0, "Success", 32, 4);
    b.taskStart(10, 1, 26, 1).taskEnd(10, 1, 26, 1, "Success", 32, 4);
    b.stageCompleted(10, 1, 2, null).jobEnd(7, true).tick(1).executionEnd(2, "");

    // Execution 3: ends with an error, then a job of it starts late: Spark re-opens it from its
    // stored state without the error and keeps the metrics it had.
    b.tick(10).executionStart(3, "late job", plan("LocalTableScan", "LocalTableScan [x]", metrics("number of output rows", 33, "sum")));
    b.jobStart(8, 3, 11, 1).stageSubmitted(11, 0, 1).taskStart(11, 0, 27, 0).taskEnd(11, 0, 27, 0, "Success", 33, 3);
    b.stageCompleted(11, 0, 1, null).jobEnd(8, true).tick(1).executionEnd(3, "boom");
    b.tick(5).jobStart(9, 3, 12, 1).stageSubmitted(12, 0, 1).taskStart(12, 0, 28, 0).taskEnd(12, 0, 28, 0, "Success", 33, 10);
    b.stageCompleted(12, 0, 1, null).jobEnd(9, true);

    // Execution 4: an adaptive re-plan while its job runs adds a node with a new metric; the
    // tasks report it (counted by Spark 4.0, not by 3.5). Then metrics registered on their own.
    b.tick(10).executionStart(4, "re-plan mid-job", plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=false", metrics(),
        plan("Exchange", "Exchange e4", metrics("records", 50, "sum"), leaf("Range", metrics("number of output rows", 53, "sum")))));
    b.jobStart(10, 4, 13, 2).stageSubmitted(13, 0, 2);
    b.adaptiveUpdate(4, plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", metrics(),
        plan("AQEShuffleRead", "AQEShuffleRead coalesced", metrics("partition data size", 51, "size"),
            plan("ShuffleQueryStage", "ShuffleQueryStage 0", metrics(),
                plan("Exchange", "Exchange e4", metrics("records", 50, "sum"), leaf("Range", metrics("number of output rows", 53, "sum")))))));
    b.taskStart(13, 0, 29, 0).taskEnd(13, 0, 29, 0, "Success", 50, 5, 51, 100, 53, 5);
    b.taskStart(13, 0, 30, 1).taskEnd(13, 0, 30, 1, "Success", 50, 6, 51, 200, 53, 6);
    b.adaptiveMetrics(4, "subquery time", 52, "timing").driverUpdates(4, 52, 7);
    b.stageCompleted(13, 0, 2, null).jobEnd(10, true).tick(1).executionEnd(4, "");

    // Executions 5 and 6: end events without an error message (Spark before 3.4): the status
    // comes from the jobs.
    b.tick(10).executionStart(5, "old failed", plan("LocalTableScan", "LocalTableScan [y]", metrics("number of output rows", 70, "sum")));
    b.jobStart(11, 5, 14, 1).stageSubmitted(14, 0, 1).taskStart(14, 0, 31, 0).taskEnd(14, 0, 31, 0, "ExceptionFailure", 70, 2);
    b.stageCompleted(14, 0, 1, "task failed").jobEnd(11, false).tick(1).executionEnd(5, null);
    b.tick(10).executionStart(6, "old no jobs", plan("LocalTableScan", "LocalTableScan [z]", metrics("number of output rows", 71, "sum")));
    b.tick(1).executionEnd(6, null);
    b.tick(10).applicationEnd();
    return b.build();
  }

  /** An application cut off while a query runs, with heartbeat updates of running tasks. */
  static String running() {
    SqlLogBuilder b = new SqlLogBuilder(RUNNING, 1_700_000_100_000L);
    b.executionStart(0, "first", plan("LocalTableScan", "LocalTableScan [a]", metrics("number of output rows", 1, "sum")));
    b.tick(1).executionEnd(0, "");
    b.tick(5).executionStart(1, "still running", plan("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=false", metrics(),
        plan("WholeStageCodegen (1)", "WholeStageCodegen (1)", metrics("duration", 9, "timing"),
            plan("Project", "Project [id]", metrics(),
                leaf("Range", metrics("number of output rows", 60, "sum", "bytes", 61, "size"))))));
    b.jobStart(0, 1, 0, 3).stageSubmitted(0, 0, 3);
    b.taskStart(0, 0, 0, 0).taskStart(0, 0, 1, 1).taskStart(0, 0, 2, 2);
    b.tick(2).heartbeat(0, 0, 0, 60, 42, 61, 1000).heartbeat(99, 0, 0, 60, 1000);
    b.tick(2).taskEnd(0, 0, 1, 1, "Success", 60, 8, 61, 500);
    return b.build();
  }

  /** More executions than the History Server retains (1,000), finishing out of id order. */
  static String many() {
    SqlLogBuilder b = new SqlLogBuilder(MANY, 1_700_000_200_000L);
    long base = 1_700_000_300_000L;
    for (int i = 0; i < MANY_EXECUTIONS; i++) {
      b.executionStart(i, "q" + i, plan("LocalTableScan", "LocalTableScan [q" + i + "]", metrics("number of output rows", 1000 + i, "sum")));
      if (i < MANY_EXECUTIONS - 1) {
        // Completion times: a permutation, so the oldest finished is rarely the lowest id.
        b.raw("{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd\",\"executionId\":" + i
            + ",\"time\":" + (base + (i * 7919L) % 1009) + ",\"errorMessage\":\"\"}");
      }
    }
    b.tick(100_000).applicationEnd();
    return b.build();
  }
}
