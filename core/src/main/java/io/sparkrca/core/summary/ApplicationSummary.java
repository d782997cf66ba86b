package io.sparkrca.core.summary;

import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.eventlog.ReplayReport;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.StageSpill;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The executive summary of one application attempt: who, what, how long, what failed (folded by
 * cause, with the first occurrence and its line), lost executors, spill, and how reading the log
 * went. Render it with {@link SummaryMarkdown} or as JSON.
 *
 * <pre>{@code
 * ApplicationSummary s = ApplicationSummary.of(EventLogs.replay(path), path.toString());
 * System.out.println(SummaryMarkdown.render(s));
 * }</pre>
 */
public record ApplicationSummary(
    String source,
    String applicationId,
    String applicationName,
    String user,
    String sparkVersion,
    String status,
    Optional<Instant> startTime,
    Optional<Instant> endTime,
    Optional<Long> durationMs,
    Jobs jobs,
    Stages stages,
    Tasks tasks,
    long totalGcTimeMs,
    long totalTaskTimeMs,
    List<StageFailure> failedStages,
    List<TaskFailureGroup> taskFailures,
    long taskFailureGroupsOmitted,
    List<LostExecutor> lostExecutors,
    List<Spill> spills,
    Sql sql,
    Completeness completeness,
    Optional<ReplayReport> reading) {

  /** How many failure groups, stages, executors and spills a summary lists at most. */
  public static final int MAX_ITEMS = 50;

  public ApplicationSummary {
    failedStages = List.copyOf(failedStages);
    taskFailures = List.copyOf(taskFailures);
    lostExecutors = List.copyOf(lostExecutors);
    spills = List.copyOf(spills);
  }

  /** Job counts by outcome. */
  public record Jobs(int total, int succeeded, int failed, int running) {}

  /** Stage attempt counts by status; {@code stageIds} counts distinct stages. */
  public record Stages(int attempts, int stageIds, int complete, int failed, int skipped, int active, int pending) {}

  /**
   * Task attempts that ended, by outcome (the seed tool counted failed tasks as "completed"; these
   * are separate).
   */
  public record Tasks(long ended, long succeeded, long failed, long killed) {}

  /**
   * An executor that was removed, why, and how many fetch failures followed its removal (the usual
   * fallout of losing shuffle output).
   */
  public record LostExecutor(
      String executorId, String reason, long time, String source, long line, long fetchFailuresAfter) {}

  /** Spill of one stage attempt; the line is where its completion is in the log, when known. */
  public record Spill(
      int stageId, int attemptId, String name, long memoryBytes, long diskBytes, Optional<Long> line) {}

  /** SQL executions (queries) by outcome. */
  public record Sql(int total, int completed, int failed, int running) {}

  /**
   * Summarises an application from any source; {@code source} is how the user named it. A replayed
   * event log adds how its reading went.
   */
  public static ApplicationSummary of(SparkApplication app, String source) {
    ApplicationFacts f = app.facts();
    ApplicationAttemptInfo attempt = app.info().latestAttempt();
    Optional<ReplayReport> reading =
        app instanceof ReplayedApplication r ? Optional.of(r.report()) : Optional.empty();
    boolean started = attempt.startTimeEpoch() > 0;
    boolean completed = attempt.completed();
    String status = completed ? "COMPLETED" : (app.completeness().cutOff() ? "RUNNING (log cut off or still being written)" : "INCOMPLETE (no application end event)");

    List<JobData> jobs = app.jobs(Set.of());
    int succeeded = 0;
    int failed = 0;
    int running = 0;
    for (JobData j : jobs) {
      if (j.status() == JobExecutionStatus.SUCCEEDED) {
        succeeded++;
      } else if (j.status() == JobExecutionStatus.FAILED) {
        failed++;
      } else {
        running++;
      }
    }
    // Jobs the model never saw start (a log without job start events) still count as the log says.
    int totalJobs = Math.max(jobs.size(), f.jobsStarted());
    int failedJobs = Math.max(failed, f.jobsFailed());

    List<StageData> stages = app.stages(StageQuery.all());
    int[] byStatus = new int[StageStatus.values().length];
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (StageData s : stages) {
      byStatus[s.status().ordinal()]++;
      ids.add(s.stageId());
    }
    Stages stageCounts =
        new Stages(
            stages.size(), ids.size(), byStatus[StageStatus.COMPLETE.ordinal()],
            Math.max(byStatus[StageStatus.FAILED.ordinal()], f.stageFailures().size()),
            byStatus[StageStatus.SKIPPED.ordinal()], byStatus[StageStatus.ACTIVE.ordinal()],
            byStatus[StageStatus.PENDING.ordinal()]);

    Tasks tasks =
        new Tasks(
            f.tasksEnded(), f.tasksEnded() - f.tasksFailed() - f.tasksKilled(), f.tasksFailed(),
            f.tasksKilled());

    List<LostExecutor> lost = new ArrayList<>();
    for (ExecutorRemoval r : f.executorRemovals()) {
      long fetchAfter = 0;
      for (TaskFailureGroup g : f.taskFailures()) {
        if (g.reason().equals("FetchFailed") && g.firstTime() >= r.time()) {
          fetchAfter += g.count();
        }
      }
      lost.add(new LostExecutor(r.executorId(), r.reason(), r.time(), r.source(), r.line(), fetchAfter));
    }

    List<Spill> spills = spills(stages, f.stageSpills());

    int sqlCompleted = 0;
    int sqlFailed = 0;
    int sqlRunning = 0;
    List<ExecutionData> sql = app.sqlExecutions();
    for (ExecutionData e : sql) {
      switch (e.status()) {
        case "COMPLETED":
          sqlCompleted++;
          break;
        case "FAILED":
          sqlFailed++;
          break;
        default:
          sqlRunning++;
      }
    }

    return new ApplicationSummary(
        source,
        app.info().id(),
        app.info().name(),
        attempt.sparkUser(),
        app.sparkVersion(),
        status,
        started ? Optional.of(attempt.startTime()) : Optional.empty(),
        completed ? Optional.of(attempt.endTime()) : Optional.empty(),
        started && completed ? Optional.of(attempt.duration()) : Optional.empty(),
        new Jobs(totalJobs, succeeded, failedJobs, running),
        stageCounts,
        tasks,
        f.totalGcTimeMs(),
        f.totalTaskTimeMs(),
        cap(f.stageFailures()),
        cap(f.taskFailures()),
        f.taskFailureGroupsDropped() + Math.max(0, f.taskFailures().size() - MAX_ITEMS),
        cap(lost),
        cap(spills),
        new Sql(sql.size(), sqlCompleted, sqlFailed, sqlRunning),
        app.completeness(),
        reading);
  }

  private static List<Spill> spills(List<StageData> stages, List<StageSpill> fromLog) {
    Map<Long, StageSpill> lines = new HashMap<>();
    for (StageSpill s : fromLog) {
      lines.put(((long) s.stageId() << 32) | s.attemptId(), s);
    }
    List<Spill> out = new ArrayList<>();
    java.util.Set<Long> covered = new java.util.HashSet<>();
    List<StageData> ascending = new ArrayList<>(stages);
    java.util.Collections.reverse(ascending);
    for (StageData s : ascending) {
      long key = ((long) s.stageId() << 32) | s.attemptId();
      if (s.memoryBytesSpilled() > 0 || s.diskBytesSpilled() > 0) {
        StageSpill logged = lines.get(key);
        out.add(
            new Spill(
                s.stageId(), s.attemptId(), s.name(), s.memoryBytesSpilled(), s.diskBytesSpilled(),
                logged == null ? Optional.empty() : Optional.of(logged.line())));
        covered.add(key);
      }
    }
    for (StageSpill s : fromLog) {
      long key = ((long) s.stageId() << 32) | s.attemptId();
      if (!covered.contains(key)) {
        out.add(new Spill(s.stageId(), s.attemptId(), s.name(), s.memoryBytes(), s.diskBytes(), Optional.of(s.line())));
      }
    }
    return out;
  }

  private static <T> List<T> cap(List<T> list) {
    return list.size() > MAX_ITEMS ? list.subList(0, MAX_ITEMS) : list;
  }
}
