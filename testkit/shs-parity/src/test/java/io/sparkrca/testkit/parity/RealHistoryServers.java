package io.sparkrca.testkit.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.historyserver.testing.FixtureDirectories;
import io.sparkrca.testkit.HistoryServerProcess;
import io.sparkrca.testkit.SparkDistribution;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real History Servers of one Spark version over every fixture of that version: as few as the
 * fixtures' application ids allow (one, or two when a cut-off copy shares its original's id), each
 * over a directory holding those logs, started once and waited on until it lists every one of them
 * (as completed, unless the log is still in progress).
 */
final class RealHistoryServers implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final List<HistoryServerProcess> servers = new ArrayList<>();
  private final Map<String, String> urlByFixture = new LinkedHashMap<>();
  private final Map<String, Path> dirByFixture = new LinkedHashMap<>();

  static RealHistoryServers start(String sparkVersion, Path work) throws IOException {
    return start(TestkitFixtures.forVersion(sparkVersion), sparkVersion, work);
  }

  /** Servers of {@code sparkVersion} over {@code fixtures} (all of that version). */
  static RealHistoryServers start(List<TestkitFixtures.Fixture> fixtures, String sparkVersion, Path work) throws IOException {
    RealHistoryServers s = new RealHistoryServers();
    try {
      SparkDistribution spark = SparkDistribution.locate(sparkVersion);
      List<FixtureDirectories.Group> groups = FixtureDirectories.layOut(fixtures, work.resolve("logs"), true);
      for (int i = 0; i < groups.size(); i++) {
        FixtureDirectories.Group g = groups.get(i);
        HistoryServerProcess shs = HistoryServerProcess.start(spark, g.dir(),
            Files.createDirectories(work.resolve("shs-" + i)), Duration.ofMinutes(3));
        s.servers.add(shs);
        awaitListing(shs, g.fixtures());
        for (TestkitFixtures.Fixture f : g.fixtures()) {
          s.urlByFixture.put(f.dir().toString(), shs.url());
          s.dirByFixture.put(f.dir().toString(), g.dir());
        }
      }
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** The URL of the server holding {@code f}'s log. */
  String url(TestkitFixtures.Fixture f) {
    return urlByFixture.get(f.dir().toString());
  }

  /** The log directory that server reads. */
  Path dir(TestkitFixtures.Fixture f) {
    return dirByFixture.get(f.dir().toString());
  }

  private static void awaitListing(HistoryServerProcess shs, List<TestkitFixtures.Fixture> fixtures) throws IOException {
    Set<String> expected = new HashSet<>();
    Set<String> running = new HashSet<>();
    for (TestkitFixtures.Fixture f : fixtures) {
      String id = f.label().path("application").path("id").asText();
      expected.add(id);
      if (f.label().path("eventLog").path("inProgress").asBoolean()) {
        running.add(id);
      }
    }
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    Set<String> ready = new HashSet<>();
    while (System.nanoTime() < deadline) {
      try {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(shs.url() + "/api/v1/applications")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() == 200) {
          ready.clear();
          for (JsonNode a : JSON.readTree(r.body())) {
            String id = a.path("id").asText();
            if (running.contains(id) || a.path("attempts").path(0).path("completed").asBoolean()) {
              ready.add(id);
            }
          }
          if (ready.containsAll(expected)) {
            return;
          }
        }
      } catch (java.net.ConnectException notYet) {
        // still starting
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    Set<String> missing = new HashSet<>(expected);
    missing.removeAll(ready);
    throw new IOException("the History Server did not list " + missing + " within 3 minutes:\n" + shs.tailOfLog());
  }

  @Override
  public void close() {
    servers.forEach(HistoryServerProcess::close);
  }
}
