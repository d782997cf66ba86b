package io.sparkrca.core.logs.replay;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.logs.replay.internal.LogModel;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An application rebuilt from its logs ({@link LogReplay}): its jobs, stage attempts, tasks and
 * executors as the lines tell them, with the log and line each came from, the events and errors
 * the logs recorded, and how it ended. What the lines cannot give is absent or zero: task metrics
 * (so {@link #taskSummary} is empty), SQL executions, RDD storage; {@link #completeness()} says so.
 * Task lists sort "by runtime" on the task's duration.
 *
 * <pre>{@code
 * LogApplication app = LogReplay.builder().build().read(List.of("driver.log"));
 * app.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED))).forEach(s ->
 *     System.out.println(s.failureReason().orElse("") + " at "
 *         + app.stageProvenance(s.stageId(), s.attemptId()).flatMap(LogProvenance.Span::end).map(LogProvenance::display).orElse("?")));
 * }</pre>
 */
public final class LogApplication implements SparkApplication {
  private final LogModel model;

  LogApplication(LogModel model) {
    this.model = model;
  }

  @Override
  public ApplicationInfo info() {
    return model.info();
  }

  @Override
  public Optional<String> attemptId() {
    return model.attemptId();
  }

  @Override
  public String sparkVersion() {
    return model.sparkVersion();
  }

  /** The master the logs name ({@code spark://...}, {@code yarn}, or {@code spark.master} from {@code spark.logConf}), if any. */
  public Optional<String> master() {
    return model.master();
  }

  /** How the application ended, as the logs tell it. */
  public LogOutcome outcome() {
    return model.outcome();
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    return model.jobs(statuses);
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return model.job(jobId);
  }

  @Override
  public List<StageData> stages(StageQuery query) {
    return model.stages(query);
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery query) {
    return model.stageAttempts(stageId, query);
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) {
    return model.stageAttempt(stageId, attemptId, query);
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    return model.tasks(stageId, attemptId, query);
  }

  /** Empty: logs carry no task metrics (durations are on the tasks). */
  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    return Optional.empty();
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return model.executors(activeOnly);
  }

  /** The Spark properties {@code spark.logConf} logged (redacted), when it was on; else empty. */
  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return model.environment();
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    return List.of();
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    return Optional.empty();
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    return List.of();
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return Optional.empty();
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    return List.of();
  }

  /** The facts, each with the log and line it came from. */
  @Override
  public ApplicationFacts facts() {
    return model.facts();
  }

  /** Rebuilt from logs: what they could not show, what was cut or capped, and how each log was read. */
  @Override
  public Completeness completeness() {
    return model.completeness();
  }

  // ------------------------------------------------------------------ provenance and what the logs said

  /** Where a job starts ({@code Got job}) and ends ({@code Job N finished/failed}); empty for an unknown job. */
  public Optional<LogProvenance.Span> jobProvenance(int jobId) {
    return model.jobLines(jobId);
  }

  /** Where a stage attempt was submitted and where it finished or failed; empty for an unknown attempt. */
  public Optional<LogProvenance.Span> stageProvenance(int stageId, int attemptId) {
    return model.stageLines(stageId, attemptId);
  }

  /** Where a task attempt was launched and where it ended; empty for a task whose row was not kept. */
  public Optional<LogProvenance.Span> taskProvenance(long taskId) {
    return model.taskLines(taskId);
  }

  /** Where an executor registered and where it was removed; empty for an unknown executor. */
  public Optional<LogProvenance.Span> executorProvenance(String executorId) {
    return model.executorLines(executorId);
  }

  /** The logs and log sections read: layout, whose, what was found. */
  public List<LogSection> sections() {
    return model.sections();
  }

  /** Executor, spill, fetch, cancellation and other events, in log order (at most 10,000). */
  public List<LogEvent> events() {
    return model.events();
  }

  /** Errors recorded outside task failures, folded by text, in order of first occurrence (at most 500). */
  public List<LoggedException> exceptions() {
    return model.exceptions();
  }
}
