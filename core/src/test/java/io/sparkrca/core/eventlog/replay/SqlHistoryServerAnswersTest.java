package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testing.SharedData;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code /sql} and {@code /sql/<id>} against the real History Server's answers, recorded under
 * {@code sql-shs/}:
 *
 * <ul>
 *   <li>{@code conformance/}: the two logs of Spark's conformance corpus with SQL executions
 *       (Spark 3.0 and 3.2; driver updates, AQE re-plans), read from {@code ../shared}. History
 *       Servers 3.5.9 and 4.0.4 answered identically.
 *   <li>{@code scenarios/}: the synthetic logs of {@link SqlScenarios} (retried, killed and
 *       duplicate tasks, re-submitted stages, more than four jobs, a late job, re-plans, heartbeats,
 *       an application cut off mid-query). Recorded from History Server 4.0.4; 3.5.9 answered the
 *       same except where a re-plan adds a metric while a job runs (see {@link
 *       #historyServer35DiffersOnlyWhereTolerated}).
 * </ul>
 *
 * Only the {@code duration} of RUNNING executions is not compared (the server's clock).
 */
class SqlHistoryServerAnswersTest {
  private static Path scenarioDir;
  private static RestRouter scenarios;

  @BeforeAll
  static void writeScenarios() throws IOException {
    scenarioDir = Files.createTempDirectory("sql-scenarios");
    SqlScenarios.write(scenarioDir);
    scenarios = RestRouter.over(EventLogs.reader().build().history(scenarioDir.toString()));
  }

  @AfterAll
  static void cleanUp() throws IOException {
    try (Stream<Path> s = Files.list(scenarioDir)) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(scenarioDir);
  }

  static Stream<Arguments> cases() throws IOException, URISyntaxException {
    List<Arguments> out = new ArrayList<>();
    for (String group : List.of("conformance", "scenarios")) {
      Path root = Path.of(SqlHistoryServerAnswersTest.class.getResource("sql-shs/" + group).toURI());
      try (Stream<Path> apps = Files.list(root)) {
        for (Path app : apps.sorted().toList()) {
          try (Stream<Path> files = Files.list(app)) {
            for (Path f : files.sorted().toList()) {
              String appId = app.getFileName().toString();
              String path = SqlShsComparison.restPath(appId, f.getFileName().toString());
              out.add(Arguments.of(group + " " + path, group, appId, path, f));
            }
          }
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersLikeTheHistoryServer(String name, String group, String appId, String restPath, Path expected)
      throws IOException {
    RestRouter router;
    if (group.equals("conformance")) {
      router = conformanceRouter(appId);
    } else {
      router = scenarios;
    }
    JsonNode body = SqlShsComparison.JSON.readTree(expected.toFile());
    assertThat(SqlShsComparison.compare(router, restPath, body)).as("differences for %s", name).isEmpty();
  }

  /** A history over one log of the shared corpus, which tests must not copy: a symbolic link. */
  private static RestRouter conformanceRouter(String appId) throws IOException {
    Optional<Path> corpus = SharedData.shsConformance();
    assumeTrue(corpus.isPresent(), "../shared/conformance/spark-shs is absent; skipped");
    Path dir = Files.createTempDirectory("sql-conformance");
    dir.toFile().deleteOnExit();
    Path link = dir.resolve(appId);
    Files.createSymbolicLink(link, corpus.get().resolve("spark-events").resolve(appId).toAbsolutePath());
    link.toFile().deleteOnExit();
    return RestRouter.over(EventLogs.reader().build().history(dir.toString()));
  }

  /**
   * The History Server keeps the 1,000 most recently finished executions (its default {@code
   * spark.sql.ui.retainedExecutions}) and the running ones, cleaning up as executions are first
   * written; over {@link SqlScenarios#many()} both 3.5.9 and 4.0.4 listed 1,001 executions,
   * without 0, 244 and 488.
   */
  @Test
  void keepsTheExecutionsTheHistoryServerKeeps() throws IOException {
    JsonNode list = SqlShsComparison.JSON.readTree(
        scenarios.get("/applications/" + SqlScenarios.MANY + "/sql?details=false&planDescription=false&length=5000").body());
    List<Long> missing = new ArrayList<>();
    long expectedId = 0;
    for (JsonNode e : list) {
      while (expectedId < e.get("id").asLong()) {
        missing.add(expectedId++);
      }
      expectedId++;
    }
    assertThat(list.size()).isEqualTo(1001);
    assertThat(missing).containsExactly(0L, 244L, 488L);
    assertThat(list.get(list.size() - 1).get("status").asText()).isEqualTo("RUNNING");
    assertThat(EventLogs.replay(scenarioDir.resolve(SqlScenarios.MANY)).report().notes())
        .contains("3 finished SQL executions were dropped, the oldest by completion time, to keep 1000 as "
            + "the History Server does (spark.sql.ui.retainedExecutions)");
  }

  /**
   * Where History Server 3.5.9 answers differently from 4.0.4 (whose answer we give): execution 4
   * registers a metric in a re-plan while its job runs; 3.5.9 ignores the tasks' updates of it and
   * shows the node without it. {@link Spark35Tolerance} removes exactly that metric.
   */
  @Test
  void historyServer35DiffersOnlyWhereTolerated() throws IOException, URISyntaxException {
    String path = "/applications/" + SqlScenarios.MAIN + "/sql/4";
    JsonNode shs35;
    try (InputStream in = getClass().getResourceAsStream("sql-shs/scenarios-shs-3.5.9/" + SqlScenarios.MAIN + "-sql-4.json")) {
      shs35 = SqlShsComparison.JSON.readTree(in);
    }
    assertThat(SqlShsComparison.compare(scenarios, path, shs35))
        .containsExactly("$.nodes[2].metrics: expected 0 elements, got 1");
    Spark35Tolerance tolerance = Spark35Tolerance.scan(scenarioDir.resolve(SqlScenarios.MAIN));
    assertThat(tolerance.applies()).isTrue();
    assertThat(SqlShsComparison.compare(scenarios, path, shs35, tolerance)).isEmpty();
  }
}
