package io.sparkrca.testing.junit.internal;

import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.StageSpill;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.testing.internal.Describe;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The part of a running application that one test produced: its jobs, their stages and tasks, the
 * SQL executions that ran them, and the executors removed while they ran. A test class shares one
 * SparkSession (one application), so each test is judged on its own slice: a failed stage of one
 * test never fails the next one. The slice starts with the test's first job and ends with the last
 * one's completion; it counts as a completed application when all its jobs have ended, since the
 * log holds everything about them once the listener bus has drained.
 */
public final class ApplicationSlice implements SparkApplication {
  private final SparkApplication whole;
  private final String label;
  private final List<JobData> jobs;
  private final Set<Integer> jobIds = new HashSet<>();
  private final Set<Integer> stageIds = new HashSet<>();
  private final List<ExecutionData> executions;
  private final long start;
  private final long end;
  private final boolean ended;
  private final ApplicationInfo info;
  private volatile ApplicationFacts facts;

  /**
   * @param whole the application the session wrote so far
   * @param jobIds the jobs of the slice
   * @param windowStart when the test began (epoch ms): the slice's start when it ran no job
   * @param windowEnd when the test ended (epoch ms)
   * @param label what the slice is, for the completeness notes, e.g. {@code test "counts()"}
   */
  public ApplicationSlice(SparkApplication whole, Set<Integer> jobIds, long windowStart, long windowEnd, String label) {
    this.whole = Objects.requireNonNull(whole, "whole");
    this.label = Objects.requireNonNull(label, "label");
    this.jobs = whole.jobs(Set.of()).stream().filter(j -> jobIds.contains(j.jobId())).toList();
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    boolean allEnded = true;
    for (JobData j : jobs) {
      this.jobIds.add(j.jobId());
      this.stageIds.addAll(j.stageIds());
      first = Math.min(first, j.submissionTime().map(Instant::toEpochMilli).orElse(windowStart));
      if (j.completionTime().isPresent() && j.status() != JobExecutionStatus.RUNNING) {
        last = Math.max(last, j.completionTime().get().toEpochMilli());
      } else {
        allEnded = false;
      }
    }
    this.start = jobs.isEmpty() ? windowStart : first;
    this.end = jobs.isEmpty() || last == Long.MIN_VALUE ? Math.max(start, windowEnd) : last;
    this.ended = allEnded;
    this.executions = whole.sqlExecutions().stream().filter(x -> touches(x.successJobIds()) || touches(x.failedJobIds())
        || touches(x.runningJobIds())).toList();
    ApplicationInfo w = whole.info();
    ApplicationAttemptInfo a = w.latestAttempt();
    ApplicationAttemptInfo sliced = new ApplicationAttemptInfo(a.attemptId(), Instant.ofEpochMilli(start),
        Instant.ofEpochMilli(end), a.lastUpdated(), end - start, a.sparkUser(), ended, a.appSparkVersion());
    List<ApplicationAttemptInfo> attempts = new ArrayList<>(w.attempts());
    attempts.set(0, sliced);
    this.info = new ApplicationInfo(w.id(), w.name(), w.coresGranted(), w.maxCores(), w.coresPerExecutor(),
        w.memoryPerExecutorMB(), attempts);
  }

  private boolean touches(List<Integer> ids) {
    for (int id : ids) {
      if (jobIds.contains(id)) {
        return true;
      }
    }
    return false;
  }

  /** The application the slice was cut from. */
  public SparkApplication whole() {
    return whole;
  }

  @Override
  public ApplicationInfo info() {
    return info;
  }

  @Override
  public Optional<String> attemptId() {
    return whole.attemptId();
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    return jobs.stream().filter(j -> statuses.isEmpty() || statuses.contains(j.status())).toList();
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return jobIds.contains(jobId) ? whole.job(jobId) : Optional.empty();
  }

  @Override
  public List<StageData> stages(StageQuery query) {
    return whole.stages(query).stream().filter(s -> stageIds.contains(s.stageId())).toList();
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery query) {
    return stageIds.contains(stageId) ? whole.stageAttempts(stageId, query) : List.of();
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) {
    return stageIds.contains(stageId) ? whole.stageAttempt(stageId, attemptId, query) : Optional.empty();
  }

  @Override
  public void prefetchTasks(List<StageData> attempts) {
    whole.prefetchTasks(attempts.stream().filter(s -> stageIds.contains(s.stageId())).toList());
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    return stageIds.contains(stageId) ? whole.tasks(stageId, attemptId, query) : List.of();
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    return stageIds.contains(stageId) ? whole.taskSummary(stageId, attemptId, quantiles) : Optional.empty();
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return whole.executors(activeOnly);
  }

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return whole.environment();
  }

  @Override
  public Optional<List<Map.Entry<String, String>>> sparkProperties() {
    return whole.sparkProperties();
  }

  @Override
  public Optional<String> systemProperty(String key) {
    return whole.systemProperty(key);
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    return whole.rdds();
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    return whole.rdd(rddId);
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    return executions;
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return executions.stream().filter(x -> x.id() == executionId).findFirst();
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    return whole.miscellaneousProcesses(activeOnly);
  }

  @Override
  public String sparkVersion() {
    return whole.sparkVersion();
  }

  /** The whole application's facts, kept to the slice's stages, executions and time (with their log lines). */
  @Override
  public ApplicationFacts facts() {
    ApplicationFacts f = facts;
    if (f == null) {
      f = slice(whole.facts());
      facts = f;
    }
    return f;
  }

  private ApplicationFacts slice(ApplicationFacts all) {
    List<StageData> stages = stages(StageQuery.all());
    int submitted = 0;
    long ended = 0;
    long failed = 0;
    long killed = 0;
    long gc = 0;
    long taskTime = 0;
    for (StageData s : stages) {
      if (s.status() != StageStatus.PENDING && s.status() != StageStatus.SKIPPED) {
        submitted++;
      }
      ended += s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
      failed += s.numFailedTasks();
      killed += s.numKilledTasks();
      gc += s.jvmGcTime();
      taskTime += s.executorRunTime() + s.executorDeserializeTime() + s.resultSerializationTime();
    }
    List<TaskFailureGroup> groups = all.taskFailures().stream()
        .filter(g -> g.stageIds().stream().anyMatch(stageIds::contains)).toList();
    List<StageFailure> stageFailures = all.stageFailures().stream().filter(s -> stageIds.contains(s.stageId())).toList();
    List<StageSpill> spills = all.stageSpills().stream().filter(s -> stageIds.contains(s.stageId())).toList();
    List<ExecutorRemoval> removals = all.executorRemovals().stream().filter(r -> r.time() >= start && r.time() <= end).toList();
    Set<Long> executionIds = new HashSet<>();
    executions.forEach(x -> executionIds.add(x.id()));
    List<SqlFailure> sqlFailures = all.sqlFailures().stream().filter(s -> executionIds.contains(s.executionId())).toList();
    int jobsFailed = (int) jobs.stream().filter(j -> j.status() == JobExecutionStatus.FAILED).count();
    return new ApplicationFacts(all.sparkVersion(), jobs.size(), jobsFailed, submitted, ended, failed, killed, gc, taskTime,
        groups, 0, stageFailures, spills, removals, sqlFailures, Optional.empty());
  }

  /** Complete when the slice's jobs have all ended (the log goes on, but holds all of them). */
  @Override
  public Completeness completeness() {
    Completeness c = whole.completeness();
    List<String> notes = new ArrayList<>(c.notes());
    notes.add("the part of application " + whole.info().id() + " that " + label + " ran: "
        + Describe.count(jobs.size(), "job", "jobs") + (jobs.isEmpty() ? "" : " " + jobIds.stream().sorted().toList()));
    return new Completeness(!ended, c.unreadableRecords(), c.droppedTaskRows(), notes);
  }
}
