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
            + "The RCA engine's comparison with the baseline: CONFIG_REGRESSION (LEADING_HYPOTHESIS): This run took "
            + "26.3 s of jobs against the baseline " + id("4.0.4", "healthy") + "'s 11.2 s (2.35x) on the same input (2000000 input "
            + "records): 2.35x per unit of input. The first stage to depart is stage 1 (save at Workload.java:270) "
            + "(baseline stage 2 (save at Workload.java:270)): 18.8 s against 784 ms, 24.02x per unit of input. Its "
            + "configuration differs, and the stages show it: spark.sql.shuffle.partitions: 8 \u2192 1000 (stage 1 (save "
            + "at Workload.java:270) ran 1000 tasks, one per shuffle partition, where the baseline's stage 2 (save at "
            + "Workload.java:270) ran 1; median task 27 ms against 743 ms, 18.8 s against 784 ms: many small "
            + "tasks pay their scheduling and start-up cost each); spark.sql.adaptive.enabled: unset \u2192 false "
            + "(adaptive query execution is off in this run, so the shuffle's 1000 partitions of stage 1 (save at "
            + "Workload.java:270) were not coalesced (the baseline's stage 2 (save at Workload.java:270) ran 1 task "
            + "after coalescing)).");
    assertThatCode(() -> SparkAssertions.assertThat(run).comparedTo(baseline).isNotSlowerThan(1.6)).doesNotThrowAnyException();
  }

  @Test
  void aRunSlowerOnlyBecauseItsInputGrewSaysSo() {
    SparkApplication run = app("4.0.4", "input-growth");
    SparkApplication baseline = app("4.0.4", "healthy");
    assertThatThrownBy(() -> SparkAssertions.assertThat(run).comparedTo(baseline).isNotSlowerThan(1.2))
        .hasMessage("Expecting application " + id("4.0.4", "input-growth") + " to take at most 1.20 times the wall time "
            + "of its baseline application " + id("4.0.4", "healthy") + " but it took 39.9 s against 30.5 s (1.31 times).\n"
            + "The RCA engine's comparison with the baseline: NO_REGRESSION_INPUT_GROWTH (CONFIRMED): This run took "
            + "16.1 s of jobs against the baseline " + id("4.0.4", "healthy") + "'s 11.2 s (1.44x), but it read 8000000 input records "
            + "against 2000000 input records: the input grew 4.00x, and per unit of input it took 0.36x the baseline's "
            + "time, so the job itself did not regress. No matched stage departs from its baseline after normalising "
            + "for input.");
  }

  @Test
  void aRunAsFastAsItsBaselinePasses() {
    assertThatCode(() -> SparkAssertions.assertThat(app("3.5.9", "healthy")).comparedTo(app("3.5.9", "healthy"))
        .isNotSlowerThan(1.0)).doesNotThrowAnyException();
  }
}
