package io.sparkrca.testing.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.format.Formats;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * A real shuffle where one key holds most of the records: the skew assertion names the stage, its
 * slowest task and the median, word for word (the numbers from the run's own task summary), with
 * the skew rule's remediation.
 */
@SparkTest
class SkewedJobTest {
  /** The rule's advice with this session's (default) AQE and broadcast settings quoted. */
  static final String REMEDIATION = "Remediation (CLEAR_DATA_SKEW): A few keys or files hold most of the data: find the "
      + "hot keys (count by key) and spread them (salting, a broadcast join for the small side, pre-aggregation), or "
      + "split the large input files. Adding memory or executors does not help a skewed partition. AQE's skew join is "
      + "already on (spark.sql.adaptive.skewJoin.enabled=true) and did not split this: it only splits sort-merge join "
      + "inputs over spark.sql.adaptive.skewJoin.skewedPartitionFactor (5) times the median and "
      + "skewedPartitionThresholdInBytes (256 MiB); aggregations and other operators need salting. Spark broadcasts a "
      + "join side only when its estimated size is under spark.sql.autoBroadcastJoinThreshold=10m; hint broadcast() on "
      + "a small side it misjudges.";

  @Test
  void aHotKeyFailsTheSkewAssertionNamingTheSlowestTask(SparkSession spark, SparkRun run) {
    assertThat(Jobs.skewed(spark)).hasSize(8).contains(Jobs.HOT_RECORDS);
    SparkApplication app = run.application();
    StageData reduce = app.stages(StageQuery.all()).stream().max(Comparator.comparingInt(StageData::stageId)).orElseThrow();
    TaskMetricDistributions d = app.taskSummary(reduce.stageId(), reduce.attemptId(), List.of(0.5, 1.0)).orElseThrow();
    double median = d.duration().get(0);
    double max = d.duration().get(1);
    TaskData slowest = app.tasks(reduce.stageId(), reduce.attemptId(), TaskQuery.first(1)
        .sortedBy(TaskSorting.DECREASING_RUNTIME).withStatuses(Set.of(TaskStatus.SUCCESS))).get(0);
    assertThat(slowest.index()).as("the hot key's reducer").isZero();

    assertThatThrownBy(() -> SparkAssertions.assertThat(app).stages().hasSkewBelow(5.0))
        .hasMessage("Expecting every stage of application " + app.info().id() + " to have skew below 5.00 (slowest task "
            + "duration / median task duration) but 1 stage attempt does not:\n"
            + "  stage " + reduce.stageId() + " (attempt 0, \"collect at Jobs.java:50\"): it was "
            + Formats.fixed(max / median, 2) + ": the slowest task, task " + slowest.taskId() + " (partition 0, executor "
            + "driver), took " + Formats.humanMillis(max) + " and the median task " + Formats.humanMillis(median) + "\n"
            + REMEDIATION);
    // The map side is even, and a limit above the measured skew passes.
    SparkAssertions.assertThat(app).stage(reduce.stageId() - 1).hasSkewBelow(5.0);
    assertThatCode(() -> SparkAssertions.assertThat(app).stages().hasSkewBelow(max / median + 0.01)).doesNotThrowAnyException();
    SparkAssertions.assertThat(app).hasNoFailedStages().hasNoTaskFailures();
  }
}
