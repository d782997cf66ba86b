package io.sparkrca.historyserver.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.ArrayList;
import java.util.List;

/**
 * The REST paths the testkit recorded for a fixture, and the comparison rules its own snapshot
 * test applies (core's {@code HistoryServerSnapshotTest}): peak-metric keys History Server 3.5
 * does not know are tolerated, and for an application still running, values measured up to "now"
 * are not compared.
 */
public final class RecordedAnswers {
  private RecordedAnswers() {}

  /** A recorded request: its path relative to {@code /api/v1/}, its file and status. */
  public record Endpoint(String path, String file, int status) {
    /** Whether this is a SQL endpoint (compared separately in core, with one tolerated difference). */
    public boolean sql() {
      return path.matches("applications/[^/]+(/[^/]+)?/sql(/.*)?(\\?.*)?");
    }
  }

  public static List<Endpoint> of(TestkitFixtures.Fixture f) {
    List<Endpoint> out = new ArrayList<>();
    for (JsonNode e : f.historyServer("manifest.json").path("endpoints")) {
      out.add(new Endpoint(e.path("path").asText().substring("/api/v1/".length()), e.path("file").asText(),
          e.path("status").asInt()));
    }
    return out;
  }

  /** Whether the fixture's application was still running when its log was copied. */
  public static boolean inProgress(TestkitFixtures.Fixture f) {
    return f.label().path("eventLog").path("inProgress").asBoolean();
  }

  /** Applies the comparison rules to a parsed answer, in place. */
  public static JsonNode normalize(TestkitFixtures.Fixture f, JsonNode n) {
    io.sparkrca.core.testing.ShsJson.normalize(n);
    if (f.sparkVersion().startsWith("3.")) {
      dropKeys(n, "ConcurrentGCCount", "ConcurrentGCTime");
    }
    if (inProgress(f)) {
      dropClockDependent(n);
    }
    return n;
  }

  /** Removes values measured up to "now": the driver's total duration, running tasks' durations. */
  public static void dropClockDependent(JsonNode n) {
    if (n instanceof ObjectNode o) {
      if ("driver".equals(o.path("id").asText()) && o.has("totalDuration")) {
        o.remove("totalDuration");
      }
      String status = o.path("status").asText();
      if (o.has("taskId") && (status.equals("RUNNING") || status.equals("GET RESULT"))) {
        o.remove("duration");
      }
      o.elements().forEachRemaining(RecordedAnswers::dropClockDependent);
    } else if (n != null && n.isArray()) {
      n.forEach(RecordedAnswers::dropClockDependent);
    }
  }

  /** The entries of an application listing with this id. */
  public static JsonNode only(JsonNode listing, String appId) {
    com.fasterxml.jackson.databind.node.ArrayNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    for (JsonNode a : listing) {
      if (a.path("id").asText().equals(appId)) {
        out.add(a);
      }
    }
    return out;
  }

  public static void dropKeys(JsonNode n, String... keys) {
    if (n instanceof ObjectNode o) {
      for (String k : keys) {
        o.remove(k);
      }
      o.elements().forEachRemaining(x -> dropKeys(x, keys));
    } else if (n != null && n.isArray()) {
      n.forEach(x -> dropKeys(x, keys));
    }
  }
}
