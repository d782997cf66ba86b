package io.sparkrca.testing.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.JobData;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.Healthy;
import io.sparkrca.testing.junit.NoExecutorLoss;
import io.sparkrca.testing.junit.NoFailedJobs;
import io.sparkrca.testing.junit.NoFailedStages;
import io.sparkrca.testing.junit.NoTaskFailures;
import io.sparkrca.testing.junit.SkewBelow;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A healthy real job on a local session the extension starts: every assertion and declared check
 * passes, each test sees only its own jobs, and {@code @AfterEach} methods receive the run.
 */
// AQE would coalesce the 4 shuffle partitions into 1 task on 2 cores: on a busy machine that
// stage runs long enough for the RCA to call it underpartitioned, which is true of it.
@SparkTest(conf = "spark.sql.adaptive.coalescePartitions.enabled=false")
@NoFailedJobs
@NoFailedStages
@NoTaskFailures
@NoExecutorLoss
@SkewBelow(5.0)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HealthyJobTest {
  private static final List<SparkApplication> HANDED_OVER = new ArrayList<>();

  @Test
  @Order(1)
  @Healthy
  void aHealthyAggregationPassesEveryAssertion(SparkSession spark, SparkRun run) {
    List<Row> counts = Jobs.healthyAggregation(spark);
    assertThat(counts).hasSize(10);

    SparkApplication app = run.application();
    SparkAssertions.assertThat(app)
        .hasNoFailedJobs().hasNoFailedStages().hasNoTaskFailures().hasNoExecutorLoss()
        .hasNoSortMergeJoinBelow(10L << 20)
        .passesRules(RuleCatalog.recommended())
        .isHealthy()
        .ranWithin(Duration.ofMinutes(2));
    SparkAssertions.assertThat(app).stages().hasSkewBelow(5.0).hasSpillBelow(1).hasAtMostTasks(4);
    assertThat(app.sparkVersion()).isEqualTo(System.getProperty("sparkrca.expected.sparkVersion"));
    assertThat(app.jobs(Set.of())).isNotEmpty().allSatisfy(j -> assertThat(j.jobGroup()).contains(run.jobGroup()));
    assertThat(app.info().latestAttempt().completed()).as("the test's jobs have all ended").isTrue();
  }

  @Test
  @Order(2)
  void theSessionItsContextsAndTheRunAreInjected(SparkSession spark, SparkContext sc, JavaSparkContext jsc, SparkRun run) {
    assertThat(sc).isSameAs(spark.sparkContext());
    assertThat(jsc.sc()).isSameAs(sc);
    assertThat(sc.getLocalProperty("spark.jobGroup.id")).isEqualTo(run.jobGroup());
    assertThat(run.eventLogDirectory()).isDirectory();
    assertThat(sc.getConf().get("spark.eventLog.enabled")).isEqualTo("true");
    // This test ran no job: its slice is empty, and empty is not healthy.
    assertThat(run.application().jobs(Set.of())).isEmpty();
  }

  @Test
  @Order(3)
  void eachTestSeesOnlyItsOwnJobsOfTheSharedApplication(SparkSession spark, SparkRun run) {
    Jobs.healthyAggregation(spark);
    List<JobData> mine = run.application().jobs(Set.of());
    List<JobData> all = run.sessionApplication().jobs(Set.of());
    assertThat(mine).isNotEmpty();
    assertThat(all).hasSizeGreaterThan(mine.size()); // test 1's jobs are in the session, not in this test's run
    assertThat(all.stream().map(JobData::jobId).toList()).containsAll(mine.stream().map(JobData::jobId).toList());
    assertThat(run.application().info().id()).isEqualTo(spark.sparkContext().applicationId());
  }

  @Test
  @Order(4)
  void sparkKeepsItsOwnJacksonNextToSparkrca(SparkSession spark, SparkRun run) throws Exception {
    // Spark's JSON (a schema, toJSON) runs on the Jackson Spark brought, after sparkrca replayed this session's log.
    run.sessionApplication();
    List<String> json = spark.range(0, 2, 1, 1).toDF("id").toJSON().collectAsList();
    assertThat(json).containsExactly("{\"id\":0}", "{\"id\":1}");
    assertThat(spark.range(1).schema().json()).contains("\"name\":\"id\"");
    Class<?> mapper = Class.forName("com.fasterxml.jackson.databind.ObjectMapper");
    assertThat(mapper.getPackage().getImplementationVersion()).isEqualTo(System.getProperty("sparkrca.expected.jacksonVersion"));
    // sparkrca's own Jackson is relocated inside its jar, so the two never meet.
    Class<?> ours = Class.forName("io.sparkrca.testing.shaded.jackson.databind.ObjectMapper");
    assertThat(ours.getProtectionDomain().getCodeSource().getLocation())
        .isEqualTo(SparkAssertions.class.getProtectionDomain().getCodeSource().getLocation())
        .isNotEqualTo(mapper.getProtectionDomain().getCodeSource().getLocation());
  }

  @AfterEach
  void theRunIsHandedToAfterEachMethods(SparkApplication app) {
    HANDED_OVER.add(app);
    SparkAssertions.assertThat(app).hasNoFailedStages();
  }

  @AfterAll
  static void everyTestsRunWasHandedOver() {
    assertThat(HANDED_OVER).hasSize(4);
    assertThat(HANDED_OVER.get(1).jobs(Set.of())).isEmpty();
    assertThat(HANDED_OVER.get(2).jobs(Set.of())).isNotEmpty();
  }
}
