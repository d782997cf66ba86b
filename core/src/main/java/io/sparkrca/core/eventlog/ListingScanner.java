package io.sparkrca.core.eventlog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.io.LineReader;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * What the History Server's {@code AppListingListener} learns from a log, found without replaying
 * it: only the log-start and application start/end lines are parsed; every other line is skipped
 * after a look at its first bytes. Listing a directory of large logs thus costs about as much as
 * decompressing them.
 */
final class ListingScanner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] PREFIX = "{\"Event\":\"SparkListener".getBytes(StandardCharsets.US_ASCII);

  private ListingScanner() {}

  /** One application attempt as a listing shows it. */
  record Listing(String appId, String name, ApplicationAttemptInfo attempt) {}

  static Listing scan(ByteSources sources, EventLogRef log, int maxLineBytes) throws IOException {
    String appId = null;
    String name = "";
    Optional<String> attemptId = Optional.empty();
    long start = -1;
    long end = -1;
    String user = "";
    String version = "";
    boolean completed = false;
    long lastModified = -1;
    boolean sawEvent = false;
    for (String file : log.files()) {
      ByteSource source = sources.open(file);
      lastModified = Math.max(lastModified, source.lastModified().map(Instant::toEpochMilli).orElse(-1L));
      try (DecodedStream in = DecodedStream.open(source, true);
          LineReader lines = new LineReader(in, maxLineBytes)) {
        while (lines.next()) {
          byte[] b = lines.buffer();
          int s = lines.start();
          int n = lines.length();
          if (n < PREFIX.length + 8 || !startsWith(b, s, PREFIX)) {
            // Events are not always written with "Event" first; only then is the line parsed.
            if (n > 0 && b[s] == '{' && !startsWith(b, s, "{\"Event\":".getBytes(StandardCharsets.US_ASCII))) {
              JsonNode tree = tryParse(b, s, n);
              if (tree != null && tree.path("Event").isTextual()) {
                sawEvent = true;
              }
            }
            continue;
          }
          sawEvent = true;
          int k = s + PREFIX.length;
          boolean interesting =
              startsWith(b, k, "ApplicationStart\"".getBytes(StandardCharsets.US_ASCII))
                  || startsWith(b, k, "ApplicationEnd\"".getBytes(StandardCharsets.US_ASCII))
                  || startsWith(b, k, "LogStart\"".getBytes(StandardCharsets.US_ASCII));
          if (!interesting) {
            continue;
          }
          JsonNode e = tryParse(b, s, n);
          if (e == null) {
            continue;
          }
          switch (e.path("Event").asText()) {
            case "SparkListenerLogStart":
              version = e.path("Spark Version").asText("");
              break;
            case "SparkListenerApplicationStart":
              appId = e.hasNonNull("App ID") ? e.get("App ID").asText() : null;
              name = e.path("App Name").asText("");
              start = e.path("Timestamp").asLong(-1);
              user = e.path("User").asText("");
              attemptId = e.hasNonNull("App Attempt ID") ? Optional.of(e.get("App Attempt ID").asText()) : Optional.empty();
              break;
            case "SparkListenerApplicationEnd":
              end = e.path("Timestamp").asLong(-1);
              completed = true;
              break;
            default:
              break;
          }
        }
      }
    }
    if (!sawEvent) {
      throw new CorruptInputException(log.uri() + " holds no Spark events: not an event log, or empty");
    }
    if (lastModified < 0) {
      lastModified = System.currentTimeMillis();
    }
    ApplicationAttemptInfo attempt =
        new ApplicationAttemptInfo(
            attemptId,
            Instant.ofEpochMilli(start),
            Instant.ofEpochMilli(completed ? end : -1),
            Instant.ofEpochMilli(lastModified),
            completed ? end - start : 0,
            user,
            completed,
            version);
    return new Listing(appId == null ? log.name() : appId, name, attempt);
  }

  private static JsonNode tryParse(byte[] b, int s, int n) {
    try {
      return JSON.readTree(b, s, n);
    } catch (IOException e) {
      return null;
    }
  }

  private static boolean startsWith(byte[] b, int at, byte[] prefix) {
    if (at + prefix.length > b.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (b[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
