package io.sparkrca.testing;

import static io.sparkrca.testing.Fixtures.app;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.testing.junit.internal.ApplicationSlice;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A test's slice of a shared application: only its jobs, their stages and the facts about them, a
 * completed application of its own when its jobs have ended.
 */
class SliceTest {
  @Test
  void aSliceWithoutTheSkewedJobHasNoSkewedStageAndOneWithItHas() {
    SparkApplication whole = app("3.5.9", "skew-join");
    int skewedJob = whole.jobs(Set.of()).stream().filter(j -> j.stageIds().contains(4)).findFirst().orElseThrow().jobId();
    Set<Integer> others = new java.util.HashSet<>();
    whole.jobs(Set.of()).stream().map(JobData::jobId).filter(id -> id != skewedJob).forEach(others::add);
    ApplicationSlice without = new ApplicationSlice(whole, others, 0, 0, "test \"others\"");
    ApplicationSlice with = new ApplicationSlice(whole, Set.of(skewedJob), 0, 0, "test \"skewed\"");

    assertThat(without.stages(StageQuery.all())).extracting(StageData::stageId).doesNotContain(4);
    assertThatCode(() -> SparkAssertions.assertThat(without).stages().hasSkewBelow(5.0)).doesNotThrowAnyException();
    assertThatThrownBy(() -> SparkAssertions.assertThat(with).stages().hasSkewBelow(5.0))
        .hasMessageContaining("stage 4 (attempt 0, \"collectAsList at Workload.java:88\"): it was 27.86");
    assertThat(with.taskSummary(1, 0, java.util.List.of(0.5))).isEmpty(); // stage 1 belongs to another job
  }

  @Test
  void aSliceOfEndedJobsIsACompletedApplicationSpanningThem() {
    SparkApplication whole = app("3.5.9", "bad-record");
    ApplicationSlice slice = new ApplicationSlice(whole, Set.of(0), 0, 0, "test \"parses\"");
    JobData job = whole.job(0).orElseThrow();
    assertThat(slice.info().latestAttempt().completed()).isTrue();
    assertThat(slice.info().latestAttempt().startTime()).isEqualTo(job.submissionTime().orElseThrow());
    assertThat(slice.info().latestAttempt().endTime()).isEqualTo(job.completionTime().orElseThrow());
    assertThat(slice.completeness().isComplete()).isTrue();
    assertThat(slice.completeness().notes()).contains("the part of application " + whole.info().id()
        + " that test \"parses\" ran: 1 job [0]");
    // The facts keep their event-log lines: the same failure groups as the whole log's.
    assertThat(slice.facts().taskFailures()).isEqualTo(whole.facts().taskFailures());
    assertThat(slice.facts().stageFailures()).isEqualTo(whole.facts().stageFailures());
    assertThat(slice.facts().tasksFailed()).isEqualTo(4);
  }

  @Test
  void aSliceWithNoJobHasNothingToJudgeAndIsNotCalledHealthy() {
    SparkApplication whole = app("3.5.9", "healthy");
    ApplicationSlice empty = new ApplicationSlice(whole, Set.of(), 1000, 2000, "test \"nothing\"");
    assertThat(empty.jobs(Set.of())).isEmpty();
    assertThat(empty.stages(StageQuery.all())).isEmpty();
    assertThat(empty.facts().taskFailures()).isEmpty();
    assertThatThrownBy(() -> SparkAssertions.assertThat(empty).isHealthy())
        .hasMessageContaining("to find it HEALTHY but it found UNDETERMINED (INSUFFICIENT_EVIDENCE)")
        .hasMessageContaining("The application ran no Spark job");
  }
}
