package io.sparkrca.fleet;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** Test fleets made of the testkit's real event logs, copied as they are or rewritten. */
final class Fleets {
  private Fleets() {}

  /** Copies a fixture's event log (file or rolling directory) into {@code dir}, keeping its name. */
  static Path copy(TestkitFixtures.Fixture f, Path dir) throws IOException {
    Path log = f.eventLog();
    Path target = dir.resolve(log.getFileName().toString());
    if (Files.isDirectory(log)) {
      Files.createDirectories(target);
      try (Stream<Path> files = Files.list(log)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.copy(p, target.resolve(p.getFileName().toString()), StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } else {
      Files.copy(log, target, StandardCopyOption.COPY_ATTRIBUTES);
    }
    return target;
  }

  /** The decoded text of a single-file log (any codec). */
  static String text(Path file) throws IOException {
    try (InputStream in = DecodedStream.open(ByteSource.of(file), false)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * Writes a plain copy of a single-file fixture log as {@code dir/<appId>}, with its application
   * name replaced by {@code name}: another run of that application.
   */
  static Path renamed(TestkitFixtures.Fixture f, String name, Path dir) throws IOException {
    String text = text(f.eventLog());
    String appName = "sparkrca-testkit " + f.scenario();
    String rewritten = text.replace("\"App Name\":\"" + appName + "\"", "\"App Name\":\"" + name + "\"")
        .replace("\"spark.app.name\":\"" + appName + "\"", "\"spark.app.name\":\"" + name + "\"");
    if (rewritten.equals(text)) {
      throw new AssertionError("the fixture " + f.dir() + " does not name its application " + appName);
    }
    String file = f.eventLog().getFileName().toString().replaceAll("\\.(zstd|lz4|snappy|lzf|gz)$", "");
    Path target = dir.resolve(file);
    Files.writeString(target, rewritten, StandardCharsets.UTF_8);
    return target;
  }
}
