package io.sparkrca.examples.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.NoFailedStages;
import io.sparkrca.testing.junit.NoTaskFailures;
import io.sparkrca.testing.junit.SkewBelow;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A health test of a real Spark job: the result is right, and the run that produced it failed no
 * stage or task, was not skewed, passes sparkrca's recommended rules and its root-cause analysis
 * finds it healthy. The extension starts a local SparkSession with its event log in a temporary
 * directory; the declared checks run after the test body.
 */
@SparkTest(conf = "spark.sql.adaptive.coalescePartitions.enabled=false")
@NoFailedStages
@NoTaskFailures
@SkewBelow(5.0)
class DailyTotalsHealthTest {
  /**
   * The recommended rules without the GC-share ones: on a sample job whose stages run for a second
   * or two, the share of GC is the cold JVM's and the machine's, not the job's (it crossed 15% on a
   * loaded build machine). Check GC on a run with production-sized data instead.
   */
  private static final RuleCatalog RULES = RuleCatalog.of(RuleCatalog.recommended().rules().stream()
      .filter(r -> !r.ruleId().contains("GC"))
      .toList());

  @Test
  void dailyTotalsAreRightAndTheRunIsHealthy(SparkSession spark, SparkRun run) {
    List<Row> totals = DailyTotals.compute(DailyTotals.sampleOrders(spark, 70_000)).collectAsList();

    assertThat(totals).hasSize(7).allSatisfy(r -> assertThat(r.getLong(1)).isEqualTo(10_000L));
    SparkAssertions.assertThat(run.application())
        .hasNoFailedJobs()
        .hasNoExecutorLoss()
        .passesRules(RULES)
        .isHealthy();
    SparkAssertions.assertThat(run.application()).stages().hasSpillBelow(1).hasAtMostTasks(4);
  }
}
