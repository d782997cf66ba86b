package io.sparkrca.benchmarks.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.testing.SharedData;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small amplification of Spark's SHS test log stays a consistent, complete application. */
class AmplifierTest {
  private static final String APP = "app-20200706201101-0003";

  @Test
  void amplifiedLogIsAConsistentCompleteApplication(@TempDir Path dir) throws Exception {
    Optional<Path> shs = SharedData.shsConformance();
    assumeTrue(shs.isPresent(), "no ../shared/conformance here");
    Path seed = shs.get().resolve("spark-events").resolve(APP);

    new Amplifier(new Amplifier.Settings(seed, dir, 3000, 1, 8, 4, 8, 7, 0.02)).run();

    ReplayedApplication plain = EventLogs.replay(dir.resolve("plain").resolve(APP));
    ReplayedApplication zstd = EventLogs.replay(dir.resolve("zstd").resolve(APP + ".zstd"));
    for (ReplayedApplication app : List.of(plain, zstd)) {
      assertThat(app.report().badLineCount()).isZero();
      assertThat(app.report().completed()).isTrue();
      assertThat(app.report().truncated()).isFalse();
      List<JobData> jobs = app.jobs(Set.of());
      assertThat(jobs.size() % 3).isZero(); // the seed has 3 jobs
      assertThat(jobs).allSatisfy(j -> {
        assertThat(j.status()).isEqualTo(JobExecutionStatus.SUCCEEDED);
        assertThat(j.numCompletedIndices()).isEqualTo(j.numTasks()); // failed attempts were retried
        assertThat(j.numActiveTasks()).isZero();
      });
      long tasks = jobs.stream().mapToLong(j -> j.numCompletedTasks() + j.numFailedTasks()).sum();
      assertThat(tasks).isGreaterThanOrEqualTo(3000);
      assertThat(jobs.stream().mapToLong(JobData::numFailedTasks).sum()).isPositive();
      assertThat(app.executors(false)).hasSize(8 + 2); // synthetic ones, the seed's and the driver
      assertThat(app.sqlExecutions()).hasSize(jobs.size() / 3);

      Set<Long> taskIds = new HashSet<>();
      for (StageData stage : app.stages(StageQuery.all())) {
        assertThat(stage.numTasks()).isBetween(16 * 4, 16 * 8);
        List<TaskData> rows = app.tasks(stage.stageId(), stage.attemptId(), TaskQuery.all());
        assertThat(rows).hasSize(stage.numCompleteTasks() + stage.numFailedTasks());
        for (TaskData t : rows) {
          assertThat(taskIds.add(t.taskId())).as("task id %d unique", t.taskId()).isTrue();
          assertThat(t.index()).isBetween(0, stage.numTasks() - 1);
          assertThat(t.launchTime()).isAfterOrEqualTo(stage.submissionTime().orElseThrow());
          assertThat(t.launchTime().plusMillis(t.duration().orElseThrow()))
              .isBeforeOrEqualTo(stage.completionTime().orElseThrow());
        }
        // Metrics vary from task to task.
        assertThat(rows.stream().map(t -> t.taskMetrics().orElseThrow().executorRunTime()).distinct().count())
            .isGreaterThan(rows.size() / 4);
        assertThat(rows.stream().map(t -> t.taskMetrics().orElseThrow().inputMetrics().bytesRead()).distinct().count())
            .isGreaterThan(rows.size() / 2);
      }
    }
    assertThat(zstd.jobs(Set.of())).isEqualTo(plain.jobs(Set.of()));
  }
}
