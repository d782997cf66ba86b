package io.sparkrca.core.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.summary.ApplicationSummary.Outcome;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary's status says what the log shows, on the testkit's real runs. */
class ApplicationSummaryTest {
  private static final List<String> VERSIONS = List.of("3.5.9", "4.0.4");

  private static ApplicationSummary summary(String version, String scenario) {
    Path log = TestkitFixtures.get(version, scenario).eventLog();
    return ApplicationSummary.of(EventLogs.replay(log), scenario);
  }

  @Test
  void anApplicationWithAFailedJobIsFailedAndSaysHowManyJobsFailed() {
    for (String v : VERSIONS) {
      ApplicationSummary s = summary(v, "bad-record");
      assertThat(s.outcome()).as(v).isEqualTo(Outcome.FAILED);
      assertThat(s.status()).as(v).isEqualTo("FAILED (1 of 1 jobs failed)");
      assertThat(SummaryMarkdown.render(s)).as(v).contains("- **Status**: FAILED (1 of 1 jobs failed)\n");
    }
  }

  @Test
  void aDriverThatFailedBeforeItsFirstActionIsNeverCompleted() {
    ApplicationSummary spark35 = summary("3.5.9", "driver-fails-before-first-action");
    assertThat(spark35.outcome()).isEqualTo(Outcome.NO_JOB_RAN);
    assertThat(spark35.status())
        .isEqualTo("FINISHED, NO JOB RAN (the driver probably failed before its first action: read the driver log)");
    assertThat(spark35.exitCode()).isEmpty();

    // Spark 4 records the failed query that never got to a job, and an exit code that proves nothing.
    ApplicationSummary spark40 = summary("4.0.4", "driver-fails-before-first-action");
    assertThat(spark40.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(spark40.status())
        .startsWith("FAILED (SQL execution 0 failed before any job ran: [PATH_NOT_FOUND] Path does not exist: file:");
    assertThat(spark40.exitCode()).contains(0);
    assertThat(SummaryMarkdown.render(spark40))
        .contains("- **Driver Exit Code**: `0` (as the application end event records it: a driver that stops its"
            + " SparkContext before failing still reports 0)");
  }

  @Test
  void aFailedJobCommitIsFailedWithTheQuerysError() {
    for (String v : VERSIONS) {
      ApplicationSummary s = summary(v, "write-commit-failure");
      assertThat(s.jobs().failed()).as(v).isZero();
      assertThat(s.outcome()).as(v).isEqualTo(Outcome.FAILED);
      assertThat(s.status()).as(v)
          .startsWith("FAILED (SQL execution 0 failed: java.io.IOException: Injected fault: could not commit the job")
          .doesNotContain("\n");
    }
  }

  @Test
  void failedSqlExecutionsAreListedWithTheirError() {
    for (String v : VERSIONS) {
      ApplicationSummary s = summary(v, "write-commit-failure");
      assertThat(s.sqlFailures()).as(v).singleElement().satisfies(q -> {
        assertThat(q.executionId()).isZero();
        assertThat(q.errorMessage()).contains("Injected fault: could not commit the job").contains("FailingJobCommitter");
        assertThat(q.errorMessage().length()).isLessThanOrEqualTo(ApplicationSummary.MAX_ERROR_CHARS);
      });
      String md = SummaryMarkdown.render(s);
      assertThat(md).as(v)
          .contains("### Failed SQL Executions (1)\n- **Execution 0** (`json at Workload.java:251`) at line 20:\n"
              + "  - Error: `java.io.IOException: Injected fault: could not commit the job");
      String errorLine = md.lines().filter(l -> l.startsWith("  - Error: ")).findFirst().orElseThrow();
      assertThat(errorLine).endsWith("...[truncated]`").hasSizeLessThan(700);
      assertThat(SparkJson.write(s)).as(v).contains("\"sqlFailures\"").contains("Injected fault");
    }
  }

  @Test
  void aFailedSqlExecutionsErrorIsRedacted(@TempDir Path dir) throws IOException {
    Path original = TestkitFixtures.get("3.5.9", "write-commit-failure").eventLog();
    Path log = dir.resolve("with-secret");
    Files.writeString(log,
        Files.readString(original, StandardCharsets.UTF_8)
            .replace("Injected fault: could not commit the job", "upload to https://admin:hunter2@storage.example.com/out failed"),
        StandardCharsets.UTF_8);
    ApplicationSummary s = ApplicationSummary.of(EventLogs.replay(log), log.toString());
    assertThat(s.sqlFailures().get(0).errorMessage()).contains("storage.example.com").doesNotContain("hunter2");
    assertThat(s.status()).contains("storage.example.com").doesNotContain("hunter2");
    assertThat(SummaryMarkdown.render(s)).doesNotContain("hunter2");
    assertThat(SparkJson.write(s)).doesNotContain("hunter2");
  }

  @Test
  void aNonZeroExitCodeIsAFailureEvenWhenEveryJobSucceeded(@TempDir Path dir) throws IOException {
    Path original = TestkitFixtures.get("3.5.9", "healthy").eventLog();
    Path log = dir.resolve("exit-3");
    String text = Files.readString(original, StandardCharsets.UTF_8);
    String end = "\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":";
    int at = text.indexOf(end);
    int close = text.indexOf('}', at);
    Files.writeString(log, text.substring(0, close) + ",\"ExitCode\":3" + text.substring(close), StandardCharsets.UTF_8);

    ApplicationSummary s = ApplicationSummary.of(EventLogs.replay(log), log.toString());
    assertThat(s.exitCode()).isEqualTo(Optional.of(3));
    assertThat(s.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(s.status()).isEqualTo("FAILED (the driver exited with code 3)");
    assertThat(SummaryMarkdown.render(s)).contains("- **Driver Exit Code**: `3`\n");
  }

  @Test
  void completedMeansNothingFailed() {
    for (String v : VERSIONS) {
      ApplicationSummary healthy = summary(v, "healthy");
      assertThat(healthy.outcome()).as(v).isEqualTo(Outcome.COMPLETED);
      assertThat(healthy.status()).as(v).isEqualTo("COMPLETED");
      ApplicationSummary retried = summary(v, "executor-lost-fetch-failure");
      assertThat(retried.outcome()).as(v).isEqualTo(Outcome.COMPLETED);
      assertThat(retried.status()).as(v).isEqualTo("COMPLETED (its only job succeeded; 1 failed stage attempt was retried)");
    }
    assertThat(SummaryMarkdown.render(summary("4.0.4", "healthy"))).contains("- **Driver Exit Code**: `0`\n");
  }

  @Test
  void aLogCutOffWithoutAFailureIsRunning() {
    ApplicationSummary s = summary("3.5.9", "bad-record-inprogress");
    assertThat(s.outcome()).isEqualTo(Outcome.RUNNING);
    assertThat(s.status()).isEqualTo("RUNNING (the log is cut off or still being written)");
  }

  @Test
  void theGcShareIsOfTheExecutorRunTimeAndTheLabelSaysSo() {
    for (String v : VERSIONS) {
      ApplicationSummary s = summary(v, "gc-pressure");
      long runTime = TestkitFixtures.get(v, "gc-pressure").label().path("summary").path("taskRunTimeMs").asLong();
      assertThat(s.executorRunTimeMs()).as(v).isEqualTo(runTime);
      assertThat(s.gcShare()).as(v).isEqualTo((double) s.totalGcTimeMs() / runTime);
      assertThat(SummaryMarkdown.render(s)).as(v)
          .contains("- **Total JVM GC Time**: `" + s.totalGcTimeMs() + " ms` (")
          .contains("% of the executor run time, `" + runTime + " ms` summed over every stage attempt)")
          .doesNotContain("of task time");
    }
  }
}
