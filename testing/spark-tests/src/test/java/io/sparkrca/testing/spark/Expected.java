package io.sparkrca.testing.spark;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskStatus;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The failure messages the tests expect, word for word. The text is literal; what a run decides
 * (stage and task ids, the host) is read from the run's own application, never from the
 * assertion under test.
 */
final class Expected {
  static final String STAGE_FAILED = "Remediation (STAGE_FAILED): Find the first failed task's exception (sparkrca "
      + "summarize, or the failed tasks of this stage) and fix that cause; failures of later stages and fetch failures "
      + "are usually fallout of an earlier executor loss.";

  private Expected() {}

  /** The only failed stage attempt of the run. */
  static StageData failedStage(SparkApplication app) {
    List<StageData> failed = app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED)));
    if (failed.size() != 1) {
      throw new AssertionError("expected one failed stage attempt, found " + failed.size());
    }
    return failed.get(0);
  }

  /** The failed attempts of the stage's tasks, first failure first. */
  static List<TaskData> failedTasks(SparkApplication app, StageData s) {
    return app.tasks(s.stageId(), s.attemptId(), TaskQuery.all().withStatuses(Set.of(TaskStatus.FAILED))).stream()
        .sorted(Comparator.comparingLong(TaskData::taskId)).toList();
  }

  /** Spark's reason for a stage whose partition 3 failed {@code attempts} times parsing "12x". */
  static String parseFailure(SparkApplication app, int attempts) {
    StageData s = failedStage(app);
    List<TaskData> tasks = failedTasks(app, s);
    TaskData last = tasks.get(tasks.size() - 1);
    return "Job aborted due to stage failure: Task 3 in stage " + s.stageId() + ".0 failed " + attempts + " times, most "
        + "recent failure: Lost task 3." + (attempts - 1) + " in stage " + s.stageId() + ".0 (TID " + last.taskId() + ") ("
        + last.host() + " executor driver): java.lang.NumberFormatException: For input string: \"12x\"";
  }

  /** {@code hasNoFailedJobs()} on a run whose parse of "12x" failed. */
  static String failedJobs(SparkApplication app, int attempts) {
    StageData s = failedStage(app);
    int job = app.jobs(Set.of(io.sparkrca.core.model.JobExecutionStatus.FAILED)).get(0).jobId();
    return "Expecting application " + app.info().id() + " to have no failed jobs but 1 job failed:\n"
        + "  job " + job + " (\"reduce at Jobs.java:33\"): stage " + s.stageId() + " failed: " + parseFailure(app, attempts) + "\n"
        + STAGE_FAILED;
  }

  /** {@code hasNoTaskFailures()} on a run whose parse of "12x" failed {@code attempts} times. */
  static String taskFailures(SparkApplication app, int attempts) {
    StageData s = failedStage(app);
    TaskData first = failedTasks(app, s).get(0);
    return "Expecting application " + app.info().id() + " to have no task failures but " + attempts + " task attempts failed:\n"
        + "  " + attempts + "x ExceptionFailure java.lang.NumberFormatException: For input string: \"12x\" in stage "
        + s.stageId() + " (first: task " + first.taskId() + ", partition 3, attempt 0, executor driver)\n"
        + STAGE_FAILED;
  }

  /** {@code hasNoFailedStages()} on a run whose parse of "12x" failed. */
  static String failedStages(SparkApplication app, int attempts) {
    StageData s = failedStage(app);
    return "Expecting application " + app.info().id() + " to have no failed stages but 1 stage attempt failed:\n"
        + "  stage " + s.stageId() + " (attempt 0, \"reduce at Jobs.java:33\"): " + parseFailure(app, attempts) + "\n"
        + STAGE_FAILED;
  }
}
