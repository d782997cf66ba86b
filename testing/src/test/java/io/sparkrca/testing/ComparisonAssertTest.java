package io.sparkrca.testing;

import static io.sparkrca.testing.Fixtures.app;
import static io.sparkrca.testing.Fixtures.id;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import org.junit.jupiter.api.Test;

/**
 * {@code comparedTo(baseline).isNotSlowerThan(factor)} on the testkit's twins: a configuration
 * regression and an input growth of the same job as its healthy run.
 */
class ComparisonAssertTest {
  @Test
  void aConfigurationRegressionIsSlowerAndTheEngineNamesTheChangedSettings() {
    SparkApplication run = app("4.0.4", "config-regression");
    SparkApplication baseline = app("4.0.4", "healthy");
    assertThatThrownBy(() -> SparkAssertions.assertThat(run).comparedTo(baseline).isNotSlowerThan(1.2))
        .hasMessage("Expecting application " + id("4.0.4", "config-regression") + " to take at most 1.20 times the wall "
            + "time of its baseline application " + id("4.0.4", "healthy") + " but it took 46.9 s against 30.5 s (1.53 times).\n"
            + "The RCA engine's comparison with the baseline: CONFIG_REGRESSION (LEADING_HYPOTHESIS): This run's jobs took "
            + "26.3 s against the baseline " + id("4.0.4", "healthy") + "'s 11.2 s (2.3x) on the same input (2000000 "
            + "records), and its configuration differs: spark.sql.shuffle.partitions: 8 -> 1000; spark.sql.adaptive.enabled: "
            + "unset -> false. Stage 1 ran 1000 tasks (spark.sql.shuffle.partitions=1000) where the baseline's reduce stages "
            + "ran at most 1: 18.8 s for 16.0 s of task time, most of it scheduling tiny tasks. AQE is off in this run, so "
            + "small shuffle partitions were not coalesced.");
    assertThatCode(() -> SparkAssertions.assertThat(run).comparedTo(baseline).isNotSlowerThan(1.6)).doesNotThrowAnyException();
  }

  @Test
  void aRunSlowerOnlyBecauseItsInputGrewSaysSo() {
    SparkApplication run = app("4.0.4", "input-growth");
    SparkApplication baseline = app("4.0.4", "healthy");
    assertThatThrownBy(() -> SparkAssertions.assertThat(run).comparedTo(baseline).isNotSlowerThan(1.2))
        .hasMessage("Expecting application " + id("4.0.4", "input-growth") + " to take at most 1.20 times the wall time "
            + "of its baseline application " + id("4.0.4", "healthy") + " but it took 39.9 s against 30.5 s (1.31 times).\n"
            + "The RCA engine's comparison with the baseline: NO_REGRESSION_INPUT_GROWTH (CONFIRMED): This run's jobs took "
            + "16.1 s against the baseline " + id("4.0.4", "healthy") + "'s 11.2 s (1.4x), but it read 8000000 input records "
            + "against 2000000 (4.0x): per record it took 0.4x the baseline's time, so the job itself did not regress.");
  }

  @Test
  void aRunAsFastAsItsBaselinePasses() {
    assertThatCode(() -> SparkAssertions.assertThat(app("3.5.9", "healthy")).comparedTo(app("3.5.9", "healthy"))
        .isNotSlowerThan(1.0)).doesNotThrowAnyException();
  }
}
