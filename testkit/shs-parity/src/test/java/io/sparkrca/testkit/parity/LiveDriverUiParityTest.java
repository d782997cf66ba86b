package io.sparkrca.testkit.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.testing.JsonDiff;
import io.sparkrca.core.testing.ShsJson;
import io.sparkrca.historyserver.HistoryServerApplication;
import io.sparkrca.historyserver.HistoryServerHistory;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.testing.RecordedAnswers;
import io.sparkrca.rules.OutputContract;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.testkit.ForkedJvm;
import io.sparkrca.testkit.LiveApplication;
import io.sparkrca.testkit.SparkDistribution;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source parity against a live driver UI (issue 12 §3): one real Spark application per class
 * ({@link LiveApplication}: a SQL aggregation, a job with a failed and retried task, a job that
 * fails on a bad record), paused while it still runs, read through the History Server client from
 * its own UI on a free port, and compared with what its event log, written by the same run and
 * still in progress, replays to here. Then it is released and must end normally.
 *
 * <p>What must be equal: every REST answer about the jobs, stages (every attempt, with details,
 * task lists and task summaries), environment, storage, SQL executions and the executors' task
 * counts and totals; {@code summarize} and {@code rules} outputs; {@code rca}'s root cause,
 * confidence, verdict, culprit stages and findings. What legitimately differs for a running
 * application, and only that:
 * <ul>
 *   <li>the attempt's {@code duration}: the driver measures it up to now, the log of a running
 *       application has no end (0);
 *   <li>the executors' {@code totalDuration} (up to now), {@code memoryUsed}/{@code
 *       memoryMetrics} (the driver sees block updates, which the event log does not carry by
 *       default) and {@code totalGCTime} (the driver takes it from heartbeats);
 *   <li>peak memory metrics wherever they appear ({@code peakMemoryMetrics}, {@code
 *       peakExecutorMetrics}: of executors, of stages, of a stage's executor summaries and metric
 *       distributions): the driver samples them from heartbeats, the log has only what task ends
 *       carried (and stage ends, when {@code spark.eventLog.logStageExecutorMetrics} is on);
 *   <li>in the SQL answers, plan-node metrics the driver lists with a value of zero that no task
 *       ever reported (the event log carries only non-zero accumulator updates);
 *   <li>the application's status: the driver's UI knows the application is running ({@code
 *       RUNNING}); its in-progress log cannot tell a running application from a dead driver
 *       ({@code INCOMPLETE}, no application end event);
 *   <li>on Spark 3.5, the {@code ConcurrentGC*} peak-metric keys its REST model does not have;
 *   <li>in {@code summarize} and {@code rules}, what the parity test with the History Server already
 *       names: local mode's task time launch-to-finish, and the driver's uptime.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class LiveDriverUiParityTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LiveApplication live;
  private String appId;

  abstract String sparkVersion();

  @BeforeAll
  void startTheApplicationAndLetItPause(@TempDir Path work) throws IOException {
    live = LiveApplication.start(SparkDistribution.locate(sparkVersion()), work, Duration.ofMinutes(3));
    appId = replay().info().id();
  }

  @AfterAll
  void stop() {
    if (live != null) {
      live.close();
    }
  }

  LiveApplication live() {
    return live;
  }

  String appId() {
    return appId;
  }

  /** The in-progress event log as it is now, replayed here. */
  SparkApplication replay() throws IOException {
    return EventLogs.reader().build().replay(live.eventLog().toString());
  }

  @Test
  @Order(1)
  void theDriverUiServesOneRunningApplicationWithoutAttemptId() throws IOException {
    HistoryServerHistory ui = HistoryServerHistory.open(live.uiUrl(), HistoryServerSettings.defaults());
    List<ApplicationInfo> apps = ui.applications();
    assertThat(apps).as("applications the driver UI at %s lists", live.uiUrl()).hasSize(1);
    assertThat(apps.get(0).id()).as("its application id").isEqualTo(appId);
    ApplicationAttemptInfo a = apps.get(0).latestAttempt();
    assertThat(a.attemptId()).as("attempt id on a driver UI").isEmpty();
    assertThat(a.completed()).as("completed").isFalse();
    assertThat(a.endTime().toEpochMilli()).as("end time").isEqualTo(-1);
    assertThat(a.duration()).as("duration, measured by the driver up to now").isPositive();

    // The UI's bare root names its only application, as `sparkrca rca http://localhost:4040` reads it.
    SparkApplication app = SparkSources.defaults().application(live.uiUrl());
    assertThat(app).as("the provider for the driver UI's URL").isInstanceOf(HistoryServerApplication.class);
    HistoryServerApplication h = (HistoryServerApplication) app;
    assertThat(h.path()).as("REST path of the live application").isEqualTo("applications/" + appId);
    assertThat(h.attemptId()).isEmpty();
    assertThat(h.servedByRunningDriver()).as("recognised as a running driver's own UI").isTrue();
    assertThat(h.completeness().cutOff()).as("its data ends before the application does").isTrue();
    assertThat(h.completeness().notes()).as("completeness notes").anySatisfy(n -> assertThat(n).contains("still running"));
  }

  @Test
  @Order(2)
  void everyRestAnswerEqualsTheInProgressLogsReplay() throws IOException {
    SparkApplication replayed = replay();
    // The run did what the analysis needs: a failed task that was retried, a failed stage and job.
    assertThat(replayed.stages(StageQuery.all()).stream().filter(s -> s.status() == StageStatus.FAILED))
        .as("failed stages in the log").isNotEmpty();
    assertThat(replayed.facts().tasksFailed()).as("failed tasks in the log").isGreaterThanOrEqualTo(3);
    assertThat(replayed.info().latestAttempt().completed()).as("the log is in progress").isFalse();

    RestRouter ours = RestRouter.over(EventLogs.reader().build().history(live.eventLogDir().toString(), 4));
    RestRouter theirs = RestRouter.over(HistoryServerHistory.open(live.uiUrl(), HistoryServerSettings.defaults()));
    String app = "applications/" + appId;
    Set<String> paths = new LinkedHashSet<>(List.of("applications", app, app + "/jobs", app + "/jobs?status=failed",
        app + "/stages", app + "/stages?withSummaries=true", app + "/stages?status=failed",
        app + "/stages?details=true&taskStatus=FAILED", app + "/executors", app + "/allexecutors",
        app + "/environment", app + "/storage/rdd", app + "/allmiscellaneousprocess", app + "/sql"));
    replayed.jobs(Set.of()).forEach(j -> paths.add(app + "/jobs/" + j.jobId()));
    for (StageData s : replayed.stages(StageQuery.all())) {
      String sp = app + "/stages/" + s.stageId() + "/" + s.attemptId();
      paths.addAll(List.of(app + "/stages/" + s.stageId(), sp, sp + "/taskSummary", sp + "/taskList?length=200",
          sp + "/taskList?status=FAILED"));
    }
    replayed.sqlExecutions().forEach(e -> paths.add(app + "/sql/" + e.id()));
    assertThat(paths).as("paths compared").hasSizeGreaterThan(40);

    List<String> diffs = new ArrayList<>();
    for (String path : paths) {
      ApiResponse expected = ours.get(path);
      ApiResponse actual = theirs.get(path);
      if (expected.status() != actual.status()) {
        diffs.add(path + ": status " + actual.status() + " (" + actual.body() + "), expected " + expected.status());
        continue;
      }
      if (expected.ok()) {
        JsonNode e = normalize(JSON.readTree(expected.body()));
        JsonNode a = normalize(JSON.readTree(actual.body()));
        diffs.addAll(liveOnly(path, e, a));
        for (String d : JsonDiff.diff(e, a, 5)) {
          diffs.add(path + " " + d);
        }
      }
    }
    assertThat(diffs).as("REST answers of the live driver UI that differ from its in-progress log's replay").isEmpty();
  }

  @Test
  @Order(3)
  void summarizeGivesTheReplaysSummaryAndSaysTheApplicationIsRunning() throws IOException {
    ObjectNode expected = (ObjectNode) HistoryServerParityTest.sourceFree(JSON.readTree(ApplicationSummary.of(replay(), "x").toJson()));
    ObjectNode actual = (ObjectNode) HistoryServerParityTest.sourceFree(JSON.readTree(ApplicationSummary.of(liveApp(), "x").toJson()));

    assertThat(actual.path("status").asText()).as("status of the live application").startsWith("FAILED");
    assertThat(actual.path("status").asText()).as("status of the live application").contains("still being written");
    assertThat(expected.path("status").asText()).as("status from its in-progress log").contains("no application end event");
    for (ObjectNode n : List.of(expected, actual)) {
      n.remove("status"); // the one sentence above: running (live) vs no end event (log)
      n.remove("totalTaskTimeMs"); // local mode: the driver's executor entry gives its uptime, not its tasks' time
    }
    assertThat(JsonDiff.diff(expected, actual)).as("summary from the live driver UI vs its in-progress log").isEmpty();
  }

  @Test
  @Order(4)
  void rulesGiveTheReplaysResult() throws IOException {
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    JsonNode expected = JSON.readTree(engine.evaluate(replay()).toJson(OutputContract.AGENT));
    JsonNode actual = JSON.readTree(engine.evaluate(liveApp()).toJson(OutputContract.AGENT));
    // The driver's uptime, measured up to now (the live UI) or to the log's last event.
    RecordedAnswers.dropKeys(expected, "totalDurationMs");
    RecordedAnswers.dropKeys(actual, "totalDurationMs");

    assertThat(JsonDiff.diff(expected, actual)).as("recommended rules on the live driver UI vs its in-progress log").isEmpty();
  }

  @Test
  @Order(5)
  void rcaNamesTheReplaysRootCauseAndSaysTheApplicationIsStillRunning() throws IOException {
    RcaReport expected = RcaEngine.standard().analyze(EvidenceCollector.builder().application(live.eventLog().toString()).build().collect());
    RcaReport actual = RcaEngine.standard().analyze(EvidenceCollector.builder().application(live.uiUrl()).build().collect());

    assertThat(actual.rootCause().kind()).as("root cause").isNotEqualTo(RootCauseKind.HEALTHY).isEqualTo(expected.rootCause().kind());
    assertThat(actual.rootCause().confidence()).as("confidence").isEqualTo(expected.rootCause().confidence());
    assertThat(actual.verdict()).as("verdict").isEqualTo(expected.verdict());
    Set<Integer> failedStages = new HashSet<>();
    replay().stages(StageQuery.all()).stream().filter(s -> s.status() == StageStatus.FAILED).forEach(s -> failedStages.add(s.stageId()));
    assertThat(actual.rootCause().culprit().stageIds()).as("culprit stages").isEqualTo(expected.rootCause().culprit().stageIds())
        .containsAnyElementsOf(failedStages);
    assertThat(HistoryServerParityTest.findings(actual)).as("findings").isEqualTo(HistoryServerParityTest.findings(expected));
    assertThat(actual.missingEvidence()).as("missing evidence of the live report")
        .anySatisfy(m -> assertThat(m.reason()).isEqualTo(GapReason.CUT_OFF));
    assertThat(actual.notes()).as("notes of the live report").anySatisfy(n -> assertThat(n).contains("still being written"));
    assertThat(actual.toMarkdown()).as("the live report in Markdown").contains("still running");
  }

  @Test
  @Order(7)
  void theDriverUiServesNoEventLogAndSaysWhereToReadIt() {
    HistoryServerHistory ui = HistoryServerHistory.open(live.uiUrl(), HistoryServerSettings.defaults());
    assertThatThrownBy(() -> ui.downloadEventLog(appId, Optional.empty()).close())
        .as("downloading the event log from a driver UI").isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("applications/" + appId + "/logs").hasMessageContaining("driver UI");
  }

  @Test
  @Order(8)
  void releasedItEndsNormallyAndItsCompletedLogStillAgreesWithWhatTheUiShowed() throws IOException {
    List<String> liveJobs = new ArrayList<>();
    liveApp().jobs(Set.of()).forEach(j -> liveJobs.add(j.jobId() + " " + j.status()));
    live.release();
    ForkedJvm.Outcome end = live.awaitExit(Duration.ofMinutes(1));
    assertThat(end.timedOut()).as("the application ended after its release:\n%s", live.tailOfLogs()).isFalse();
    assertThat(end.exitCode()).as("its exit code:\n%s", live.tailOfLogs()).isEqualTo(0);
    SparkApplication done = replay();
    assertThat(done.info().latestAttempt().completed()).as("its log has the application's end").isTrue();
    List<String> loggedJobs = new ArrayList<>();
    done.jobs(Set.of()).forEach(j -> loggedJobs.add(j.jobId() + " " + j.status()));
    assertThat(loggedJobs).as("jobs of the finished log vs those the live UI showed").isEqualTo(liveJobs);
  }

  private SparkApplication liveApp() {
    return SparkSources.defaults().application(live.uiUrl() + "/api/v1/applications/" + appId);
  }

  private JsonNode normalize(JsonNode n) {
    ShsJson.normalize(n);
    if (sparkVersion().startsWith("3.")) {
      RecordedAnswers.dropKeys(n, "ConcurrentGCCount", "ConcurrentGCTime");
    }
    // Peak memory metrics, wherever they are (executors, stages, a stage's executor summaries and
    // metric distributions): the driver samples them from heartbeats, the log has only what task
    // ends (and, when spark.eventLog.logStageExecutorMetrics is on, stage ends) carried.
    RecordedAnswers.dropKeys(n, "peakMemoryMetrics", "peakExecutorMetrics");
    return n;
  }

  /**
   * Checks and removes, in place, the values only a running driver has (see the class comment),
   * returning what is wrong with them.
   */
  private static List<String> liveOnly(String path, JsonNode expected, JsonNode actual) {
    List<String> wrong = new ArrayList<>();
    String endpoint = path.replaceAll("\\?.*", "").replaceAll("^applications/[^/]+", "app");
    if (endpoint.equals("applications") || endpoint.equals("app")) {
      List<JsonNode> e = expected.findParents("duration");
      List<JsonNode> a = actual.findParents("duration");
      for (JsonNode n : e) {
        if (n.path("duration").asLong() != 0) {
          wrong.add(path + ": the in-progress log's attempt has a duration " + n.path("duration"));
        }
        ((ObjectNode) n).remove("duration");
      }
      for (JsonNode n : a) {
        if (n.path("duration").asLong() <= 0) {
          wrong.add(path + ": the driver's attempt has no duration up to now: " + n.path("duration"));
        }
        ((ObjectNode) n).remove("duration");
      }
    } else if (endpoint.equals("app/executors") || endpoint.equals("app/allexecutors")) {
      for (JsonNode n : List.of(expected, actual)) {
        n.forEach(x -> ((ObjectNode) x).remove(List.of("totalDuration", "memoryUsed", "memoryMetrics", "totalGCTime")));
      }
    } else if (endpoint.startsWith("app/sql")) {
      Map<String, JsonNode> logged = new HashMap<>();
      for (JsonNode exec : expected.isArray() ? expected : JSON.createArrayNode().add(expected)) {
        exec.path("nodes").forEach(node -> logged.put(exec.path("id") + "/" + node.path("nodeId"), node));
      }
      for (JsonNode exec : actual.isArray() ? actual : JSON.createArrayNode().add(actual)) {
        for (JsonNode node : exec.path("nodes")) {
          JsonNode theirs = logged.get(exec.path("id") + "/" + node.path("nodeId"));
          if (theirs == null || !(node.path("metrics") instanceof ArrayNode metrics)) {
            continue;
          }
          Set<String> names = new HashSet<>();
          theirs.path("metrics").forEach(m -> names.add(m.path("name").asText()));
          for (int i = metrics.size() - 1; i >= 0; i--) {
            JsonNode m = metrics.get(i);
            if (!names.contains(m.path("name").asText()) && !m.path("value").asText().matches("(?s).*[1-9].*")) {
              metrics.remove(i); // zero, never reported by a task: only the driver lists it
            }
          }
        }
      }
    }
    return wrong;
  }
}
