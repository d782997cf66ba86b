package io.sparkrca.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.testing.ShsJson;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testing.JsonDiff;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every answer the real History Server gave for the testkit's logs (real Spark 3.5.9 and 4.0.4
 * runs, in every codec and layout) must be ours too: same status, same JSON (SQL endpoints are
 * covered, with their one tolerated version difference, by {@code SqlTestkitFixturesTest}).
 *
 * <p>We answer as History Server 4.0 does. Against answers of History Server 3.5, the peak metric
 * keys {@code ConcurrentGCCount} and {@code ConcurrentGCTime} (added in Spark 4.0) are tolerated:
 * present in ours, absent in theirs. For a log cut off while the application ran, values measured
 * up to "now" (the driver's total duration, running tasks' durations) are not compared: the
 * History Server takes its wall clock at request time, we take the log's latest event time.
 */
class HistoryServerSnapshotTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, RestRouter> ROUTERS = new HashMap<>();

  static Stream<Arguments> answers() {
    List<Arguments> out = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      if (!f.hasHistoryServer()) {
        continue;
      }
      for (JsonNode e : f.historyServer("manifest.json").path("endpoints")) {
        String path = e.path("path").asText().substring("/api/v1/".length());
        if (path.matches("applications/[^/]+(/[^/]+)?/sql(/.*)?(\\?.*)?")) {
          continue;
        }
        out.add(Arguments.of(f.sparkVersion() + "/" + f.scenario() + " " + path, f, path,
            e.path("file").asText(), e.path("status").asInt()));
      }
    }
    assertThat(out).as("testkit fixtures with History Server answers").isNotEmpty();
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answers")
  void answersLikeTheRealHistoryServer(
      String name, TestkitFixtures.Fixture f, String path, String file, int status) throws IOException {
    RestRouter router =
        ROUTERS.computeIfAbsent(
            f.dir().toString(), k -> RestRouter.over(EventLogs.reader().build().history(f.eventLog().toString())));

    ApiResponse ours = router.get(path);

    assertThat(ours.status()).as("status of %s (ours: %s)", path, ours.body()).isEqualTo(status);
    if (status != 200) {
      return;
    }
    JsonNode expected = ShsJson.normalize(f.historyServer(file));
    JsonNode actual = ShsJson.normalize(JSON.readTree(ours.body()));
    if (f.sparkVersion().startsWith("3.")) {
      dropSpark40PeakMetrics(actual);
    }
    if (f.label().path("eventLog").path("inProgress").asBoolean()) {
      dropClockDependent(expected);
      dropClockDependent(actual);
    }
    assertThat(JsonDiff.diff(expected, actual)).as("differences for %s", name).isEmpty();
  }

  /** Removes values measured up to "now": the driver's total duration, running tasks' durations. */
  private static void dropClockDependent(JsonNode n) {
    if (n instanceof ObjectNode o) {
      if ("driver".equals(o.path("id").asText()) && o.has("totalDuration")) {
        o.remove("totalDuration");
      }
      String status = o.path("status").asText();
      if (o.has("taskId") && (status.equals("RUNNING") || status.equals("GET RESULT"))) {
        o.remove("duration");
      }
      o.elements().forEachRemaining(HistoryServerSnapshotTest::dropClockDependent);
    } else if (n != null && n.isArray()) {
      n.forEach(HistoryServerSnapshotTest::dropClockDependent);
    }
  }

  /** Removes the peak-metric keys History Server 3.5 does not know, wherever they appear. */
  private static void dropSpark40PeakMetrics(JsonNode n) {
    if (n instanceof ObjectNode o) {
      o.remove("ConcurrentGCCount");
      o.remove("ConcurrentGCTime");
      for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) {
        dropSpark40PeakMetrics(it.next());
      }
    } else if (n != null && n.isArray()) {
      n.forEach(HistoryServerSnapshotTest::dropSpark40PeakMetrics);
    }
  }
}
