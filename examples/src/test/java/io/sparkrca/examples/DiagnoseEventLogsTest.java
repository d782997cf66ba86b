package io.sparkrca.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The embedding example, run on real testkit runs: one line per application with its labelled root cause. */
class DiagnoseEventLogsTest {
  private static final List<String> SCENARIOS = List.of("bad-record", "skew-join", "healthy");

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void printsEachApplicationsRootCauseAndFirstFix(String version) {
    List<TestkitFixtures.Fixture> runs = SCENARIOS.stream().map(s -> TestkitFixtures.get(version, s)).toList();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    int problems = DiagnoseEventLogs.diagnose(runs.stream().map(f -> f.dir().resolve("eventlog").toString()).toList(),
        new PrintStream(bytes, true, StandardCharsets.UTF_8));

    List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
    List<String> causes = lines.stream().filter(l -> !l.startsWith("    fix: ")).toList();
    assertThat(causes).hasSize(runs.size());
    for (int i = 0; i < runs.size(); i++) {
      TestkitFixtures.Fixture f = runs.get(i);
      assertThat(causes.get(i)).startsWith(f.label().path("application").path("id").asText() + "  " + f.rootCause() + " (");
    }
    assertThat(problems).isEqualTo(2); // the healthy run is not a problem
    assertThat(lines).filteredOn(l -> l.startsWith("    fix: ")).hasSize(2);
  }

  @Test
  void diagnosesAHistoryServerApplicationByItsUrl() throws Exception {
    TestkitFixtures.Fixture run = TestkitFixtures.get("3.5.9", "bad-record");
    String id = run.label().path("application").path("id").asText();
    try (io.sparkrca.historyserver.serve.HistoryApiServer server = io.sparkrca.historyserver.serve.HistoryApiServer
        .builder(run.dir().resolve("eventlog").toString()).port(0).build().start()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();

      int problems = DiagnoseEventLogs.diagnose(List.of(server.url().replaceAll("/+$", "") + "/api/v1/applications/" + id),
          new PrintStream(bytes, true, StandardCharsets.UTF_8));

      assertThat(problems).isEqualTo(1);
      assertThat(bytes.toString(StandardCharsets.UTF_8)).startsWith(id + "  " + run.rootCause() + " (");
    }
  }

  @Test
  void theUserCodeStaysUnderThirtyLines() throws Exception {
    Path source = Path.of("src/main/java/io/sparkrca/examples/DiagnoseEventLogs.java");
    try (Stream<String> s = Files.lines(source)) {
      long code = s.map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("*") && !l.startsWith("/*")
          && !l.startsWith("//") && !l.startsWith("import ") && !l.startsWith("package ")).count();
      assertThat(code).isLessThan(30);
    }
  }
}
