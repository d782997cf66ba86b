package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.serve.HistoryApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sparkrca shs ...} and the {@code --shs URL --app ID} options of the analysis commands,
 * against a History-Server-compatible server ({@code serve}, in-process) over two real testkit
 * runs: a failed one and a healthy one.
 */
class ShsCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path tmp;
  private static HistoryApiServer server;
  private static String failedId;
  private static String healthyId;
  private static String regressedId;

  @BeforeAll
  static void serveTwoRuns() throws IOException {
    TestkitFixtures.Fixture failed = TestkitFixtures.get("4.0.4", "executor-oom");
    TestkitFixtures.Fixture healthy = TestkitFixtures.get("4.0.4", "healthy");
    TestkitFixtures.Fixture regressed = TestkitFixtures.get("4.0.4", "config-regression");
    failedId = failed.label().path("application").path("id").asText();
    healthyId = healthy.label().path("application").path("id").asText();
    regressedId = regressed.label().path("application").path("id").asText();
    Path dir = Files.createDirectories(tmp.resolve("logs"));
    for (TestkitFixtures.Fixture f : new TestkitFixtures.Fixture[] {failed, healthy, regressed}) {
      try (var files = Files.list(f.eventLog().getParent())) {
        for (Path p : (Iterable<Path>) files::iterator) {
          copy(p, dir.resolve(p.getFileName()));
        }
      }
    }
    server = HistoryApiServer.builder(dir.toString()).port(0).build().start();
  }

  private static void copy(Path from, Path to) throws IOException {
    if (Files.isDirectory(from)) {
      Files.createDirectories(to);
      try (var files = Files.list(from)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          copy(p, to.resolve(p.getFileName()));
        }
      }
    } else {
      Files.copy(from, to);
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void applicationsListsWhatTheServerHas() throws IOException {
    CliRun r = CliRun.of("shs", "applications", "--shs", server.url(), "--limit", "10");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = JSON.readTree(r.out());
    assertThat(json.toString()).contains(failedId).contains(healthyId);
  }

  @Test
  void failureHasTheHistoryClientsKeys() throws IOException {
    CliRun r = CliRun.of("shs", "failure", "--shs", server.url(), "--app", failedId, "--stage-limit", "2", "--task-limit", "3");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = JSON.readTree(r.out());
    assertThat(json.path("profile").asText()).isEqualTo("failure");
    assertThat(json.path("applicationId").asText()).isEqualTo(failedId);
    assertThat(json.has("failedJobs") && json.has("failedStages") && json.has("allExecutors")
        && json.has("environment") && json.has("sqlExecutions") && json.has("limitations")).as(json.toString()).isTrue();
    assertThat(json.path("failedStages").size()).isBetween(1, 2);
    JsonNode first = json.path("failedStages").path(0);
    assertThat(first.path("stage").path("status").asText()).isEqualTo("FAILED");
    // As spark_history_api.py: a stage no task finished has no task summary (404), recorded, and its tasks not asked for.
    if (first.path("stage").path("numCompleteTasks").asInt() == 0) {
      assertThat(first.path("collectionError").asText()).as(first.toString()).contains("taskSummary").contains("not found");
      assertThat(first.has("tasks")).isFalse();
    } else {
      assertThat(first.has("taskSummary") && first.has("tasks")).as(first.toString()).isTrue();
      assertThat(first.path("tasks").size()).isBetween(1, 3);
    }
  }

  @Test
  void rcaWithShsAndAppNamesTheSameRootCauseAsTheEventLog() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-oom");
    CliRun fromLog = CliRun.of("rca", f.eventLog().toString(), "--format", "json");
    CliRun fromShs = CliRun.of("rca", "--shs", server.url(), "--app", failedId, "--format", "json");

    assertThat(fromShs.exitCode()).as(fromShs.err()).isEqualTo(1);
    assertThat(rootCause(fromShs.out())).isEqualTo(rootCause(fromLog.out())).isEqualTo(f.rootCause().name());
  }

  @Test
  void summarizeOfAHealthyApplicationOnTheServerExitsZero() {
    CliRun r = CliRun.of("summarize", "--shs", server.url(), "--app", healthyId);

    assertThat(r.exitCode()).as(r.err() + r.out()).isZero();
    assertThat(r.out()).contains(healthyId);
  }

  @Test
  void anUnknownApplicationIsAnErrorNamingTheNearestIds() {
    String wrong = failedId + "x";
    CliRun r = CliRun.of("shs", "failure", "--shs", server.url(), "--app", wrong, "--format", "markdown");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains(wrong).contains(failedId).doesNotContain("at io.sparkrca");
  }

  @Test
  void appWithoutShsIsAnError() {
    CliRun r = CliRun.of("rca", "--app", failedId);

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--shs");
  }

  private static String rootCause(String json) {
    try {
      return JSON.readTree(json).path("rootCause").path("kind").asText();
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + json, e);
    }
  }

  @Test
  void compareNamesTheSameVerdictAsTheEventLogs() throws IOException {
    CliRun shs = CliRun.of("shs", "compare", "--shs", server.url(), "--app", regressedId, "--baseline", healthyId);
    CliRun logs = CliRun.of("compare", TestkitFixtures.get("4.0.4", "config-regression").eventLog().toString(),
        TestkitFixtures.get("4.0.4", "healthy").eventLog().toString(), "--format", "json");

    assertThat(shs.exitCode()).as(shs.err()).isEqualTo(logs.exitCode()).isEqualTo(1);
    JsonNode viaShs = JSON.readTree(shs.out());
    JsonNode viaLogs = JSON.readTree(logs.out());
    assertThat(viaShs.path("verdict").path("kind").asText()).isEqualTo(viaLogs.path("verdict").path("kind").asText())
        .isEqualTo("CONFIG_REGRESSION");
  }
}
