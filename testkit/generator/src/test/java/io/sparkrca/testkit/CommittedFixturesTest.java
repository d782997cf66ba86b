package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Checks the committed corpus without Spark: every fixture is complete, its fault check still
 * accepts it with the same evidence as its label, the checks reject a healthy log, and the corpus
 * stays within its size budget.
 */
class CommittedFixturesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX_CORPUS_BYTES = 30L * 1024 * 1024;

  private static List<TestkitFixtures.Fixture> fixtures() {
    List<TestkitFixtures.Fixture> all = TestkitFixtures.all();
    assertThat(all).as("committed fixtures under testkit/fixtures").isNotEmpty();
    return all;
  }

  @Test
  void everyScenarioExistsOnEveryVersion() {
    for (String v : SparkDistribution.VERSIONS) {
      List<String> names = TestkitFixtures.forVersion(v).stream().map(TestkitFixtures.Fixture::scenario).toList();
      assertThat(names).as("Spark " + v)
          .containsAll(ScenarioCatalog.all().stream().map(Scenario::name).toList());
    }
    assertThat(TestkitFixtures.forVersion("3.5.9").stream().map(TestkitFixtures.Fixture::scenario))
        .contains(ScenarioCatalog.TRUNCATED_NAME);
  }

  @Test
  void corpusFitsTheBudget() throws Exception {
    Path root = TestkitFixtures.root().orElseThrow();
    assertThat(FixtureFiles.size(root)).isLessThanOrEqualTo(MAX_CORPUS_BYTES);
  }

  @Test
  void corpusCoversEveryFormat() {
    List<String> formats = fixtures().stream().map(f -> f.label().path("eventLog"))
        .map(l -> l.path("layout").asText() + "/" + l.path("codec").asText()
            + (l.path("inProgress").asBoolean() ? "/inprogress" : ""))
        .distinct().toList();
    assertThat(formats).contains("single-file/none", "single-file/zstd", "single-file/lz4",
        "single-file/snappy", "single-file/lzf", "single-file/gzip", "rolling/zstd",
        "single-file/none/inprogress");
    assertThat(fixtures()).as("a rolling log with several events files")
        .anyMatch(f -> f.label().path("eventLog").path("files").size() > 1);
  }

  @TestFactory
  Stream<DynamicTest> eachFixtureIsCompleteAndStillShowsItsFault() {
    LinkedHashMap<String, TestkitFixtures.Fixture> byKey = new LinkedHashMap<>();
    fixtures().forEach(f -> byKey.put(f.sparkVersion() + "/" + f.scenario(), f));
    return byKey.values().stream().map(f -> DynamicTest.dynamicTest(f.sparkVersion() + " " + f.scenario(), () -> {
      JsonNode label = f.label();
      assertThat(label.path("schemaVersion").asInt()).isEqualTo(Labels.SCHEMA_VERSION);
      assertThat(RootCauseKind.valueOf(label.path("rootCause").asText())).isEqualTo(f.rootCause());
      assertThat(label.path("sparkVersion").asText()).isEqualTo(f.sparkVersion());
      for (JsonNode file : label.path("eventLog").path("files")) {
        assertThat(f.dir().resolve(file.asText())).isRegularFile();
      }
      assertThat(f.hasHistoryServer()).isTrue();
      for (JsonNode e : f.historyServer("manifest.json").path("endpoints")) {
        assertThat(f.dir().resolve("shs").resolve(e.path("file").asText())).isRegularFile();
      }

      Findings again = check(f).verify(evidence(f, baselineOf(f)));
      JsonNode evidence = tree(again.evidence());
      assertThat(evidence).isEqualTo(label.path("evidence"));
      JsonNode stages = tree(again.stageIds());
      assertThat(stages).isEqualTo(label.path("culprit").path("stageIds"));
      for (Map.Entry<String, Object> m : again.measured().entrySet()) {
        JsonNode expected = tree(m.getValue());
        assertThat(label.path("measured").path(m.getKey())).as(m.getKey()).isEqualTo(expected);
      }
    }));
  }

  @TestFactory
  Stream<DynamicTest> killedDriverFixturesAreInProgressAsSparkLeftThem() {
    return fixtures().stream()
        .filter(f -> ScenarioCatalog.all().stream().anyMatch(s -> s.driverKilled() && s.name().equals(f.scenario())))
        .map(f -> DynamicTest.dynamicTest(f.sparkVersion() + " " + f.scenario(), () -> {
          JsonNode label = f.label();
          assertThat(label.path("application").path("driverExitCode").asInt()).isEqualTo(Scenario.KILLED_EXIT_CODE);
          assertThat(label.path("application").path("completed").asBoolean()).isFalse();
          assertThat(label.path("eventLog").path("inProgress").asBoolean()).isTrue();
          assertThat(label.path("eventLog").path("postProcessing").asText()).isEqualTo("none");
          assertThat(EventLogFiles.inProgress(f.eventLog())).isTrue();
          JsonNode manifest = f.historyServer("manifest.json");
          assertThat(manifest.path("applicationCompleted").asBoolean()).isFalse();
          assertThat(manifest.path("waitedForCompletion").asBoolean()).isFalse();
          assertThat(f.historyServer("jobs.json").path(0).path("status").asText()).isEqualTo("RUNNING");
        }));
  }

  @TestFactory
  Stream<DynamicTest> faultChecksRejectTheHealthyRun() {
    return SparkDistribution.VERSIONS.stream().flatMap(v -> {
      TestkitFixtures.Fixture healthy = TestkitFixtures.get(v, "healthy");
      return ScenarioCatalog.all().stream()
          .filter(s -> s.rootCause() != RootCauseKind.HEALTHY && s.baseline() == null)
          .map(s -> DynamicTest.dynamicTest(v + " " + s.name(), () ->
              assertThatThrownBy(() -> s.check().verify(evidence(healthy, null)))
                  .isInstanceOf(FaultNotShownException.class)
                  .satisfies(e -> assertThat(e.getMessage()).isNotBlank())));
    });
  }

  private static FaultCheck check(TestkitFixtures.Fixture f) {
    if (f.scenario().equals(ScenarioCatalog.TRUNCATED_NAME)) {
      return FaultChecks.truncated(FaultChecks.deterministicFailure(4, false));
    }
    return ScenarioCatalog.byName(f.scenario()).check();
  }

  private static LogFacts baselineOf(TestkitFixtures.Fixture f) throws Exception {
    String b = f.label().path("baseline").asText(null);
    return b == null ? null : LogFacts.read(TestkitFixtures.get(f.sparkVersion(), b).eventLog());
  }

  static RunEvidence evidence(TestkitFixtures.Fixture f, LogFacts baseline) throws Exception {
    JsonNode exit = f.label().path("application").path("driverExitCode");
    return new RunEvidence(LogFacts.read(f.eventLog()), exit.isNull() ? 1 : exit.asInt(),
        read(f.dir().resolve("driver-stdout.log")), read(f.dir().resolve("driver-stderr.log")),
        readLogs(f, "executors"), readLogs(f, "executorStdout"), baseline);
  }

  /** The files of {@code logs.<key>} in the label (executor id to file), read. */
  private static Map<String, String> readLogs(TestkitFixtures.Fixture f, String key) {
    Map<String, String> logs = new LinkedHashMap<>();
    f.label().path("logs").path(key).properties().forEach(e -> {
      try {
        logs.put(e.getKey(), Files.readString(f.dir().resolve(e.getValue().asText()), StandardCharsets.UTF_8));
      } catch (java.io.IOException ex) {
        throw new java.io.UncheckedIOException(ex);
      }
    });
    return logs;
  }

  /** As the value reads back from label.json (so 3706L and 3706 compare equal). */
  private static JsonNode tree(Object value) throws Exception {
    return JSON.readTree(JSON.writeValueAsString(value));
  }

  private static String read(Path p) throws Exception {
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }
}
