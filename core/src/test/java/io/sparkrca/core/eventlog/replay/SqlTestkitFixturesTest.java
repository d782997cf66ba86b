package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our {@code /sql} answers against the real History Server's for every testkit fixture (real Spark
 * 3.5.9 and 4.0.4 runs; each fixture's {@code shs/manifest.json} lists the recorded endpoints).
 * The fixtures are the committed ones, found through {@link TestkitFixtures}.
 *
 * <p>Each fixture's answers come from the History Server of the Spark version that wrote the log.
 * We answer as History Server 4.0 does. The servers differ in two places: 3.5 draws a {@code
 * ResultQueryStage} node, but only 4.0 writes those, so a 3.5 server over a 3.5 log never meets
 * one; and 3.5 ignores the task updates of a metric that an adaptive re-plan registers while a job
 * of the execution runs. For 3.5 answers, such metrics are left out of both sides ({@link
 * Spark35Tolerance}); nothing else is tolerated.
 */
class SqlTestkitFixturesTest {
  private static final Map<Path, RestRouter> ROUTERS = new HashMap<>();
  private static final Map<Path, Spark35Tolerance> TOLERANCES = new HashMap<>();

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      if (!f.hasHistoryServer()) {
        continue;
      }
      for (JsonNode e : f.historyServer("manifest.json").path("endpoints")) {
        String path = e.path("path").asText();
        if (e.path("status").asInt() == 200
            && path.matches("/api/v1/applications/[^/]+(/[^/]+)?/sql(/\\d+)?(\\?.*)?")) {
          out.add(Arguments.of(
              "spark-" + f.sparkVersion() + "/" + f.scenario() + " " + path.substring(7),
              f.dir(), path.substring("/api/v1".length()), e.path("file").asText()));
        }
      }
    }
    assertThat(out).as("testkit fixtures with History Server SQL answers").isNotEmpty();
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersLikeTheHistoryServer(String name, Path fixture, String restPath, String file) throws IOException {
    RestRouter router = ROUTERS.computeIfAbsent(fixture, SqlTestkitFixturesTest::router);
    JsonNode expected = SqlShsComparison.JSON.readTree(fixture.resolve("shs").resolve(file).toFile());
    Spark35Tolerance tolerance = null;
    if (fixture.getParent().getFileName().toString().startsWith("spark-3.")) {
      tolerance = TOLERANCES.computeIfAbsent(fixture, SqlTestkitFixturesTest::tolerance);
    }
    assertThat(SqlShsComparison.compare(router, restPath, expected, tolerance)).as("differences for %s", name).isEmpty();
  }

  private static Spark35Tolerance tolerance(Path fixture) {
    try {
      return Spark35Tolerance.scan(eventLog(fixture));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path eventLog(Path fixture) throws IOException {
    JsonNode label = SqlShsComparison.JSON.readTree(fixture.resolve("label.json").toFile());
    return fixture.resolve(label.path("eventLog").path("path").asText());
  }

  private static RestRouter router(Path fixture) {
    try {
      Path log = eventLog(fixture);
      return RestRouter.over(EventLogs.reader().build().history(log.getParent().toString()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
