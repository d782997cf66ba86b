package io.sparkrca.core.examples;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkDefaults;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskSorting;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The Javadoc examples of {@code io.sparkrca.core.app}, compiled (see {@link JavadocExamplesTest}). */
class AppExamples {
  /** The example of {@code ApplicationFacts}. */
  void applicationFacts(SparkApplication app) throws Exception {
    ApplicationFacts f = app.facts();
    f.stageFailures().forEach(s -> System.out.println("stage " + s.stageId() + " at " + s.source() + ":" + s.line()));
    f.taskFailures().forEach(g -> System.out.println(g.count() + "x " + g.description()));
  }

  /** The example of {@code Completeness}. */
  void completeness(SparkApplication app) throws Exception {
    Completeness c = app.completeness();
    if (!c.isComplete()) System.err.println("partial data: " + c.describe());
  }

  /** The example of {@code ExecutorRemoval}. */
  void executorRemoval(SparkApplication app) throws Exception {
    app.facts().executorRemovals().forEach(r -> System.out.println(r.executorId() + ": " + r.reason()));
  }

  /** The example of {@code SparkApplication}. */
  void sparkApplication() throws Exception {
    SparkApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-1"));
    for (StageData s : app.stages(StageQuery.all())) {
      System.out.println(s.stageId() + " " + s.status() + " " + s.executorRunTime());
    }
  }

  /** The example of {@code SparkApplication}. */
  void sparkApplicationSparkProperties(SparkApplication app) throws Exception {
    boolean aqe = app.sparkProperties().orElse(List.of()).stream()
        .anyMatch(p -> p.getKey().equals("spark.sql.adaptive.enabled") && p.getValue().equals("true"));
  }

  /** The example of {@code SparkApplication}. */
  void sparkApplicationSparkConf(SparkApplication app) throws Exception {
    String partitions = app.sparkConf().map(c -> c.get("spark.sql.shuffle.partitions")).orElse("200");
  }

  /** The example of {@code SparkApplication}. */
  void sparkApplicationSystemProperty(SparkApplication app) throws Exception {
    Optional<String> zone = app.systemProperty("user.timezone");
  }

  /** The example of {@code SparkApplication}. */
  void sparkApplicationPrefetchTasks(SparkApplication app, List<StageData> skewedStages) throws Exception {
    app.prefetchTasks(skewedStages);
    for (StageData s : skewedStages) {
      app.tasks(s.stageId(), s.attemptId(), TaskQuery.first(1).sortedBy(TaskSorting.DECREASING_RUNTIME));
    }
  }

  /** The example of {@code SparkDefaults}. */
  void sparkDefaults() throws Exception {
    Map<String, String> conf = SparkDefaults.effective(Map.of(), Optional.of("3.5.1"));
    conf.get("spark.sql.adaptive.enabled"); // "true": AQE is on by default since Spark 3.2
  }

  /** The example of {@code SparkHistory}. */
  void sparkHistory() throws Exception {
    SparkHistory history = EventLogs.reader().build().history("/tmp/spark-events");
    for (ApplicationInfo app : history.applications()) System.out.println(app.id());
    SparkApplication one = history.application("app-1", Optional.empty()).orElseThrow();
  }

  /** The example of {@code JobFailure}. */
  void jobFailure(SparkApplication app) throws Exception {
    app.facts().jobFailures().forEach(f -> System.out.println("job " + f.jobId() + ": " + f.error()));
  }

  /** The example of {@code SqlFailure}. */
  void sqlFailure(SparkApplication app) throws Exception {
    app.facts().sqlFailures().forEach(f -> System.out.println(f.executionId() + ": " + f.errorMessage()));
  }

  /** The example of {@code StageFailure}. */
  void stageFailure(SparkApplication app) throws Exception {
    app.facts().stageFailures().forEach(f -> System.out.println(f.stageId() + ": " + f.reason()));
  }

  /** The example of {@code StageQuery}. */
  void stageQuery(SparkApplication app) throws Exception {
    app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED)));
    app.stageAttempt(2, 0, StageQuery.all().withSummaries(List.of(0.5, 0.99)));
  }

  /** The example of {@code StageSpill}. */
  void stageSpill(SparkApplication app) throws Exception {
    app.facts().stageSpills().forEach(s -> System.out.println(s.stageId() + ": " + s.diskBytes() + " bytes to disk"));
  }

  /** The example of {@code TaskFailureGroup}. */
  void taskFailureGroup(SparkApplication app) throws Exception {
    for (TaskFailureGroup g : app.facts().taskFailures()) {
      System.out.println(g.count() + "x " + g.description() + " (first at line " + g.firstLine() + ")");
    }
  }

  /** The example of {@code TaskQuery}. */
  void taskQuery(SparkApplication app) throws Exception {
    app.tasks(1, 0, TaskQuery.first(10).sortedBy(TaskSorting.DECREASING_RUNTIME)); // 10 slowest
  }
}
