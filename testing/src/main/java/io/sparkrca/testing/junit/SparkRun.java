package io.sparkrca.testing.junit;

import io.sparkrca.core.app.SparkApplication;
import java.nio.file.Path;
import java.util.List;

/**
 * One test's Spark run, as a {@link SparkTest} test method (or lifecycle method) receives it.
 *
 * <pre>{@code
 * @Test
 * void aggregates(SparkSession spark, SparkRun run) {
 *   spark.range(1000).groupBy(col("id").mod(10)).count().collect();
 *   assertThat(run.application()).hasNoFailedStages().stages().hasSkewBelow(5.0);
 * }
 * }</pre>
 */
public interface SparkRun {
  /**
   * The application this test ran, replayed from its event log: the jobs it ran so far (waiting
   * for Spark's listener bus to deliver every event first), or after the test body, all of them.
   * With {@link SessionScope#PER_METHOD} after the body: the whole, ended application. Replays
   * again on each call during the body.
   *
   * @throws IllegalStateException when no event log can be found, or (for {@link
   *     SessionScope#CODE_UNDER_TEST}) the code under test ran several applications
   */
  SparkApplication application();

  /** Every application the run wrote: one, except for code under test that built several sessions. */
  List<SparkApplication> applications();

  /**
   * The whole application of the session the test runs on, every test class's jobs included (for
   * {@link SessionScope#PER_CLASS}, the jobs of the earlier tests of the class too).
   */
  SparkApplication sessionApplication();

  /** Where the event log is written. */
  Path eventLogDirectory();

  /** The Spark job group the extension sets on the test's thread, which identifies its jobs. */
  String jobGroup();
}
