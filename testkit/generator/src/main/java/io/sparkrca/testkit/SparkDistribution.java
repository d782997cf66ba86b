package io.sparkrca.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One Spark version as laid out by the build: {@code <root>/spark-<version>/jars} (Spark's runtime
 * class path, also usable as {@code SPARK_HOME/jars}) and {@code app/testkit-scenarios.jar} (the
 * scenario programs compiled against that version).
 *
 * @param version the Spark version, such as {@code 3.5.9}
 * @param home the directory holding {@code jars/} and {@code app/}
 */
public record SparkDistribution(String version, Path home) {

  /** The Spark versions the testkit generates fixtures for, oldest first. */
  public static final List<String> VERSIONS = List.of("3.5.9", "4.0.4");

  /** System property naming the directory that holds the {@code spark-<version>} layouts. */
  public static final String ROOT_PROPERTY = "sparkrca.testkit.sparkRoot";

  public SparkDistribution {
    Objects.requireNonNull(version, "version");
    home = home.toAbsolutePath().normalize();
  }

  /**
   * Finds the layout of {@code version}: under {@value #ROOT_PROPERTY} if set, else under the
   * {@code testkit/target} directory found by walking up from the working directory.
   *
   * @throws IllegalStateException if the layout is missing (the build did not run)
   */
  public static SparkDistribution locate(String version) {
    String root = System.getProperty(ROOT_PROPERTY);
    Path base = root != null ? Path.of(root) : findTestkitTarget();
    SparkDistribution d = new SparkDistribution(version, base.resolve("spark-" + version));
    if (!Files.isDirectory(d.jarsDir()) || !Files.isRegularFile(d.scenariosJar())) {
      throw new IllegalStateException(
          "No Spark " + version + " layout at " + d.home()
              + "; build it with: mvn -B -pl testkit/spark-3.5,testkit/spark-4.0 -am package");
    }
    return d;
  }

  private static Path findTestkitTarget() {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("spark-3.5")) && Files.isDirectory(p.resolve("generator"))) {
        return p.resolve("target");
      }
      if (Files.isDirectory(p.resolve("testkit/generator"))) {
        return p.resolve("testkit/target");
      }
    }
    throw new IllegalStateException("cannot find the testkit directory above " + System.getProperty("user.dir"));
  }

  /** Spark's runtime jars. */
  public Path jarsDir() {
    return home.resolve("jars");
  }

  /** The scenario programs compiled against this version. */
  public Path scenariosJar() {
    return home.resolve("app/testkit-scenarios.jar");
  }

  /** Whether this is Spark 4 or later (rolling zstd event logs by default). */
  public boolean isSpark4() {
    return Integer.parseInt(version.substring(0, version.indexOf('.'))) >= 4;
  }

  /** The class path of a driver or History Server JVM: Spark's jars, then the scenario programs. */
  public List<String> classPath() {
    return List.of(jarsDir().resolve("*").toString(), scenariosJar().toString());
  }
}
