package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regenerates one quick scenario per Spark version from scratch, History Server included, so a
 * Spark upgrade (or a change here) that breaks generation fails the normal build. Writes into a
 * temporary directory, never over the committed fixtures.
 */
class QuickRegenerationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void quickScenarioStillShowsItsFault(String version, @TempDir Path dir) throws Exception {
    SparkDistribution spark = SparkDistribution.locate(version);
    Scenario s = ScenarioCatalog.byName(spark.isSpark4() ? ScenarioCatalog.QUICK_ON_4 : ScenarioCatalog.QUICK_ON_3);
    Path tmp = dir.resolve("tmp");

    Generator.Generated g = new Generator(dir.resolve("fixtures"), tmp, true).generate(spark, s);

    JsonNode label = JSON.readTree(g.dir().resolve("label.json").toFile());
    assertThat(label.path("rootCause").asText()).isEqualTo(s.rootCause().name());
    assertThat(label.path("application").path("sparkVersionInLog").asText()).isEqualTo(version);
    assertThat(label.path("culprit").path("partition").isNumber()).isTrue();
    assertThat(label.path("evidence").path("exceptionClass").asText()).isNotBlank();
    for (JsonNode f : label.path("eventLog").path("files")) {
      assertThat(g.dir().resolve(f.asText())).isRegularFile();
    }
    if (spark.isSpark4()) {
      // Spark 4's default layout, which this scenario leaves untouched.
      assertThat(label.path("eventLog").path("path").asText()).startsWith("eventlog/eventlog_v2_");
      assertThat(label.path("eventLog").path("appStatusFile").asText()).contains("appstatus_");
      assertThat(label.path("eventLog").path("files").get(0).asText()).endsWith(".zstd");
    }

    JsonNode manifest = JSON.readTree(g.dir().resolve("shs/manifest.json").toFile());
    assertThat(manifest.path("sparkVersion").asText()).isEqualTo(version);
    assertThat(manifest.path("applicationCompleted").asBoolean()).isTrue();
    List<String> files = new ArrayList<>();
    for (JsonNode e : manifest.path("endpoints")) {
      assertThat(e.path("status").asInt()).as(e.path("path").asText()).isEqualTo(200);
      files.add(e.path("file").asText());
      assertThat(g.dir().resolve("shs").resolve(e.path("file").asText())).isRegularFile();
    }
    assertThat(files).contains("applications.json", "jobs.json", "stages.json", "stages-withSummaries.json",
        "stages/0-0.json", "stages/0-0-taskSummary.json", "stages/0-0-taskList.json", "executors.json",
        "allexecutors.json", "environment.json", "sql.json");
    JsonNode jobs = JSON.readTree(g.dir().resolve("shs/jobs.json").toFile());
    assertThat(jobs).isNotEmpty();

    try (var left = Files.list(tmp)) {
      assertThat(left.toList()).as("temporary files left behind").isEmpty();
    }
  }
}
