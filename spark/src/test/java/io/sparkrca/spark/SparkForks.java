package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.testkit.ForkedJvm;
import io.sparkrca.testkit.SparkDistribution;
import io.sparkrca.testkit.SparkJvm;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** How the ITs start real Spark JVMs: Spark's runtime class path, the shaded jar, the test programs. */
final class SparkForks {
  private SparkForks() {}

  /** The shaded jar the build made (the ITs run after {@code package}). */
  static Path shadedJar() {
    Path jar = Path.of(System.getProperty("sparkrca.spark.shadedJar", "target/sparkrca-spark.jar"));
    assertThat(jar).as("the shaded jar (run the ITs with mvn verify, after package)").isRegularFile();
    return jar;
  }

  /** The directory of the compiled test programs. */
  static Path testClasses() {
    try {
      return Path.of(SparkForks.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs {@code mainClass} on Spark {@code version} to completion and returns its exit code;
   * standard output and error go to {@code dir/<label>.stdout|stderr}.
   */
  static ForkedJvm.Outcome run(String version, String mainClass, List<String> jvmOptions, List<String> args,
      Path dir, String label) throws IOException {
    SparkDistribution spark = SparkDistribution.locate(version);
    List<String> opts = new ArrayList<>(SparkJvm.javaModuleOptions());
    opts.add("-Xmx1g");
    opts.addAll(jvmOptions);
    ForkedJvm jvm = new ForkedJvm(mainClass,
        List.of(spark.jarsDir().resolve("*").toString(), shadedJar().toString(), testClasses().toString()),
        opts, args, SparkJvm.environment(null), dir);
    ForkedJvm.Outcome o = jvm.run(dir.resolve(label + ".stdout"), dir.resolve(label + ".stderr"), Duration.ofMinutes(6));
    assertThat(o.timedOut()).as("%s on Spark %s timed out; see %s", mainClass, version, dir).isFalse();
    return o;
  }

  /** The text of a file, for a failure message. */
  static String text(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "(no " + file + ")";
    } catch (IOException e) {
      return "(" + e + ")";
    }
  }

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
}
