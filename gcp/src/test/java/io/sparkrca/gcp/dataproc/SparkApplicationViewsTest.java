package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The console views over real HTTP against the sparkApplications fake serving a real failed run. */
class SparkApplicationViewsTest {
  private static final String FAILED = "projects/p/locations/us-central1/batches/oom";
  private static final String NONE = "projects/p/locations/us-central1/batches/none";
  private static final String EARLY = "projects/p/locations/us-central1/batches/early";
  private static final String SPILL = "projects/p/locations/us-central1/batches/spill";
  private static SparkApplication spill;
  private static SparkApplicationsFake fake;
  private static SparkApplication app;
  private static SparkApplicationsClient api;

  @BeforeAll
  static void start() throws Exception {
    fake = new SparkApplicationsFake();
    app = EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog());
    fake.serve(FAILED, app).serveNone(NONE)
        .serve(EARLY, EventLogs.replay(TestkitFixtures.get("3.5.9", "driver-fails-before-first-action").eventLog()));
    spill = EventLogs.replay(TestkitFixtures.get("3.5.9", "spill").eventLog());
    fake.serve(SPILL, spill);
    api = SparkApplicationsClient.create(GcpSettings.builder().environment(Map.of()).project("p").region("us-central1")
        .sparkApplicationsEndpoint(fake.endpoint()).retries(2, Duration.ofMillis(10)).build(), "us-central1");
  }

  @AfterAll
  static void stop() {
    fake.close();
  }

  private static SparkApplicationViews views(String parent) {
    return SparkApplicationViews.of(api, DataprocWorkload.parse("dataproc:" + parent, GcpSettings.builder()
        .environment(Map.of()).build()));
  }

  @Test
  void summaryCountsTheStagesAndListsTheFailedOnesWithTheirReason() throws Exception {
    List<StageData> stages = app.stages(StageQuery.all());
    List<StageData> failed = stages.stream().filter(s -> s.status() == StageStatus.FAILED).toList();
    assertThat(failed).as("the fixture has a failed stage").isNotEmpty();
    fake.reset();

    SparkApplicationViews.View v = views(FAILED).render(SparkApplicationViews.Request.builder("summary").build());

    assertThat(v.toMarkdown()).contains("# Spark application summary: `" + app.info().id() + "`",
        "failed: " + failed.size(), "## Failed stages (" + failed.size() + ")",
        "**Stage " + failed.get(0).stageId() + "." + failed.get(0).attemptId() + "**", "OutOfMemoryError");
    assertThat(fake.log()).anySatisfy(l -> assertThat(l).contains(":searchStages", "stageStatus=STAGE_STATUS_FAILED"));
    assertThat(fake.log()).allSatisfy(l -> assertThat(l).satisfiesAnyOf(x -> assertThat(x).contains(":search?"),
        x -> assertThat(x).contains("parent=")));
    JsonNode json = new ObjectMapper().readTree(v.toJson());
    assertThat(json.path("failedStages")).hasSize(failed.size());
    assertThat(json.path("healthIndicators").has("gcOverheadPercentage")).isTrue();
  }

  @Test
  void stagesFilterByStatusOnTheServerAndShowTheFailureReason() {
    fake.reset();
    SparkApplicationViews.View v = views(FAILED).render(SparkApplicationViews.Request.builder("stages").status("failed")
        .quantiles(true).build());
    assertThat(fake.log()).anySatisfy(l -> assertThat(l).contains("stageStatus=STAGE_STATUS_FAILED",
        "summaryMetricsMask=task_quantile_metrics"));
    assertThat(v.toMarkdown()).contains("| Stage | Status | Tasks (failed/killed) |", "| FAILED |", "failure reason:**");
  }

  @Test
  void stageShowsTaskQuantilesAndTasksAreFilteredLocallyWithDeduplicatedErrors() {
    StageData f = app.stages(StageQuery.all()).stream().filter(s -> s.status() == StageStatus.FAILED).findFirst().orElseThrow();
    SparkApplicationViews.View stage = views(FAILED).render(SparkApplicationViews.Request.builder("stage")
        .stage(f.stageId(), f.attemptId()).build());
    assertThat(stage.toMarkdown()).contains("# Stage " + f.stageId() + "." + f.attemptId(), "- Status: FAILED");

    fake.reset();
    SparkApplicationViews.View tasks = views(FAILED).render(SparkApplicationViews.Request.builder("tasks")
        .stage(f.stageId(), f.attemptId()).status("failed").sort("duration").build());
    assertThat(fake.log()).noneSatisfy(l -> assertThat(l).containsAnyOf("taskStatus=", "sortRuntime="));
    assertThat(tasks.toMarkdown()).contains("## Task errors (deduplicated)").doesNotContain("| SUCCESS |");
    assertThat(tasks.toJson()).doesNotContain("\"SUCCESS\"");
  }

  @Test
  void executorsJobsSqlAndEnvironmentRenderAndSecretsAreRedacted() {
    assertThat(views(FAILED).render(SparkApplicationViews.Request.builder("executors").build()).toMarkdown())
        .contains("| Executor | Host | Active |", "| driver |");
    fake.reset();
    assertThat(views(FAILED).render(SparkApplicationViews.Request.builder("jobs").status("failed").build()).toMarkdown())
        .contains("| FAILED |");
    assertThat(fake.log()).anySatisfy(l -> assertThat(l).contains("jobStatus=JOB_EXECUTION_STATUS_FAILED"));
    assertThat(views(FAILED).render(SparkApplicationViews.Request.builder("sql").build()).toMarkdown())
        .contains("# SQL executions of");
    SparkApplicationViews.View env = views(FAILED).render(SparkApplicationViews.Request.builder("environment")
        .grep("MEMORY").build());
    assertThat(env.toMarkdown()).contains("spark.executor.memory").doesNotContain("spark.app.name");
  }

  @Test
  void noApplicationAndZeroStagesAreToldApart() {
    assertThat(views(NONE).render(SparkApplicationViews.Request.builder("applications").build()).toMarkdown())
        .contains("No Spark application found");
    assertThatThrownBy(() -> views(NONE).render(SparkApplicationViews.Request.builder("summary").build()))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("{\"sparkApplications\": []}");
    assertThat(views(EARLY).render(SparkApplicationViews.Request.builder("summary").build()).toMarkdown())
        .contains("No stage ever ran", "driver log");
  }

  @Test
  void insightsPointAtEveryStageThatSpilledToDiskAndAtTheFailedStages() throws Exception {
    List<String> spilled = spill.stages(StageQuery.all()).stream().filter(s -> s.diskBytesSpilled() > 0)
        .map(s -> "stage " + s.stageId() + "." + s.attemptId()).toList();
    assertThat(spilled).as("the spill fixture spills").isNotEmpty();
    JsonNode found = new ObjectMapper().readTree(views(SPILL).render(SparkApplicationViews.Request.builder("insights").build())
        .toJson());
    List<String> atSpill = new java.util.ArrayList<>();
    found.forEach(f -> {
      if (f.path("metric").asText().equals("disk bytes spilled")) {
        atSpill.add(f.path("pointsAt").asText());
      }
    });
    assertThat(atSpill).containsExactlyInAnyOrderElementsOf(spilled);

    long failed = app.stages(StageQuery.all()).stream().filter(s -> s.status() == StageStatus.FAILED).count();
    SparkApplicationViews.View oom = views(FAILED).render(SparkApplicationViews.Request.builder("insights").build());
    assertThat(oom.toMarkdown()).contains("| Points at | Metric | Value | Threshold |",
        "| application " + app.info().id() + " | failed stages | " + failed + ".00 | 0.00 |");
  }

  @Test
  void badRequestsSayWhatIsMissing() {
    assertThatThrownBy(() -> SparkApplicationViews.Request.builder("stage").build())
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("stage id is required");
    assertThatThrownBy(() -> SparkApplicationViews.Request.builder("bogus").build())
        .hasMessageContaining("use one of applications, summary");
    assertThatThrownBy(() -> SparkApplicationViews.Request.builder("tasks").stage(1, 0).limit(0).build())
        .hasMessageContaining("must be positive");
  }

  @Test
  void errorsAreSummarizedAsThePythonToolsDo() {
    String jvm = String.join("\n", "Job aborted due to stage failure: boom",
        "\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:2)",
        "\tat com.example.Divide.run(Divide.java:10)", "\tat java.base/java.lang.Thread.run(Thread.java:840)",
        "Caused by: java.lang.RuntimeException: wrapper", "Caused by: java.lang.ArithmeticException: / by zero");
    assertThat(SparkApplicationViews.summarizeError(jvm)).contains("Job aborted", "com.example.Divide.run",
        "ArithmeticException: / by zero").doesNotContain("DAGScheduler", "wrapper");
    assertThat(SparkApplicationViews.summarizeError("boom\nCaused by: java.io.IOException: disk"))
        .isEqualTo("boom | Caused by: java.io.IOException: disk");
    assertThat(SparkApplicationViews.summarizeError("")).isEmpty();
  }
}
