package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskMetrics;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.model.TaskTotals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.core.model}, compiled (see {@link JavadocExamplesTest}). */
class ModelExamples {
  /** The example of {@code AccumulableInfo}. */
  void accumulableInfo(StageData stage) throws Exception {
    stage.accumulatorUpdates().forEach(a -> System.out.println(a.name() + " = " + a.value()));
  }

  /** The example of {@code ApplicationAttemptInfo}. */
  void applicationAttemptInfo(ApplicationAttemptInfo attempt) throws Exception {
    Duration d = Duration.ofMillis(attempt.duration());
  }

  /** The example of {@code ApplicationEnvironmentInfo}. */
  void applicationEnvironmentInfo(SparkApplication app) throws Exception {
    Optional<String> aqe = app.environment().flatMap(env -> env.sparkProperty("spark.sql.adaptive.enabled"));
  }

  /** The example of {@code ApplicationInfo}. */
  void applicationInfo(SparkHistory history) throws Exception {
    ApplicationInfo app = history.application("app-20240101-0001", Optional.empty()).orElseThrow().info();
    boolean done = app.attempts().get(0).completed();
  }

  /** The example of {@code ExecutionData}. */
  void executionData(SparkApplication app) throws Exception {
    app.sqlExecutions().stream()
        .filter(e -> e.planDescription().contains("SortMergeJoin"))
        .forEach(e -> System.out.println(e.id()));
  }

  /** The example of {@code ExecutorMetrics}. */
  void executorMetrics(ExecutorSummary executor) throws Exception {
    long peakHeap = executor.peakMemoryMetrics().map(m -> m.get("JVMHeapMemory")).orElse(0L);
  }

  /** The example of {@code ExecutorStageSummary}. */
  void executorStageSummary(StageData stage) throws Exception {
    stage.executorSummary().orElse(Map.of()).forEach((id, s) -> System.out.println(id + " " + s.taskTime()));
  }

  /** The example of {@code ExecutorSummary}. */
  void executorSummary(SparkApplication app) throws Exception {
    app.executors(false).stream()
        .filter(e -> e.removeReason().isPresent())
        .forEach(e -> System.out.println(e.id() + " lost: " + e.removeReason().get()));
  }

  /** The example of {@code JobData}. */
  void jobData(SparkApplication app) throws Exception {
    app.jobs(Set.of(JobExecutionStatus.FAILED)).forEach(j -> System.out.println(j.jobId()));
  }

  /** The example of {@code RDDStorageInfo}. */
  void rddStorageInfo(SparkApplication app) throws Exception {
    app.rdds().forEach(r -> System.out.println(r.name() + " " + r.memoryUsed()));
  }

  /** The example of {@code StageData}. */
  void stageData(SparkApplication app) throws Exception {
    app.stages(StageQuery.all()).stream()
        .filter(s -> s.status() == StageStatus.FAILED)
        .forEach(s -> System.out.println(s.stageId() + ": " + s.failureReason().orElse("")));
  }

  /** The example of {@code TaskData}. */
  void taskData(SparkApplication app) throws Exception {
    app.tasks(3, 0, TaskQuery.all().withStatuses(Set.of(TaskStatus.FAILED)))
        .forEach(t -> System.out.println(t.errorMessage().orElse("")));
  }

  /** The example of {@code TaskMetricDistributions}. */
  void taskMetricDistributions(SparkApplication app) throws Exception {
    TaskMetricDistributions d = app.taskSummary(2, 0, List.of(0.5, 1.0)).orElseThrow();
    double skew = d.duration().get(1) / Math.max(1, d.duration().get(0));
  }

  /** The example of {@code TaskMetrics}. */
  void taskMetrics(TaskData task) throws Exception {
    long spilled = task.taskMetrics().map(TaskMetrics::diskBytesSpilled).orElse(0L);
  }

  /** The example of {@code TaskSorting}. */
  void taskSorting() throws Exception {
    TaskSorting s = TaskSorting.parse("-runtime").orElseThrow(); // DECREASING_RUNTIME
  }

  /** The example of {@code TaskTotals}. */
  void taskTotals(SparkApplication app) throws Exception {
    TaskTotals t = app.taskTotals(2, 0).orElseThrow();
    double meanRunMillis = (double) t.metrics().executorRunTime() / t.count();
  }
}
