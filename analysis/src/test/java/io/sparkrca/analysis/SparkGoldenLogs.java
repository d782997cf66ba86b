package io.sparkrca.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Spark's own golden event logs: HistoryServerSuite's {@code spark-events}, real runs of Spark 1.x
 * to 3.x (shells on YARN, local mode and standalone among them), from spark-core's tests jar on
 * the test class path, so they are there on every build, unlike {@code ../shared/conformance}.
 *
 * <pre>{@code
 * Path log = SparkGoldenLogs.copy("application_1516285256255_0012", tempDir);
 * }</pre>
 */
public final class SparkGoldenLogs {
  private SparkGoldenLogs() {}

  /** The golden log {@code name}, copied into {@code dir} as a plain file. */
  public static Path copy(String name, Path dir) throws IOException {
    try (InputStream in = SparkGoldenLogs.class.getClassLoader().getResourceAsStream("spark-events/" + name)) {
      assertThat(in).as("spark-core's tests jar holds spark-events/" + name).isNotNull();
      Path out = dir.resolve(name);
      Files.copy(in, out);
      return out;
    }
  }
}
