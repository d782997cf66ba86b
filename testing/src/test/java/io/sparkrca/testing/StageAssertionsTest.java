package io.sparkrca.testing;

import static io.sparkrca.testing.Fixtures.app;
import static io.sparkrca.testing.Fixtures.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.testing.internal.StageChecks;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Stage assertions (skew, spill, GC, task count) on real runs that show each problem, word for word. */
class StageAssertionsTest {
  private static final String CLEAR_DATA_SKEW_PLAIN = "Remediation (CLEAR_DATA_SKEW): A few keys or files hold most of "
      + "the data: find the hot keys (count by key) and spread them (salting, a broadcast join for the small side, "
      + "pre-aggregation), or split the large input files. Adding memory or executors does not help a skewed partition.";

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aSkewedStageNamesItsSlowestTaskAndTheMedian(String v) {
    String measured = v.equals("3.5.9") ? "27.86: the slowest task, task 11 (partition 5, executor driver), took 3.7 s and "
        + "the median task 133 ms" : "13.57: the slowest task, task 11 (partition 5, executor driver), took 3.6 s and the "
        + "median task 265 ms";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "skew-join")).stage(4).hasSkewBelow(5.0))
        .hasMessage("Expecting stage 4 (attempt 0, \"collectAsList at Workload.java:88\") of application " + id(v, "skew-join")
            + " to have skew below 5.00 (slowest task duration / median task duration) but it was " + measured + ".\n"
            + "Remediation (CLEAR_DATA_SKEW): " + ApplicationAssertionsTest.SKEW_REMEDIATION);
    // The label's culprit partition is the one named.
    int partition = TestkitFixtures.get(v, "skew-join").label().path("culprit").path("partition").asInt();
    assertThat(partition).isEqualTo(5);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void everyStageIsCheckedAndOnlyTheSkewedOneIsListed(String v) {
    SparkApplication skew = app(v, "skew-join");
    assertThatThrownBy(() -> SparkAssertions.assertThat(skew).stages().hasSkewBelow(5.0))
        .hasMessageStartingWith("Expecting every stage of application " + id(v, "skew-join") + " to have skew below 5.00 "
            + "(slowest task duration / median task duration) but 1 stage attempt does not:\n"
            + "  stage 4 (attempt 0, \"collectAsList at Workload.java:88\"): it was ");
    double[] d = StageChecks.medianAndMax(skew.stageAttempt(4, 0, StageQuery.all()).orElseThrow(),
        java.util.Optional.of(skew)).orElseThrow();
    // Above the stage's own skew, every stage passes.
    assertThatCode(() -> SparkAssertions.assertThat(skew).stages().hasSkewBelow(d[1] / d[0] + 0.01)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aSpillingStageSaysHowMuchItSpilledInHowManyTasks(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "spill")).stage(0).hasSpillBelow(64L << 20))
        .hasMessage("Expecting stage 0 (attempt 0, \"save at Workload.java:106\") of application " + id(v, "spill")
            + " to spill less than 64.0 MiB to disk but it spilled 92.5 MiB (96941983 bytes; 112.0 MiB in memory) in 4 tasks.\n"
            + "Remediation (SPILL): Some operator state did not fit in execution memory. Usually cheap; if the stage is "
            + "slow, give tasks less data (more partitions) or reduce row width. For stage 2: This stage reads shuffle data, "
            + "so its partition count starts from spark.sql.shuffle.partitions=200. spark.memory.fraction is 0.1 (Spark's "
            + "default is 0.6): execution and storage share that fraction of the heap, so a lower value makes operators "
            + "spill sooner.\n"
            + "Remediation (UNDERPARTITIONED_SPILL): Too few partitions for the data: each task holds too much. Increase "
            + "the partition count of this stage (repartition, or the shuffle partitions of the exchange feeding it). For "
            + "stage 2: AQE is coalescing this stage's shuffle partitions (spark.sql.adaptive.coalescePartitions.enabled="
            + "true): lower spark.sql.adaptive.advisoryPartitionSizeInBytes (now 64m) so that it coalesces less. For stage "
            + "2: This stage reads shuffle data, so its partition count starts from spark.sql.shuffle.partitions=200. "
            + "spark.memory.fraction is 0.1 (Spark's default is 0.6): execution and storage share that fraction of the "
            + "heap, so a lower value makes operators spill sooner.");
    assertThatCode(() -> SparkAssertions.assertThat(app(v, "healthy")).stages().hasSpillBelow(1)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aGcBoundStageSaysWhatShareOfItsTaskTimeWasGc(String v) {
    String measured = v.equals("3.5.9") ? "43.1% (1.8 s of 4.1 s of task time)" : "41.4% (4.4 s of 10.5 s of task time)";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "gc-pressure")).stage(0).hasGcShareBelow(0.25))
        .hasMessage("Expecting stage 0 (attempt 0, \"collect at Workload.java:210\") of application " + id(v, "gc-pressure")
            + " to spend less than 25.0% of its task time in GC but it spent " + measured + ".\n"
            + "Remediation (HIGH_GC_OVERHEAD): The heap is too small for what tasks keep alive: reduce cached or broadcast "
            + "data and per-task state (wide rows, large collections in UDFs), give tasks less data, or raise executor "
            + "memory. Kryo serialization (spark.serializer=org.apache.spark.serializer.KryoSerializer) makes cached and "
            + "shuffled objects smaller.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aStageOfThousandsOfTinyTasksFailsHasAtMostTasks(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "too-many-small-tasks")).stage(0).hasAtMostTasks(1000))
        .hasMessage("Expecting stage 0 (attempt 0, \"count at Workload.java:115\") of application "
            + id(v, "too-many-small-tasks") + " to have at most 1000 tasks but it had 4000 (1 ms of run time per task).\n"
            + "Remediation (TINY_TASK_STORM): Tasks are so short that scheduling and task start-up dominate. Use fewer, "
            + "larger partitions (coalesce, fewer shuffle partitions, larger input splits).");
    assertThatCode(() -> SparkAssertions.assertThat(app(v, "too-many-small-tasks")).stage(0).hasAtMostTasks(4000))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anUnknownStageIsNamedWithTheStagesThereAre(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "skew-join")).stage(9))
        .hasMessage("Expecting application " + id(v, "skew-join") + " to have stage 9 but it has only stages 0, 1, 2, 3, 4, "
            + "5, 6, 7, 8");
  }

  @Test
  void aStageReadWithoutQuantilesIsNotPassedOnMissingEvidence() {
    StageData bare = app("3.5.9", "skew-join").stageAttempt(4, 0, StageQuery.all()).orElseThrow();
    assertThatThrownBy(() -> SparkAssertions.assertThat(bare).hasSkewBelow(1000.0))
        .hasMessage("Expecting stage 4 (attempt 0, \"collectAsList at Workload.java:88\") to have skew below 1000.00 "
            + "(slowest task duration / median task duration) but its task durations are not known: it was read without "
            + "task quantiles (read it with StageQuery.all().withSummaries(List.of(0.5, 1.0)), or assert through "
            + "assertThat(application).stage(4)).\n" + CLEAR_DATA_SKEW_PLAIN);
  }

  @Test
  void aStageReadWithQuantilesIsCheckedOnItsOwn() {
    StageData withSummaries = app("3.5.9", "skew-join")
        .stageAttempt(4, 0, StageQuery.all().withSummaries(List.of(0.5, 1.0))).orElseThrow();
    assertThatThrownBy(() -> SparkAssertions.assertThat(withSummaries).hasSkewBelow(5.0))
        .hasMessage("Expecting stage 4 (attempt 0, \"collectAsList at Workload.java:88\") to have skew below 5.00 "
            + "(slowest task duration / median task duration) but it was 27.86: the slowest task took 3.7 s and the "
            + "median task 133 ms.\n" + CLEAR_DATA_SKEW_PLAIN);
    assertThatCode(() -> SparkAssertions.assertThat(withSummaries).hasSkewBelow(30.0).hasSpillBelow(1).hasAtMostTasks(8))
        .doesNotThrowAnyException();
  }

  @Test
  void skewIsOneWhenNothingRanAndInfiniteWhenTheMedianTookNoTime() {
    assertThat(StageChecks.skew(0, 0)).isEqualTo(1.0);
    assertThat(StageChecks.skew(0, 5)).isInfinite();
    assertThat(StageChecks.skew(100, 250)).isEqualTo(2.5);
  }
}
