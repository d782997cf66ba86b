package io.sparkrca.core.summary;

import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.eventlog.replay.ReplayReport;
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
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.Markdown;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The executive summary of one application attempt: who, what, how long, whether it failed and
 * why, what failed (folded by cause, with the first occurrence and its line), failed SQL
 * executions with their error, lost executors, spill, GC, and how reading the log went. Render it
 * with {@link SummaryMarkdown} or as JSON.
 *
 * <pre>{@code
 * ApplicationSummary s = ApplicationSummary.of(EventLogs.replay(path), path.toString());
 * System.out.println(SummaryMarkdown.render(s));
 * if (s.outcome() == ApplicationSummary.Outcome.FAILED) {
 *   System.exit(1);
 * }
 * }</pre>
 *
 * @param status the outcome in words, with what the log shows: {@code "FAILED (1 of 1 jobs
 *     failed)"}, {@code "FINISHED, NO JOB RAN (...)"}, {@code "COMPLETED"}
 * @param outcome the outcome, for callers that act on it
 * @param exitCode the exit code the driver reported in the application end event (Spark 4.0+)
 * @param totalGcTimeMs JVM GC time summed over every task end, failed ones included
 * @param totalTaskTimeMs task durations (launch to finish) as {@link ApplicationFacts#totalTaskTimeMs()}
 * @param executorRunTimeMs the tasks' executor run time summed over every stage attempt: the
 *     denominator of the GC share, the same sum as the stage rules' {@code executor_run_time_millis}
 * @param profile what the HTML summary's charts draw (the timeline, the longest stage's tasks, the
 *     executors' GC and spill); not part of the JSON
 * @param sqlFailures failed SQL executions with their error, redacted and at most
 *     {@value #MAX_ERROR_CHARS} characters each, oldest first (at most {@value #MAX_ITEMS})
 */
public record ApplicationSummary(
    String source,
    String applicationId,
    String applicationName,
    String user,
    String sparkVersion,
    String status,
    Outcome outcome,
    Optional<Integer> exitCode,
    Optional<Instant> startTime,
    Optional<Instant> endTime,
    Optional<Long> durationMs,
    Jobs jobs,
    Stages stages,
    Tasks tasks,
    long totalGcTimeMs,
    long totalTaskTimeMs,
    long executorRunTimeMs,
    List<StageFailure> failedStages,
    List<TaskFailureGroup> taskFailures,
    long taskFailureGroupsOmitted,
    List<LostExecutor> lostExecutors,
    List<Spill> spills,
    Sql sql,
    List<SqlFailure> sqlFailures,
    Completeness completeness,
    Optional<ReplayReport> reading,
    @com.fasterxml.jackson.annotation.JsonIgnore Optional<io.sparkrca.core.report.html.RunProfile> profile)
    implements io.sparkrca.core.report.Report {

  /** How many failure groups, stages, executors, spills and SQL failures a summary lists at most. */
  public static final int MAX_ITEMS = 50;

  /** How much of a failed SQL execution's error a summary keeps. */
  public static final int MAX_ERROR_CHARS = 2000;

  /** How much of the first failed SQL execution's error the status quotes. */
  private static final int STATUS_ERROR_CHARS = 200;

  public ApplicationSummary {
    failedStages = List.copyOf(failedStages);
    taskFailures = List.copyOf(taskFailures);
    lostExecutors = List.copyOf(lostExecutors);
    spills = List.copyOf(spills);
    sqlFailures = List.copyOf(sqlFailures);
    java.util.Objects.requireNonNull(profile, "profile");
  }

  /**
   * What the log says of how the application ended. Only {@link #FAILED} is a failure: the others
   * are what can be told without evidence of one.
   */
  public enum Outcome {
    /** It ended, at least one job ran, and no job or SQL execution failed. */
    COMPLETED,
    /** A job or a SQL execution failed, or the driver exited with a non-zero code. */
    FAILED,
    /**
     * It ended without running a job or completing a SQL execution: usually a driver that failed
     * before its first action, whose cause only the driver log has.
     */
    NO_JOB_RAN,
    /** The log is cut off or still being written, and shows no failure so far. */
    RUNNING,
    /** The log has no application end event, and shows no failure. */
    INCOMPLETE
  }

  /** Job counts by outcome. */
  public record Jobs(int total, int succeeded, int failed, int running) {}

  /** Stage attempt counts by status; {@code stageIds} counts distinct stages. */
  public record Stages(int attempts, int stageIds, int complete, int failed, int skipped, int active, int pending) {}

  /**
   * Task attempts that ended, by outcome (spark_gcs_log_reader.py counted failed tasks as
   * "completed"; these are separate).
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

  /** The summary as Markdown ({@link SummaryMarkdown}). */
  @Override
  public String toMarkdown() {
    return SummaryMarkdown.render(this);
  }

  /** The summary as one self-contained HTML page with charts ({@link SummaryHtml}). */
  @Override
  public String toHtml() {
    return SummaryHtml.render(this);
  }

  /** The summary as JSON, as {@code sparkrca summarize --format json} writes it. */
  @Override
  public String toJson() {
    // The name, job descriptions and SQL errors are the application's own text: secrets known by their value leave redacted.
    return Redactor.standard().redactJson(io.sparkrca.core.json.SparkJson.write(this));
  }

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
    long runTime = 0;
    for (StageData s : stages) {
      byStatus[s.status().ordinal()]++;
      ids.add(s.stageId());
      runTime += s.executorRunTime();
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

    List<SqlFailure> sqlFailures = new ArrayList<>();
    for (SqlFailure q : cap(f.sqlFailures())) {
      String error = Redactor.standard().redactText(q.errorMessage());
      sqlFailures.add(
          new SqlFailure(
              q.executionId(), q.description(),
              error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) : error,
              q.time(), q.source(), q.line()));
    }
    Jobs jobCounts = new Jobs(totalJobs, succeeded, failedJobs, running);
    Verdict verdict = verdict(app, f, jobCounts, stageCounts, sqlCompleted, sqlFailures);

    return new ApplicationSummary(
        source,
        app.info().id(),
        app.info().name(),
        attempt.sparkUser(),
        app.sparkVersion(),
        verdict.status(),
        verdict.outcome(),
        f.exitCode(),
        started ? Optional.of(attempt.startTime()) : Optional.empty(),
        completed ? Optional.of(attempt.endTime()) : Optional.empty(),
        started && completed ? Optional.of(attempt.duration()) : Optional.empty(),
        jobCounts,
        stageCounts,
        tasks,
        f.totalGcTimeMs(),
        f.totalTaskTimeMs(),
        runTime,
        cap(f.stageFailures()),
        cap(f.taskFailures()),
        f.taskFailureGroupsDropped() + Math.max(0, f.taskFailures().size() - MAX_ITEMS),
        cap(lost),
        cap(spills),
        new Sql(sql.size(), sqlCompleted, Math.max(sqlFailed, f.sqlFailures().size()), sqlRunning),
        sqlFailures,
        app.completeness(),
        reading,
        Optional.of(io.sparkrca.core.report.html.RunProfile.of(app, io.sparkrca.core.report.html.RunProfile.longestStage(app))));
  }

  /** The share of executor run time spent in JVM GC, 0.0 when no task ran. */
  public double gcShare() {
    return executorRunTimeMs == 0 ? 0.0 : (double) totalGcTimeMs / executorRunTimeMs;
  }

  private record Verdict(Outcome outcome, String status) {}

  /**
   * The outcome and its words. A failed job, a failed SQL execution or a non-zero exit code is a
   * failure whether or not the log is complete; an exit code of 0 proves nothing, since a driver
   * that stops its SparkContext before failing still reports 0.
   */
  private static Verdict verdict(
      SparkApplication app, ApplicationFacts f, Jobs jobs, Stages stages, int sqlCompleted,
      List<SqlFailure> sqlFailures) {
    boolean completed = app.info().latestAttempt().completed();
    List<String> why = new ArrayList<>();
    if (jobs.failed() > 0) {
      why.add(jobs.failed() + " of " + jobs.total() + " jobs failed");
    }
    if (f.exitCode().isPresent() && f.exitCode().get() != 0) {
      why.add("the driver exited with code " + f.exitCode().get());
    }
    // A failed query usually fails its job too; its error is worth the status only when no job says so.
    if (!sqlFailures.isEmpty() && jobs.failed() == 0) {
      SqlFailure first = sqlFailures.get(0);
      String text = Markdown.oneLine(firstLine(first.errorMessage()), STATUS_ERROR_CHARS);
      // A source without the error text (a History Server's REST answer) says no more than that.
      String error = text.isEmpty() ? "(no error text in this source)" : text;
      String when = jobs.total() == 0 ? " before any job ran" : "";
      why.add(
          sqlFailures.size() == 1
              ? "SQL execution " + first.executionId() + " failed" + when + ": " + error
              : sqlFailures.size() + " SQL executions failed" + when + ", the first (execution "
                  + first.executionId() + "): " + error);
    }
    String unfinished =
        app.completeness().cutOff() ? "the log is cut off or still being written" : "the log has no application end event";
    if (!why.isEmpty()) {
      return new Verdict(
          Outcome.FAILED, "FAILED (" + String.join("; ", why) + (completed ? "" : "; " + unfinished) + ")");
    }
    if (!completed) {
      return app.completeness().cutOff()
          ? new Verdict(Outcome.RUNNING, "RUNNING (" + unfinished + ")")
          : new Verdict(Outcome.INCOMPLETE, "INCOMPLETE (no application end event)");
    }
    if (jobs.total() == 0) {
      if (sqlCompleted > 0) {
        return new Verdict(
            Outcome.COMPLETED,
            "COMPLETED (no Spark job ran; " + sqlCompleted + (sqlCompleted == 1 ? " SQL execution" : " SQL executions")
                + " completed)");
      }
      return new Verdict(
          Outcome.NO_JOB_RAN,
          "FINISHED, NO JOB RAN (the driver probably failed before its first action: read the driver log)");
    }
    if (stages.failed() > 0) {
      return new Verdict(
          Outcome.COMPLETED,
          "COMPLETED (" + (jobs.total() == 1 ? "its only job" : "all " + jobs.total() + " jobs") + " succeeded; "
              + stages.failed()
              + (stages.failed() == 1 ? " failed stage attempt was" : " failed stage attempts were") + " retried)");
    }
    return new Verdict(Outcome.COMPLETED, "COMPLETED");
  }

  private static String firstLine(String text) {
    String t = text.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl).stripTrailing();
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
