package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparkrca rca} on real testkit runs: its outputs, exit codes and errors. */
class RcaCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void aFailedApplicationGetsItsRootCauseAsJsonAndExitCodeOne() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    CliRun r = CliRun.of("rca", f.eventLog().toString(), "--driver-log", f.driverLog().toString(), "--format", "json");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(RcaSchema.errors(r.out())).isEmpty();
    JsonNode root = JSON.readTree(r.out()).path("rootCause");
    assertThat(root.path("kind").asText()).isEqualTo("DETERMINISTIC_DATA_FAILURE");
    assertThat(root.path("confidence").asText()).isEqualTo("CONFIRMED");
    assertThat(root.path("stageIds").toString()).isEqualTo("[0]");
    assertThat(root.path("partitionIndex").asInt()).isEqualTo(2);
    assertThat(JSON.readTree(r.out()).path("failureChain").size()).isGreaterThan(1);
    assertThat(r.err()).contains("DETERMINISTIC_DATA_FAILURE (confirmed)");
  }

  @Test
  void aTeamsOwnFailureFamilyNamesTheCauseOfALogAndABrokenOneIsAnError(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("driver.log");
    java.nio.file.Files.writeString(log, String.join("\n",
        "26/12/07 21:02:11 INFO SparkContext: Running Spark version 3.5.9",
        "26/12/07 21:04:40 ERROR Main: the nightly load failed",
        "com.example.warehouse.WarehouseSlotsExhausted: no free slots in reservation etl-prod",
        "\tat com.example.warehouse.Reader.open(Reader.java:42)", ""));
    Path mine = dir.resolve("our-failures.json");
    java.nio.file.Files.writeString(mine, """
        {"schemaVersion": 1, "families": [{"id": "warehouse-slots-exhausted", "kind": "CLOUD_QUOTA_EXCEEDED",
          "title": "The warehouse had no free slots", "meaning": "The reservation had no free query slots.",
          "check": ["The reservation's usage"], "fix": {"action": "Raise the reservation.", "rationale": "Slots bound queries.",
          "properties": [{"name": "spark.datasource.warehouse.maxConcurrentQueries", "value": "4", "why": "fewer slots"}]},
          "wordings": [{"regex": "WarehouseSlotsExhausted", "decisive": true}]}]}
        """);
    CliRun without = CliRun.of("rca", "--driver-log", log.toString(), "--format", "json");
    assertThat(JSON.readTree(without.out()).path("rootCause").path("kind").asText()).isNotEqualTo("CLOUD_QUOTA_EXCEEDED");

    CliRun r = CliRun.of("rca", "--driver-log", log.toString(), "--signatures", mine.toString(), "--format", "json");
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode root = JSON.readTree(r.out()).path("rootCause");
    assertThat(root.path("kind").asText()).isEqualTo("CLOUD_QUOTA_EXCEEDED");
    assertThat(root.path("confidence").asText()).isEqualTo("CONFIRMED");
    assertThat(r.out()).contains("spark.datasource.warehouse.maxConcurrentQueries");

    Path broken = dir.resolve("broken.json");
    java.nio.file.Files.writeString(broken, "{\"schemaVersion\": 1, \"families\": [{\"id\": \"x\", \"kind\": \"NO_SUCH_KIND\"}]}");
    CliRun bad = CliRun.of("rca", "--driver-log", log.toString(), "--signatures", broken.toString());
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("broken.json", "is broken").doesNotContain("\tat ");
  }

  @Test
  void aHealthyApplicationExitsZeroWithAMarkdownReport() {
    CliRun r = CliRun.of("rca", TestkitFixtures.get("4.0.4", "healthy").eventLog().toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("### Root Cause Analysis (RCA)", "`HEALTHY`", "### 4. Remediation Plan");
  }

  @Test
  void aTwinIsJudgedAgainstItsBaseline() throws Exception {
    CliRun r = CliRun.of("rca", TestkitFixtures.get("3.5.9", "config-regression").eventLog().toString(),
        "--baseline", TestkitFixtures.get("3.5.9", "healthy").eventLog().toString(), "--format", "json");
    assertThat(r.exitCode()).isEqualTo(1);
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.path("rootCause").path("kind").asText()).isEqualTo("CONFIG_REGRESSION");
    assertThat(report.path("recommendations").toString()).contains("spark.sql.shuffle.partitions");
  }

  @Test
  void theReportGoesToTheOutputFile(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("reports/rca.json");
    CliRun r = CliRun.of("rca", TestkitFixtures.get("3.5.9", "spill").eventLog().toString(), "--format", "json",
        "--output", out.toString());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(JSON.readTree(Files.readString(out)).path("rootCause").path("kind").asText()).isEqualTo("SPILL");
  }

  @Test
  void anEventLogThatDoesNotExistIsAnErrorWithExitCodeTwo(@TempDir Path dir) throws Exception {
    CliRun r = CliRun.of("rca", dir.resolve("nope").toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("nope").doesNotContain("Exception\n\tat ");
    String missing = dir.resolve("nope").toString();
    assertThat(r.err().strip()).as("the path once, the advice once")
        .startsWith("sparkrca: " + missing + " not found: check the path or URL; an event log exists only when")
        .doesNotContain(missing + ": " + missing).doesNotContain("(check the path");
    CliRun json = CliRun.of("rca", dir.resolve("nope").toString(), "--format", "json");
    assertThat(json.exitCode()).isEqualTo(2);
    assertThat(JSON.readTree(json.out()).path("status").asText()).isEqualTo("ERROR");
  }

  @Test
  void withoutAnyInputTheUsageIsExplained() {
    CliRun r = CliRun.of("rca");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("an event log is required");
  }

  @Test
  void aDirectoryOfLogsIsSortedByContent() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    CliRun r = CliRun.of("rca", f.eventLog().toString(), "--log", f.dir().resolve("executor-logs").toString(),
        "--log", f.driverLog().toString(), "--format", "json");
    JsonNode report = JSON.readTree(r.out());
    assertThat(report.path("rootCause").path("kind").asText()).isEqualTo("EXECUTOR_OOM_HEAP");
    assertThat(report.path("missingEvidence").toString()).doesNotContain("executor logs", "driver log");
  }
}
