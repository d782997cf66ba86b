package io.sparkrca.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.RcaReport;
import java.util.Optional;

/**
 * The entry point of sparkrca's AssertJ assertions on Spark job health. Import it statically next
 * to AssertJ's own {@code Assertions.assertThat}; the overloads do not clash.
 *
 * <pre>{@code
 * import static io.sparkrca.testing.SparkAssertions.assertThat;
 *
 * SparkApplication app = EventLogs.replay(Path.of("/tmp/spark-events/local-1712345678901"));
 * assertThat(app).hasNoFailedStages().hasNoTaskFailures();
 * assertThat(app).stage(3).hasSkewBelow(5.0).hasSpillBelow(256L << 20);
 * assertThat(app).stages().hasGcShareBelow(0.10);
 * assertThat(app).passesRules(RuleCatalog.recommended()).isHealthy();
 * assertThat(app).comparedTo(baseline).isNotSlowerThan(1.5);
 * }</pre>
 *
 * <p>In a JUnit 5 test, {@link io.sparkrca.testing.junit.SparkTest} gives the test a SparkSession
 * whose event log is replayed into the {@link SparkApplication} these assertions take.
 */
public final class SparkAssertions {
  private SparkAssertions() {}

  /** Assertions on an application (replayed, from a History Server, or a test's part of a session). */
  public static SparkApplicationAssert assertThat(SparkApplication actual) {
    return new SparkApplicationAssert(actual);
  }

  /**
   * Assertions on one stage attempt on its own. Skew needs the attempt's task distributions (read
   * it with {@code StageQuery.all().withSummaries(List.of(0.5, 1.0))}); through {@code
   * assertThat(app).stage(id)} the application's task summary and slowest task are used instead.
   */
  public static StageDataAssert assertThat(StageData actual) {
    return new StageDataAssert(actual, Optional.empty());
  }

  /** Assertions on a root-cause analysis. */
  public static RcaReportAssert assertThat(RcaReport actual) {
    return new RcaReportAssert(actual);
  }
}
