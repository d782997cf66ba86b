package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparkrca summarize} on the testkit's real runs: the status and the exit code say whether the application failed. */
class SummarizeCommandTest {
  private static String log(String version, String scenario) {
    return TestkitFixtures.get(version, scenario).eventLog().toString();
  }

  @Test
  void aFailedApplicationExitsOneAndSaysWhyItFailed() {
    CliRun jobs = CliRun.of("summarize", log("3.5.9", "bad-record"));
    assertThat(jobs.exitCode()).isEqualTo(1);
    assertThat(jobs.out()).contains("- **Status**: FAILED (1 of 1 jobs failed)\n").doesNotContain("COMPLETED");

    CliRun commit = CliRun.of("summarize", log("4.0.4", "write-commit-failure"));
    assertThat(commit.exitCode()).isEqualTo(1);
    assertThat(commit.out())
        .contains("- **Status**: FAILED (SQL execution 0 failed: java.io.IOException: Injected fault: could not commit the job")
        .contains("### Failed SQL Executions (1)")
        .contains("  - Error: `java.io.IOException: Injected fault: could not commit the job");
    assertThat(commit.err()).isEmpty();
  }

  @Test
  void aDriverThatRanNoJobSaysSoAndExitsZeroWhenNothingRecordedAFailure() {
    CliRun spark35 = CliRun.of("summarize", log("3.5.9", "driver-fails-before-first-action"));
    assertThat(spark35.exitCode()).isZero();
    assertThat(spark35.out())
        .contains("- **Status**: FINISHED, NO JOB RAN (the driver probably failed before its first action: read the driver log)");
    CliRun spark40 = CliRun.of("summarize", log("4.0.4", "driver-fails-before-first-action"));
    assertThat(spark40.exitCode()).isEqualTo(1);
    assertThat(spark40.out()).contains("- **Status**: FAILED (SQL execution 0 failed before any job ran: \\[PATH\\_NOT\\_FOUND\\]");
  }

  @Test
  void aHealthyApplicationExitsZeroAndTheJsonCarriesTheOutcome() throws IOException {
    CliRun md = CliRun.of("summarize", log("4.0.4", "healthy"));
    assertThat(md.exitCode()).isZero();
    assertThat(md.out()).contains("- **Status**: COMPLETED\n");
    CliRun json = CliRun.of("summarize", "--format", "json", log("3.5.9", "write-commit-failure"));
    assertThat(json.exitCode()).isEqualTo(1);
    JsonNode j = new ObjectMapper().readTree(json.out());
    assertThat(j.get("outcome").asText()).isEqualTo("FAILED");
    assertThat(j.get("status").asText()).startsWith("FAILED (SQL execution 0 failed: java.io.IOException");
    assertThat(j.get("sqlFailures").get(0).get("errorMessage").asText()).contains("Injected fault");
    assertThat(j.get("executorRunTimeMs").asLong()).isPositive();
  }

  @Test
  void aDirectoryExitsOneWhenOneOfItsApplicationsFailed(@TempDir Path dir) throws IOException {
    Path healthy = Path.of(log("3.5.9", "healthy"));
    Path failed = Path.of(log("3.5.9", "bad-record"));
    Files.copy(healthy, dir.resolve(healthy.getFileName()));
    CliRun one = CliRun.of("summarize", dir.toString());
    assertThat(one.exitCode()).isZero();
    Files.copy(failed, dir.resolve(failed.getFileName()));
    CliRun both = CliRun.of("summarize", dir.toString());
    assertThat(both.exitCode()).isEqualTo(1);
    assertThat(both.out()).contains("- **Status**: COMPLETED\n").contains("- **Status**: FAILED (1 of 1 jobs failed)\n");
  }

  @Test
  void aJarOrClassFileIsNamedInOneLineWithTheCommandThatReadsIt() throws Exception {
    Path jar = Path.of(com.fasterxml.jackson.core.JsonFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path classFile = Path.of(SummarizeCommandTest.class.getResource("SummarizeCommandTest.class").toURI());
    for (Path p : new Path[] {jar, classFile}) {
      CliRun run = CliRun.of("summarize", p.toString());
      assertThat(run.exitCode()).as(p.toString()).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.err().strip().lines()).hasSize(1);
      assertThat(run.err())
          .startsWith("sparkrca: " + p + " is a ")
          .contains(", not a Spark event log: look inside it with 'sparkrca inspect " + p + "'")
          .doesNotContain("driver log");
    }
    assertThat(CliRun.of("summarize", jar.toString()).err()).contains(" is a JAR (ZIP archive), not a Spark event log");
    assertThat(CliRun.of("summarize", classFile.toString()).err()).contains(" is a Java class file, not a Spark event log");
    CliRun rules = CliRun.of("rules", "--recommended", "--format", "json", jar.toString());
    assertThat(rules.exitCode()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(rules.out()).get("errorMessage").asText()).contains("'sparkrca inspect " + jar + "'");
  }

  @Test
  void theHelpDocumentsTheExitCodes() {
    CliRun run = CliRun.of("summarize", "--help");
    assertThat(run.exitCode()).isZero();
    String help = run.out().replaceAll("\\s+", " ");
    assertThat(help)
        .contains("A FAILED application exits 1.")
        .contains("Exit codes: 0 Nothing wrong found")
        .contains("2 Error: bad usage, an input that cannot be read")
        .contains("FINISHED, NO JOB RAN");
  }
}
