package io.sparkrca.historyserver.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testing.JsonDiff;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.HistoryServerHistory;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.testing.FixtureDirectories;
import io.sparkrca.historyserver.testing.RecordedAnswers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code serve}'s acceptance (issue 12 §5): one server per log directory holding every testkit
 * fixture (real Spark 3.5.9 and 4.0.4 runs in every codec and layout) must answer every request
 * the real History Server was recorded answering, with its status and JSON; and the History
 * Server client pointed at it must give the same answers as replaying the fixture locally.
 */
class HistoryApiServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final List<HistoryApiServer> SERVERS = new ArrayList<>();
  private static final Map<String, String> URL_OF_FIXTURE = new HashMap<>();
  private static final Map<String, Path> DIR_OF_FIXTURE = new HashMap<>();
  private static final Map<String, RestRouter> LOCAL = new HashMap<>();
  private static final Map<String, RestRouter> CLIENT = new HashMap<>();

  @TempDir static Path tmp;

  @BeforeAll
  static void startOneServerPerLogDirectory() {
    for (FixtureDirectories.Group g : FixtureDirectories.layOut(TestkitFixtures.all(), tmp, false)) {
      HistoryApiServer s = HistoryApiServer.builder(g.dir().toString()).port(0).build().start();
      SERVERS.add(s);
      for (TestkitFixtures.Fixture f : g.fixtures()) {
        URL_OF_FIXTURE.put(f.dir().toString(), s.url());
        DIR_OF_FIXTURE.put(f.dir().toString(), g.dir());
      }
    }
  }

  @AfterAll
  static void stop() {
    SERVERS.forEach(HistoryApiServer::close);
  }

  static Stream<Arguments> recorded() {
    List<Arguments> out = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      if (!f.hasHistoryServer()) {
        continue;
      }
      for (RecordedAnswers.Endpoint e : RecordedAnswers.of(f)) {
        out.add(Arguments.of(f.sparkVersion() + "/" + f.scenario() + " " + e.path(), f, e));
      }
    }
    assertThat(out).as("testkit fixtures with History Server answers").isNotEmpty();
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recorded")
  void servesWhatTheRealHistoryServerAnswered(String name, TestkitFixtures.Fixture f, RecordedAnswers.Endpoint e)
      throws Exception {
    if (e.sql()) {
      return; // compared in core (SqlTestkitFixturesTest), with its one tolerated version difference
    }
    HttpResponse<String> r = HTTP.send(
        HttpRequest.newBuilder(URI.create(URL_OF_FIXTURE.get(f.dir().toString()) + "/api/v1/" + e.path())).build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).as("status of %s (body: %s)", e.path(), r.body()).isEqualTo(e.status());
    assertThat(r.headers().firstValue("Content-Type").orElse(""))
        .startsWith(e.status() == 200 ? "application/json" : "text/plain");
    if (e.status() == 200) {
      JsonNode expected = RecordedAnswers.normalize(f, f.historyServer(e.file()));
      JsonNode actual = RecordedAnswers.normalize(f, JSON.readTree(r.body()));
      if (e.path().equals("applications")) {
        // The server lists every log of its directory; the recording was of this one alone.
        actual = RecordedAnswers.only(actual, f.label().path("application").path("id").asText());
      }
      assertThat(JsonDiff.diff(expected, actual)).as("differences for %s", name).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("recorded")
  void theClientOverServeAnswersAsTheLocalReplay(String name, TestkitFixtures.Fixture f, RecordedAnswers.Endpoint e)
      throws IOException {
    // The same directory served and replayed here: the listing holds the same applications.
    Path dir = DIR_OF_FIXTURE.get(f.dir().toString());
    RestRouter local = LOCAL.computeIfAbsent(dir.toString(),
        k -> RestRouter.over(EventLogs.reader().build().history(k, 8)));
    RestRouter client = CLIENT.computeIfAbsent(dir.toString(),
        k -> RestRouter.over(HistoryServerHistory.open(URL_OF_FIXTURE.get(f.dir().toString()), HistoryServerSettings.defaults())));

    ApiResponse expected = local.get(e.path());
    ApiResponse actual = client.get(e.path());

    assertThat(actual.status()).as("status of %s (ours: %s)", e.path(), actual.body()).isEqualTo(expected.status());
    if (expected.ok()) {
      assertThat(JsonDiff.diff(RecordedAnswers.normalize(f, JSON.readTree(expected.body())),
          RecordedAnswers.normalize(f, JSON.readTree(actual.body())))).as("differences for %s", name).isEmpty();
    }
  }
}
