package io.sparkrca.testing;

import static io.sparkrca.testing.Fixtures.app;
import static io.sparkrca.testing.Fixtures.id;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.rules.RuleCatalog;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The application-level assertions on real Spark runs with a known fault (testkit fixtures), and
 * their failure messages word for word.
 */
class ApplicationAssertionsTest {
  private static final String STAGE_FAILED = "Remediation (STAGE_FAILED): Find the first failed task's exception "
      + "(sparkrca summarize, or the failed tasks of this stage) and fix that cause; failures of later stages and fetch "
      + "failures are usually fallout of an earlier executor loss.";
  private static final String BAD_RECORD_REASON = "Job aborted due to stage failure: Task 2 in stage 0.0 failed 4 times, "
      + "most recent failure: Lost task 2.3 in stage 0.0 (TID 6) (localhost executor driver): "
      + "java.lang.NumberFormatException: For input string: \"12x\"";

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aHealthyRunPassesEveryApplicationAssertion(String v) {
    assertThatCode(() -> SparkAssertions.assertThat(app(v, "healthy"))
        .hasNoFailedJobs().hasNoFailedStages().hasNoTaskFailures().hasNoExecutorLoss()
        .hasNoSortMergeJoinBelow(10L << 20).passesRules(RuleCatalog.recommended()).isHealthy()
        .hasRootCause(RootCauseKind.HEALTHY).ranWithin(Duration.ofMinutes(5)))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aFailedStageIsNamedWithSparksReasonAndTheRulesRemediation(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "bad-record")).hasNoFailedStages())
        .isInstanceOf(AssertionError.class)
        .hasMessage("Expecting application " + id(v, "bad-record") + " to have no failed stages but 1 stage attempt failed:\n"
            + "  stage 0 (attempt 0, \"reduce at Workload.java:38\"): " + BAD_RECORD_REASON + "\n"
            + STAGE_FAILED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aFailedJobIsNamedWithTheStageThatFailedIt(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "bad-record")).hasNoFailedJobs())
        .hasMessage("Expecting application " + id(v, "bad-record") + " to have no failed jobs but 1 job failed:\n"
            + "  job 0 (\"reduce at Workload.java:38\"): stage 0 failed: " + BAD_RECORD_REASON + "\n"
            + STAGE_FAILED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void taskFailuresAreFoldedByCauseWithTheFirstTask(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "bad-record")).hasNoTaskFailures())
        .hasMessage("Expecting application " + id(v, "bad-record") + " to have no task failures but 4 task attempts failed:\n"
            + "  4x ExceptionFailure java.lang.NumberFormatException: For input string: \"12x\" in stage 0 "
            + "(first: task 2, partition 2, attempt 0, executor driver)\n"
            + STAGE_FAILED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aTaskFailureThatARetryRecoveredFromStillFailsHasNoTaskFailures(String v) {
    SparkApplicationAssert flaky = SparkAssertions.assertThat(app(v, "flaky-task"));
    assertThatCode(flaky::hasNoFailedStages).doesNotThrowAnyException();
    assertThatThrownBy(flaky::hasNoTaskFailures)
        .hasMessage("Expecting application " + id(v, "flaky-task") + " to have no task failures but 1 task attempt failed:\n"
            + "  1x ExceptionFailure java.io.IOException: Injected transient fault: connection reset while reading "
            + "partition 1 (first attempt only) in stage 0 (first: task 1, partition 1, attempt 0, executor driver)\n"
            + "Remediation (TASK_FAILURES): Read the failed tasks' errors: one bad host or executor (lost executors, disk "
            + "errors), preemption, or a data-dependent exception that retries happened to survive. Retries hide the cost, "
            + "not the cause.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anOutOfMemoryStageQuotesTheOomRuleToo(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "executor-oom")).hasNoFailedStages())
        .hasMessage("Expecting application " + id(v, "executor-oom") + " to have no failed stages but 1 stage attempt failed:\n"
            + "  stage 0 (attempt 0, \"collect at Workload.java:177\"): Job aborted due to stage failure: Task 0 in stage "
            + "0.0 failed 2 times, most recent failure: Lost task 0.2 in stage 0.0 (TID 2) (localhost executor 1): "
            + "java.lang.OutOfMemoryError: Java heap space\n"
            + STAGE_FAILED + "\n"
            + "Remediation (EXECUTOR_OOM): Find what holds the memory before adding more: a skewed or oversized partition, "
            + "a large broadcast or collect, caching, or per-task state in UDFs. Give each task less data (more partitions, "
            + "fewer cores per executor) or more heap; when the JVM was killed with low GC time (exit 137, OOMKilled), the "
            + "overhead (off-heap, Python, native) ran out: raise spark.executor.memoryOverhead.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aLostExecutorIsNamedWithItsExitCode(String v) {
    String lost = v.equals("3.5.9") ? "executor 1 at 2026-12-01T22:34:25.571Z" : "executor 0 at 2026-12-01T23:00:49.448Z";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "executor-lost-sigterm")).hasNoExecutorLoss())
        .hasMessage("Expecting application " + id(v, "executor-lost-sigterm") + " to lose no executors but 1 executor was "
            + "removed while it ran:\n"
            + "  " + lost + ": Command exited with code 143\n"
            + "Remediation (EXECUTOR_CHURN): Executors are being lost or reclaimed while running tasks: container OOM kills "
            + "(raise spark.executor.memoryOverhead when GC is low), preemption of spot or preemptible nodes, or dynamic "
            + "allocation removing busy executors. Check the executors' removal reasons.");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aSortMergeJoinWithATinySideIsNamedWithItsKeysAndSizes(String v) {
    String keys = v.equals("3.5.9") ? "[store_id#3L], [store_id#10L]" : "[store_id#2L], [store_id#5L]";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "smj-should-broadcast")).hasNoSortMergeJoinBelow(10L << 20))
        .hasMessage("Expecting application " + id(v, "smj-should-broadcast") + " to have no sort-merge join whose smaller "
            + "side is below 10.0 MiB but 1 join has one:\n"
            + "  SQL execution 4 (\"collectAsList at Workload.java:237\"): SortMergeJoin " + keys + ", Inner with a 1.6 KiB "
            + "side (the other 45.8 MiB)\n"
            + "Remediation (SORT_MERGE_JOIN_SHOULD_BROADCAST): broadcast the small side (broadcast(small_df) or /*+ "
            + "BROADCAST(t) */), or raise spark.sql.autoBroadcastJoinThreshold above its size and refresh the table "
            + "statistics (ANALYZE TABLE ... COMPUTE STATISTICS) so that the optimizer sees it.");
    // Below the small side's size, the join is acceptable.
    assertThatCode(() -> SparkAssertions.assertThat(app(v, "smj-should-broadcast")).hasNoSortMergeJoinBelow(1024))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void failingRulesAreListedWithTheirStagesAndRemediation(String v) {
    String detail = v.equals("3.5.9") ? "slowest task 3.7 s = 27.9x the median" : "slowest task 3.6 s = 13.6x the median";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "skew-join")).passesRules(RuleCatalog.recommended()))
        .hasMessage("Expecting application " + id(v, "skew-join") + " to pass 22 rules but 1 rule matches:\n"
            + "  HIGH CLEAR_DATA_SKEW (Data skew: the slowest task takes over 5x the median (and at least 2 s) and reads "
            + "over 5x the median bytes): stages 4.0 (" + detail + "; largest task input 0 B (median 0 B), largest shuffle "
            + "read 585.3 KiB (median 111.1 KiB))\n"
            + "    Remediation: " + SKEW_REMEDIATION);
  }

  static final String SKEW_REMEDIATION = "A few keys or files hold most of the data: find the hot keys (count by key) "
      + "and spread them (salting, a broadcast join for the small side, pre-aggregation), or split the large input files. "
      + "Adding memory or executors does not help a skewed partition. AQE is on but its skew join is off "
      + "(spark.sql.adaptive.skewJoin.enabled=false): set spark.sql.adaptive.skewJoin.enabled=true. Broadcast joins are "
      + "disabled (spark.sql.autoBroadcastJoinThreshold=-1), so every join shuffles both sides: re-enable them, or hint "
      + "broadcast() on a small side.";

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void theRcaEngineNamesTheRootCauseOrSaysWhyTheRunIsNotHealthy(String v) {
    SparkApplicationAssert bad = SparkAssertions.assertThat(app(v, "bad-record"));
    assertThatCode(() -> bad.hasRootCause(RootCauseKind.DETERMINISTIC_DATA_FAILURE)).doesNotThrowAnyException();
    String found = "DETERMINISTIC_DATA_FAILURE (CONFIRMED): Partition 2 of stage 0 fails on every attempt\n"
        + "  Partition 2 of stage 0 threw java.lang.NumberFormatException: For input string: \"12x\" on every one of its 4 "
        + "attempts on executor driver, so Spark aborted the stage and the job. The same exception at the same partition "
        + "on every attempt is a deterministic failure: a record this partition holds, or the code that processes it, not "
        + "the machine it ran on. The first frame of user code is Workload.java:38 in "
        + "io.sparkrca.testkit.scenarios.Workload$1.lambda$run$27b6a648$1.\n"
        + "Recommendations:\n"
        + "  IMMEDIATE_FIX: Find and fix the input that partition 2 holds, or the code that cannot handle it "
        + "(Workload.java:38 in io.sparkrca.testkit.scenarios.Workload$1.lambda$run$27b6a648$1): "
        + "java.lang.NumberFormatException: For input string: \"12x\".\n"
        + "  TUNING: Make bad records visible instead of fatal where the format allows it: read with mode=PERMISSIVE and "
        + "a columnNameOfCorruptRecord, or use try_cast/try_to_number for parsing, and count or route the rejects.";
    assertThatThrownBy(bad::isHealthy)
        .hasMessage("Expecting the RCA of application " + id(v, "bad-record") + " to find it HEALTHY but it found " + found);
    assertThatThrownBy(() -> bad.hasRootCause(RootCauseKind.DATA_SKEW))
        .hasMessage("Expecting the root cause of application " + id(v, "bad-record")
            + " to be DATA_SKEW (Data skew) but it was " + found);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void ranWithinNamesTheWallTimeAndTheLongestStage(String v) {
    String measured = v.equals("3.5.9") ? "10.4 s; its longest stage was stage 4 (attempt 0, \"collectAsList at "
        + "Workload.java:88\") with 4.3 s" : "14.3 s; its longest stage was stage 4 (attempt 0, \"collectAsList at "
        + "Workload.java:88\") with 4.5 s";
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "skew-join")).ranWithin(Duration.ofSeconds(2)))
        .hasMessage("Expecting application " + id(v, "skew-join") + " to run within 2.0 s but it ran for " + measured);
    assertThatCode(() -> SparkAssertions.assertThat(app(v, "skew-join")).ranWithin(Duration.ofSeconds(30)))
        .doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aDescriptionPrefixesTheMessageAsInAssertJ(String v) {
    assertThatThrownBy(() -> SparkAssertions.assertThat(app(v, "bad-record")).as("nightly ETL").hasNoFailedJobs())
        .hasMessageStartingWith("[nightly ETL] Expecting application " + id(v, "bad-record") + " to have no failed jobs");
  }
}
