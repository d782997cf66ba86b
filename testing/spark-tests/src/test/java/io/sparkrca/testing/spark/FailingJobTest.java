package io.sparkrca.testing.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.NoFailedStages;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * A real job that fails on a bad record, on a session that retries a task once ({@code local[2,2]}):
 * the assertions fail with Spark's own reason, the failed task and the rule's remediation, word for
 * word, and a check declared on a test fails that test although its body passed.
 */
@SparkTest(master = "local[2,2]")
class FailingJobTest {
  private static final List<String> WITH_A_BAD_RECORD = List.of("1", "2", "3", "12x");

  @Test
  void aBadRecordFailsTheAssertionsWithSparksReasonTheTaskAndTheFix(SparkSession spark, SparkRun run) {
    assertThatThrownBy(() -> Jobs.parseAll(spark, WITH_A_BAD_RECORD)).hasMessageContaining("For input string: \"12x\"");
    SparkApplication app = run.application();

    assertThatThrownBy(() -> SparkAssertions.assertThat(app).hasNoFailedStages())
        .isInstanceOf(AssertionError.class).hasMessage(Expected.failedStages(app, 2));
    assertThatThrownBy(() -> SparkAssertions.assertThat(app).hasNoFailedJobs()).hasMessage(Expected.failedJobs(app, 2));
    assertThatThrownBy(() -> SparkAssertions.assertThat(app).hasNoTaskFailures()).hasMessage(Expected.taskFailures(app, 2));
    SparkAssertions.assertThat(app).hasNoExecutorLoss().hasRootCause(RootCauseKind.DETERMINISTIC_DATA_FAILURE);
    assertThatThrownBy(() -> SparkAssertions.assertThat(app).isHealthy())
        .hasMessageStartingWith("Expecting the RCA of application " + app.info().id() + " to find it HEALTHY but it found "
            + "DETERMINISTIC_DATA_FAILURE (CONFIRMED): Partition 3 of stage " + Expected.failedStage(app).stageId()
            + " fails on every attempt");
  }

  @Test
  void aDeclaredCheckFailsATestWhoseBodyPassed() {
    TestExecutionSummary summary = Launch.run(SwallowsABadRecord.class);

    assertThat(summary.getTestsSucceededCount()).isZero();
    assertThat(summary.getFailures()).singleElement().satisfies(f -> assertThat(f.getException())
        .isInstanceOf(AssertionError.class)
        .hasMessage(Expected.failedStages(SwallowsABadRecord.handedOver, 2)));
  }

  @Test
  void aTestThatRanNoFailingJobPassesTheSameCheck(SparkSession spark, SparkRun run) {
    assertThat(Jobs.parseAll(spark, List.of("1", "2"))).isEqualTo(3);
    SparkAssertions.assertThat(run.application()).hasNoFailedStages().hasNoTaskFailures().hasNoFailedJobs();
  }

  /** Run by {@link #aDeclaredCheckFailsATestWhoseBodyPassed} (surefire skips nested classes). */
  @EnabledIf("io.sparkrca.testing.spark.Launch#running")
  @SparkTest
  @NoFailedStages
  static class SwallowsABadRecord {
    static SparkApplication handedOver;

    @Test
    void catchesTheFailure(SparkSession spark) {
      assertThatThrownBy(() -> Jobs.parseAll(spark, WITH_A_BAD_RECORD)).isNotNull();
    }

    @AfterEach
    void keep(SparkApplication app) {
      handedOver = app;
    }
  }
}
