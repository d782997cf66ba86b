package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparkrca compare} on the testkit's real twins: verdicts, exit codes, outputs and errors. */
class CompareCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  private static String log(String version, String scenario) {
    return TestkitFixtures.get(version, scenario).eventLog().toString();
  }

  @Test
  void aConfigRegressionIsNamedWithTheChangedPropertyAsJsonAndExitCodeOne() throws Exception {
    CliRun r = CliRun.of("compare", log("3.5.9", "config-regression"), log("3.5.9", "healthy"), "--format", "json");
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode c = JSON.readTree(r.out());
    assertThat(c.path("verdict").path("kind").asText()).isEqualTo("CONFIG_REGRESSION");
    List<String> changed = new ArrayList<>();
    c.path("configChanges").forEach(x -> changed.add(x.path("property").asText()));
    assertThat(changed).contains("spark.sql.shuffle.partitions");
    assertThat(c.path("firstDivergentStage").path("candidate").path("tasks").asInt())
        .as("the reduce stage of the raised partition count")
        .isEqualTo(Integer.parseInt(TestkitFixtures.get("3.5.9", "config-regression").label().path("evidence")
            .path("changedSettings").path("spark.sql.shuffle.partitions").get(1).asText()));
    assertThat(r.err()).contains("CONFIG_REGRESSION (");
  }

  @Test
  void aRunSlowerOnlyBecauseItsInputGrewSaysSoInMarkdown() {
    CliRun r = CliRun.of("compare", log("4.0.4", "input-growth"), log("4.0.4", "healthy"));
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).contains("NO_REGRESSION_INPUT_GROWTH");
    assertThat(r.err()).contains("NO_REGRESSION_INPUT_GROWTH");
  }

  @Test
  void aRunComparedWithItselfExitsZero() {
    CliRun r = CliRun.of("compare", log("4.0.4", "healthy"), log("4.0.4", "healthy"), "--format", "text");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).contains("HEALTHY");
  }

  @Test
  void theHtmlReportIsWrittenToTheOutputFileAsOneSelfContainedPage(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("reports/compare.html");
    CliRun r = CliRun.of("compare", log("3.5.9", "config-regression"), log("3.5.9", "healthy"), "--format", "html",
        "--output", out.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    String html = Files.readString(out);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("spark.sql.shuffle.partitions").contains("<svg")
        .doesNotContain("<script src").doesNotContain("<link ");
  }

  @Test
  void theCodeOfBothRunsIsComparedAndItsSecretsRedacted(@TempDir Path dir) throws Exception {
    Path before = Files.writeString(dir.resolve("job_v1.py"), "df = spark.read.parquet('in')\ndf.count()\n");
    Path after = Files.writeString(dir.resolve("job_v2.py"),
        "df = spark.read.parquet('in')\ndf = df.repartition(4000)  # password=hunter2\ndf.count()\n");
    CliRun r = CliRun.of("compare", log("3.5.9", "config-regression"), log("3.5.9", "healthy"), "--format", "json",
        "--code", after.toString(), "--baseline-code", before.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode code = JSON.readTree(r.out()).path("code");
    assertThat(code.path("changed").toString()).contains("repartition(4000)");
    assertThat(r.out()).doesNotContain("hunter2");
  }

  @Test
  void unpairedCodeIsAnErrorWithExitCodeTwo() throws Exception {
    CliRun r = CliRun.of("compare", log("3.5.9", "config-regression"), log("3.5.9", "healthy"), "--code", "a.jar");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--baseline-code").doesNotContain("\tat ");
    CliRun json = CliRun.of("compare", log("3.5.9", "config-regression"), log("3.5.9", "healthy"), "--code", "a.jar",
        "--format", "json");
    assertThat(json.exitCode()).isEqualTo(2);
    assertThat(JSON.readTree(json.out()).path("status").asText()).isEqualTo("ERROR");
  }

  @Test
  void aBaselineThatDoesNotExistIsNamedInTheError(@TempDir Path dir) {
    CliRun r = CliRun.of("compare", log("3.5.9", "healthy"), dir.resolve("nope").toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("baseline").contains("nope").doesNotContain("\tat ");
  }
}
