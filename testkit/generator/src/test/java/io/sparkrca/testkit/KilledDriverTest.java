package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver killed by a signal is the fault only of a scenario that says so ({@link
 * Scenario#driverKilled}); in any other it must not become a fixture, whatever its check says.
 */
class KilledDriverTest {

  @Test
  void killedDriverInAScenarioThatDoesNotExpectItIsRejected(@TempDir Path dir) throws Exception {
    SparkDistribution spark = SparkDistribution.locate("3.5.9");
    Scenario unexpected = Scenario.builder("killed-probe", RootCauseKind.UNDETERMINED, "driver-killed")
        .check(run -> Findings.builder().build())
        .build();
    Path fixtures = dir.resolve("fixtures");
    Path tmp = dir.resolve("tmp");

    assertThatThrownBy(() -> new Generator(fixtures, tmp, false).generate(spark, unexpected))
        .isInstanceOf(GenerationException.class)
        .hasMessageContaining("killed by signal 9 (exit 137)");

    assertThat(fixtures.resolve("spark-3.5.9/killed-probe")).doesNotExist();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left.toList()).as("temporary files left behind").isEmpty();
    }
  }
}
