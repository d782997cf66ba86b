package io.sparkrca.core.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * Locates {@code ../shared} (the conformance data beside the checkout), which tests must not
 * copy into the project. Absent on machines without it: tests that need it are skipped.
 */
public final class SharedData {
  private SharedData() {}

  /** The shared directory, from {@code -Dsparkrca.shared.dir} or by walking up from here. */
  public static Optional<Path> dir() {
    String prop = System.getProperty("sparkrca.shared.dir");
    if (prop != null && Files.isDirectory(Paths.get(prop))) {
      return Optional.of(Paths.get(prop).toAbsolutePath().normalize());
    }
    Path p = Paths.get("").toAbsolutePath();
    for (int i = 0; i < 5 && p != null; i++, p = p.getParent()) {
      Path candidate = p.resolveSibling("shared");
      if (Files.isDirectory(candidate.resolve("conformance"))) {
        return Optional.of(candidate.normalize());
      }
    }
    return Optional.empty();
  }

  /**
   * The Spark History Server conformance corpus, if present. With {@code
   * -Dsparkrca.requireShared=true} (CI's conformance step) its absence is an error, not a skip.
   */
  public static Optional<Path> shsConformance() {
    Optional<Path> p = dir().map(d -> d.resolve("conformance/spark-shs")).filter(Files::isDirectory);
    if (p.isEmpty() && Boolean.getBoolean("sparkrca.requireShared")) {
      throw new IllegalStateException("../shared/conformance/spark-shs is required but absent");
    }
    return p;
  }
}
