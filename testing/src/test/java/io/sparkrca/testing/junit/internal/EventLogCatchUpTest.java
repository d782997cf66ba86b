package io.sparkrca.testing.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.testing.junit.internal.SparkReflection.LiveJob;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A test's read of a shared session waits until the event log holds what Spark's live status
 * store knows of the test's jobs: a log that lags the store is read again, never answered from.
 */
class EventLogCatchUpTest {
  private static SparkApplication app;
  private static JobData failedJob;

  @BeforeAll
  static void replay() {
    Assumptions.assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    app = EventLogs.replay(TestkitFixtures.get("3.5.9", "bad-record").eventLog());
    failedJob = app.jobs(java.util.Set.of()).get(0);
  }

  /** What the live store would report for the log's own job: its status and its stages' task counts. */
  private static LiveJob asLive(JobData j, int extraFailed) {
    Map<Integer, SparkReflection.LiveStage> stages = new TreeMap<>();
    for (int stageId : j.stageIds()) {
      StageData latest = app.stageAttempts(stageId, StageQuery.all()).stream()
          .max(java.util.Comparator.comparingInt(StageData::attemptId)).orElseThrow();
      stages.put(stageId, new SparkReflection.LiveStage(latest.numFailedTasks() + extraFailed, latest.numCompleteTasks()));
    }
    return new LiveJob(j.jobId(), j.status().name(), stages);
  }

  @Test
  void aLogThatHoldsWhatSparkReportsIsUpToDate() {
    assertThat(failedJob.status().name()).isEqualTo("FAILED");

    assertThat(TestRun.lacking(app, List.of(asLive(failedJob, 0)))).isEmpty();
  }

  @Test
  void aLogAheadOfTheLiveStoreIsUpToDate() {
    // The live store updates running stages at intervals; a log that already has the job's end is not behind.
    LiveJob running = new LiveJob(failedJob.jobId(), "RUNNING", Map.of());

    assertThat(TestRun.lacking(app, List.of(running))).isEmpty();
  }

  @Test
  void aJobTheLogHasNotReachedIsLacking() {
    LiveJob later = new LiveJob(failedJob.jobId() + 1, "RUNNING", Map.of());

    assertThat(TestRun.lacking(app, List.of(asLive(failedJob, 0), later)))
        .hasValue("job " + later.jobId() + ", RUNNING in Spark, is not in the log");
  }

  @Test
  void aStageWithFewerFailedTasksInTheLogThanInSparkIsLacking() {
    LiveJob ahead = asLive(failedJob, 1);
    int stageId = ahead.stages().keySet().iterator().next();

    assertThat(TestRun.lacking(app, List.of(ahead))).hasValueSatisfying(why ->
        assertThat(why).startsWith("stage " + stageId + " has ").contains(" in Spark but ").endsWith(" in the log"));
  }

  @Test
  void aJobThatEndedOtherwiseInSparkThanInTheLogIsLacking() {
    LiveJob succeeded = new LiveJob(failedJob.jobId(), "SUCCEEDED", Map.of());

    assertThat(TestRun.lacking(app, List.of(succeeded)))
        .hasValue("job " + failedJob.jobId() + " is SUCCEEDED in Spark but FAILED in the log");
  }
}
