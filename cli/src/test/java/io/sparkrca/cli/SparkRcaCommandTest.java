package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testing.SharedData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkRcaCommandTest {
  private static final String LOG =
      "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n"
          + "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"Demo\",\"App ID\":\"app-1\",\"Timestamp\":1704067200000,\"User\":\"u\"}\n"
          + "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":1704067202000}\n";

  @Test
  void printsTheVersion() {
    CliRun run = CliRun.of("--version");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).startsWith("sparkrca ");
  }

  @Test
  void noCommandIsAUsageErrorWithExitTwo() {
    CliRun run = CliRun.of();
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("a command is required");
  }

  @Test
  void anUnknownOptionIsOneLineAndExitTwo() {
    CliRun run = CliRun.of("summarize", "--bogus", "x");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("Unknown option: '--bogus'").doesNotContain("at io.sparkrca");
  }

  @Test
  void aMissingLogIsOneClearLineWithoutAStackTrace(@TempDir Path dir) {
    CliRun run = CliRun.of("summarize", dir.resolve("missing").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().strip().lines()).hasSize(1);
    assertThat(run.err()).startsWith("sparkrca: ").contains("missing").contains("not found");
  }

  @Test
  void runningOutOfMemoryOrStackSaysHowToGiveTheJvmMore() {
    // execute() catches these Errors, which picocli's handler never sees, and prints this one line.
    assertThat(SparkRcaCommand.describe(new OutOfMemoryError("Java heap space")))
        .startsWith("out of memory (Java heap space, a heap of ").contains("JAVA_OPTS=-Xmx4g");
    assertThat(SparkRcaCommand.describe(new StackOverflowError())).contains("JAVA_OPTS=-Xss16m");
  }

  @Test
  void debugAddsTheStackTrace(@TempDir Path dir) {
    CliRun run = CliRun.of("--debug", "summarize", dir.resolve("missing").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("at io.sparkrca");
  }

  @Test
  void summarizesAsMarkdownAndAsJson(@TempDir Path dir) throws IOException {
    Path log = Files.writeString(dir.resolve("app-1"), LOG);

    CliRun md = CliRun.of("summarize", log.toString());
    assertThat(md.exitCode()).isZero();
    assertThat(md.out()).contains("## Spark Event Log Executive Summary", "`app-1`", "`3.5.1`", "`2.00s`");

    CliRun json = CliRun.of("summarize", "--format", "json", log.toString());
    assertThat(json.exitCode()).isZero();
    JsonNode tree = new ObjectMapper().readTree(json.out());
    assertThat(tree.get("applicationId").asText()).isEqualTo("app-1");
    assertThat(tree.get("durationMs").asLong()).isEqualTo(2000);
  }

  @Test
  void apiAnswersLikeTheHistoryServerAndUnknownAppsAreNotFound(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("app-1"), LOG);

    CliRun list = CliRun.of("api", dir.toString(), "applications");
    assertThat(list.exitCode()).isZero();
    JsonNode apps = new ObjectMapper().readTree(list.out());
    assertThat(apps.get(0).get("id").asText()).isEqualTo("app-1");
    assertThat(apps.get(0).get("attempts").get(0).get("duration").asLong()).isEqualTo(2000);

    CliRun missing = CliRun.of("api", dir.toString(), "applications/nope/jobs");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("no such app: nope");
  }

  @Test
  void apiOverTheSparkGoldenCorpusMatchesAGoldenFile() throws IOException {
    Optional<Path> corpus = SharedData.shsConformance();
    assumeTrue(corpus.isPresent(), "../shared/conformance is absent; skipped");
    CliRun run = CliRun.of("api", corpus.get().resolve("spark-events").toString(), "applications/local-1422981780767/jobs");
    assertThat(run.exitCode()).isZero();
    ObjectMapper m = new ObjectMapper();
    assertThat(m.readTree(run.out()))
        .isEqualTo(m.readTree(corpus.get().resolve("expectations/job_list_json_expectation.json").toFile()));
  }
}
