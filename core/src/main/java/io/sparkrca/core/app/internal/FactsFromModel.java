package io.sparkrca.core.app.internal;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.StageSpill;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@link ApplicationFacts} of an application read from its model, for sources that do not replay
 * an event log (a History Server, a Dataproc API). Reads the failed and killed tasks of the stages
 * that report some, at most {@value #MAX_FAILED_TASKS_READ} per stage attempt.
 */
public final class FactsFromModel {
  /** The most failed or killed tasks read from one stage attempt. */
  static final int MAX_FAILED_TASKS_READ = 2000;
  private static final int MAX_ITEMS = 1000;

  private FactsFromModel() {}

  public static ApplicationFacts derive(SparkApplication app) {
    String appId = app.info().id();
    List<JobData> jobs = app.jobs(Set.of());
    int jobsFailed = 0;
    for (JobData j : jobs) {
      if (j.status() == JobExecutionStatus.FAILED) {
        jobsFailed++;
      }
    }
    List<StageData> stages = new ArrayList<>(app.stages(StageQuery.all()));
    // Oldest first, as a replay meets them.
    stages.sort(Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId));
    int submitted = 0;
    long ended = 0;
    long failed = 0;
    long killed = 0;
    long gc = 0;
    List<FailedTask> failedTasks = new ArrayList<>();
    List<StageFailure> stageFailures = new ArrayList<>();
    List<StageSpill> spills = new ArrayList<>();
    for (StageData s : stages) {
      if (s.status() != StageStatus.PENDING && s.status() != StageStatus.SKIPPED) {
        submitted++;
      }
      ended += s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
      failed += s.numFailedTasks();
      killed += s.numKilledTasks();
      gc += s.jvmGcTime();
      String stagePath = "applications/" + appId + "/stages/" + s.stageId() + "/" + s.attemptId();
      if (s.numFailedTasks() + s.numKilledTasks() > 0) {
        String path = stagePath + "/taskList?status=failed";
        for (TaskData t :
            app.tasks(s.stageId(), s.attemptId(),
                TaskQuery.all().window(0, MAX_FAILED_TASKS_READ).withStatuses(Set.of(TaskStatus.FAILED, TaskStatus.KILLED)))) {
          failedTasks.add(new FailedTask(t, s.stageId(), s.attemptId(), path));
        }
      }
      if (s.failureReason().isPresent() && stageFailures.size() < MAX_ITEMS) {
        stageFailures.add(new StageFailure(s.stageId(), s.attemptId(), s.name(), s.failureReason().get(),
            s.numTasks(), s.completionTime().map(java.time.Instant::toEpochMilli).orElse(-1L), stagePath, 0));
      }
      if ((s.memoryBytesSpilled() > 0 || s.diskBytesSpilled() > 0) && spills.size() < MAX_ITEMS) {
        spills.add(new StageSpill(s.stageId(), s.attemptId(), s.name(), s.memoryBytesSpilled(),
            s.diskBytesSpilled(), stagePath, 0));
      }
    }
    // The History Server's executor "total duration" of the driver is its uptime, not task time: sum
    // what the stages say their tasks spent instead (run, deserialization, result serialization).
    long taskTime = 0;
    for (StageData s : stages) {
      taskTime += s.executorRunTime() + s.executorDeserializeTime() + s.resultSerializationTime();
    }
    TaskFailureFolder folder = new TaskFailureFolder(ApplicationFacts.MAX_FAILURE_GROUPS);
    failedTasks.sort(Comparator.<FailedTask>comparingLong(f -> finishTime(f.task()))
        .thenComparingLong(f -> f.task().taskId()));
    for (FailedTask f : failedTasks) {
      TaskData t = f.task();
      TaskErrors.Parsed p = TaskErrors.parse(t.status(), t.errorMessage().orElse(""));
      folder.add(p.reason(), p.exceptionClass(), p.description(), () -> t.errorMessage().orElse(""),
          f.path(), 0, finishTime(t), t.taskId(), f.stageId(), f.stageAttemptId(), t.index(),
          t.attempt(), t.executorId(), t.host());
    }
    List<ExecutorRemoval> removals = new ArrayList<>();
    for (ExecutorSummary e : app.executors(false)) {
      if (!e.isActive() && (e.removeReason().isPresent() || e.removeTime().isPresent())
          && removals.size() < MAX_ITEMS) {
        removals.add(new ExecutorRemoval(e.id(), e.removeReason().orElse(""),
            e.removeTime().map(java.time.Instant::toEpochMilli).orElse(-1L),
            "applications/" + appId + "/allexecutors", 0));
      }
    }
    removals.sort(Comparator.comparingLong(ExecutorRemoval::time));
    List<SqlFailure> sqlFailures = new ArrayList<>();
    for (ExecutionData x : app.sqlExecutions()) {
      if ("FAILED".equals(x.status()) && sqlFailures.size() < MAX_ITEMS) {
        // The History Server's answer has no error text; a replay of the event log does.
        sqlFailures.add(new SqlFailure(x.id(), x.description(), "",
            x.submissionTime().toEpochMilli() + x.duration(), "applications/" + appId + "/sql/" + x.id(), 0));
      }
    }
    // In the order they ended, as a replay records them (an execution may end before an older one).
    sqlFailures.sort(Comparator.comparingLong(SqlFailure::time).thenComparingLong(SqlFailure::executionId));
    return new ApplicationFacts(app.sparkVersion(), jobs.size(), jobsFailed, submitted, ended,
        failed, killed, gc, taskTime, folder.groups(), folder.dropped(), stageFailures, spills,
        removals, sqlFailures, java.util.Optional.empty());
  }

  private static long finishTime(TaskData t) {
    return t.launchTime().toEpochMilli() + t.duration().orElse(0L);
  }

  private record FailedTask(TaskData task, int stageId, int stageAttemptId, String path) {}
}
