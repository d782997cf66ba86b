package io.sparkrca.core.app;

import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.model.TaskTotals;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One attempt of a Spark application, answering the questions the History Server answers, with
 * the same values, whichever source produced it (an event-log replay, a History Server, a
 * Dataproc API). Everything analysis needs is reachable from here.
 *
 * <pre>{@code
 * SparkApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-1"));
 * for (StageData s : app.stages(StageQuery.all())) {
 *   System.out.println(s.stageId() + " " + s.status() + " " + s.executorRunTime());
 * }
 * }</pre>
 */
public interface SparkApplication {

  /** The application and this attempt, as the History Server lists it. */
  ApplicationInfo info();

  /** This attempt's id, empty for applications without attempts (client mode, local). */
  Optional<String> attemptId();

  /** Jobs, newest first; {@code statuses} filters (empty keeps all). */
  List<JobData> jobs(Set<JobExecutionStatus> statuses);

  Optional<JobData> job(int jobId);

  /** Every stage attempt, newest stage first. */
  List<StageData> stages(StageQuery query);

  /** The attempts of one stage, oldest first; empty when the stage is unknown. */
  List<StageData> stageAttempts(int stageId, StageQuery query);

  Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query);

  /** A window of one stage attempt's tasks. */
  List<TaskData> tasks(int stageId, int attemptId, TaskQuery query);

  /**
   * Quantiles of task metrics over the attempt's successful tasks; empty when no task reported
   * metrics yet.
   */
  Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles);

  /** Executors and the driver; {@code activeOnly} drops removed executors. */
  List<ExecutorSummary> executors(boolean activeOnly);

  /** Runtime, properties (secrets redacted) and class path; empty if the log never said. */
  Optional<ApplicationEnvironmentInfo> environment();

  /**
   * The Spark properties of {@link #environment()}, as it shows them (secrets redacted, sorted by
   * key), without the rest; empty if the log never said. What most analysis reads of the
   * environment: a source that redacts on demand answers it without redacting the Hadoop and
   * system properties, about a thousand per application.
   *
   * <pre>{@code
   * boolean aqe = app.sparkProperties().orElse(List.of()).stream()
   *     .anyMatch(p -> p.getKey().equals("spark.sql.adaptive.enabled") && p.getValue().equals("true"));
   * }</pre>
   */
  default Optional<List<Map.Entry<String, String>>> sparkProperties() {
    return environment().map(ApplicationEnvironmentInfo::sparkProperties);
  }

  /**
   * {@link #sparkProperties()} as an unmodifiable map from key to value, in key order (a property
   * without a value maps to ""); empty if the log never said.
   *
   * <pre>{@code
   * String partitions = app.sparkConf().map(c -> c.get("spark.sql.shuffle.partitions")).orElse("200");
   * }</pre>
   */
  default Optional<Map<String, String>> sparkConf() {
    return sparkProperties().map(all -> {
      Map<String, String> conf = new LinkedHashMap<>();
      for (Map.Entry<String, String> p : all) {
        conf.put(p.getKey(), p.getValue() == null ? "" : p.getValue());
      }
      return Collections.unmodifiableMap(conf);
    });
  }

  /**
   * The value of one of the driver's JVM system properties, as {@link #environment()} shows it
   * (redacted if it looks secret); empty if the log never said or the property was not set.
   *
   * <pre>{@code
   * Optional<String> zone = app.systemProperty("user.timezone");
   * }</pre>
   */
  default Optional<String> systemProperty(String key) {
    return environment().flatMap(env -> env.systemProperties().stream()
        .filter(p -> p.getKey().equals(key) && p.getValue() != null).map(Map.Entry::getValue).findFirst());
  }

  /** Persisted RDDs that have cached partitions. */
  List<RDDStorageInfo> rdds();

  Optional<RDDStorageInfo> rdd(int rddId);

  /** SQL executions (queries), oldest first. */
  List<ExecutionData> sqlExecutions();

  Optional<ExecutionData> sqlExecution(long executionId);

  /** Miscellaneous processes such as a YARN application master. */
  List<ProcessSummary> miscellaneousProcesses(boolean activeOnly);

  /**
   * The Spark version that ran the application, or "" when the source does not say. By default
   * the version of this attempt as the History Server lists it.
   */
  default String sparkVersion() {
    if (info().attempts().isEmpty()) {
      return "";
    }
    String v = info().latestAttempt().appSparkVersion();
    return v == null ? "" : v;
  }

  /**
   * What went wrong, folded and bounded, with provenance: failed tasks by cause, failed stages,
   * removed executors, spills, failed SQL executions. By default derived from the model ({@link
   * ApplicationFacts#of}, which reads the failed tasks of each failing stage); a replayed event
   * log answers with what it gathered on its one pass, with line numbers. Sources should cache it.
   */
  default ApplicationFacts facts() {
    return ApplicationFacts.of(this);
  }

  /**
   * Sums of the metrics of a stage attempt's successful tasks, or empty when there is no such
   * attempt. By default summed over {@link #tasks} with status SUCCESS; a replayed event log sums
   * its task columns without building a record per task (a 1M-task application's mapping to
   * Dataproc's telemetry reads this for every stage).
   */
  default Optional<TaskTotals> taskTotals(int stageId, int attemptId) {
    if (stageAttempt(stageId, attemptId, StageQuery.all()).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        TaskTotals.of(tasks(stageId, attemptId, TaskQuery.all().withStatuses(Set.of(TaskStatus.SUCCESS)))));
  }

  /**
   * A hint that the task lists of these stage attempts are read next: a remote source may fetch
   * them together (concurrently, within its settings' parallelism) instead of one after another.
   * The answers are the same with or without the hint; a source may fetch fewer than asked (it
   * keeps a bounded number of task lists). By default nothing: a replayed log has its tasks.
   *
   * <pre>{@code
   * app.prefetchTasks(skewedStages);
   * for (StageData s : skewedStages) {
   *   app.tasks(s.stageId(), s.attemptId(), TaskQuery.first(1).sortedBy(TaskSorting.DECREASING_RUNTIME));
   * }
   * }</pre>
   */
  default void prefetchTasks(List<StageData> attempts) {}

  /** How complete the source's data is; by default complete. */
  default Completeness completeness() {
    return Completeness.complete();
  }
}
