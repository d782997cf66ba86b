package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real run that does not show the fault it is labelled with must not become a fixture. */
class FaultNotShownTest {

  @Test
  void healthyRunLabelledAsBadRecordIsRejected(@TempDir Path dir) throws Exception {
    SparkDistribution spark = SparkDistribution.locate("3.5.9");
    Scenario mislabelled = Scenario.builder("mislabelled", RootCauseKind.DETERMINISTIC_DATA_FAILURE, "aggregate")
        .param("rows", 100_000)
        .check(FaultChecks.deterministicFailure(4, true))
        .build();
    Path fixtures = dir.resolve("fixtures");
    Generator g = new Generator(fixtures, dir.resolve("tmp"), false);

    assertThatThrownBy(() -> g.generate(spark, mislabelled))
        .isInstanceOf(FaultNotShownException.class)
        .hasMessageContaining("Scenario mislabelled on Spark 3.5.9 did not show its fault")
        .hasMessageContaining("expected one partition to fail with an exception on 4 attempts");

    assertThat(fixtures.resolve("spark-3.5.9/mislabelled")).doesNotExist();
    try (var left = Files.list(dir.resolve("tmp"))) {
      assertThat(left.toList()).isEmpty();
    }
  }
}
