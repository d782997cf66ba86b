package io.sparkrca.core.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.knowledge.RootCauseKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Test-side access to the testkit's committed fixtures ({@code testkit/fixtures/spark-<version>/
 * <scenario>/}): real event logs with a known root cause, the driver's logs and the answers of the
 * real History Server. No Spark needed.
 *
 * <pre>{@code
 * for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
 *   Path log = f.eventLog();                    // file or rolling directory, any codec
 *   RootCauseKind expected = f.rootCause();
 *   JsonNode stages = f.historyServer("stages.json");
 * }
 * }</pre>
 *
 * The layout and the {@code label.json} schema are described in testkit/README.md.
 */
public final class TestkitFixtures {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestkitFixtures() {}

  /** One scenario's fixture on one Spark version. */
  public record Fixture(String sparkVersion, String scenario, Path dir, JsonNode label) {
    /** The expected root cause. */
    public RootCauseKind rootCause() {
      return RootCauseKind.valueOf(label.path("rootCause").asText());
    }

    /** The event log as committed: a single file, or a rolling {@code eventlog_v2_*} directory. */
    public Path eventLog() {
      return dir.resolve(label.path("eventLog").path("path").asText());
    }

    /** The driver's standard error (Spark's own log). */
    public Path driverLog() {
      return dir.resolve("driver-stderr.log");
    }

    /** Whether History Server answers were recorded. */
    public boolean hasHistoryServer() {
      return Files.isRegularFile(dir.resolve("shs/manifest.json"));
    }

    /** A recorded History Server answer, such as {@code "jobs.json"} or {@code "stages/0-0.json"}. */
    public JsonNode historyServer(String file) {
      return read(dir.resolve("shs").resolve(file));
    }
  }

  /** The fixtures directory, found by walking up from the working directory, if present. */
  public static Optional<Path> root() {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("testkit/fixtures");
      if (Files.isDirectory(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Every fixture, ordered by Spark version then scenario. Empty if there is no fixtures directory. */
  public static List<Fixture> all() {
    Optional<Path> root = root();
    if (root.isEmpty()) {
      return List.of();
    }
    List<Fixture> out = new ArrayList<>();
    for (Path version : list(root.get())) {
      if (!version.getFileName().toString().startsWith("spark-")) {
        continue;
      }
      for (Path dir : list(version)) {
        Path label = dir.resolve("label.json");
        if (Files.isRegularFile(label)) {
          out.add(new Fixture(version.getFileName().toString().substring("spark-".length()),
              dir.getFileName().toString(), dir, read(label)));
        }
      }
    }
    return out;
  }

  /** The fixtures of one Spark version, such as {@code "3.5.9"}. */
  public static List<Fixture> forVersion(String sparkVersion) {
    return all().stream().filter(f -> f.sparkVersion().equals(sparkVersion)).toList();
  }

  /** One fixture, or an exception naming what is missing. */
  public static Fixture get(String sparkVersion, String scenario) {
    return all().stream()
        .filter(f -> f.sparkVersion().equals(sparkVersion) && f.scenario().equals(scenario))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "no testkit fixture " + scenario + " for Spark " + sparkVersion + " under " + root()));
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode read(Path file) {
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
