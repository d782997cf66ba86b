package io.sparkrca.testing;

import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.rules.DiagnosticStatus;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.Violation;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.analysis.rca.SortMergeJoin;
import io.sparkrca.testing.internal.BaselineComparison;
import io.sparkrca.testing.internal.Describe;
import io.sparkrca.testing.internal.RuleAdvice;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a whole Spark application (a replayed event log, a History Server application, or
 * the part of a session one test ran). Each failure says what was expected, what was measured,
 * where (stage, task, executor), and what sparkrca's recommended rules advise for it.
 *
 * <pre>{@code
 * assertThat(EventLogs.replay(Path.of("/tmp/spark-events/local-1")))
 *     .hasNoFailedJobs()
 *     .hasNoTaskFailures()
 *     .isHealthy();
 * assertThat(app).stages().hasSkewBelow(5.0);
 * }</pre>
 */
public class SparkApplicationAssert extends AbstractAssert<SparkApplicationAssert, SparkApplication> {
  private RcaEngine engine = RcaEngine.standard();
  private RcaReport report;

  protected SparkApplicationAssert(SparkApplication actual) {
    super(actual, SparkApplicationAssert.class);
  }

  /** Uses {@code engine} for {@link #isHealthy()}, {@link #hasRootCause} and {@link #rca()} (default the standard one). */
  public SparkApplicationAssert usingRcaEngine(RcaEngine engine) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.report = null;
    return myself;
  }

  /** Fails when a job failed, naming the job, the stage that failed it and why. */
  public SparkApplicationAssert hasNoFailedJobs() {
    isNotNull();
    List<JobData> failed = actual.jobs(Set.of(JobExecutionStatus.FAILED)).stream()
        .sorted(Comparator.comparingInt(JobData::jobId)).toList();
    if (failed.isEmpty()) {
      return myself;
    }
    List<StageData> failedStages = failedStages();
    List<String> lines = new ArrayList<>();
    List<StageData> cited = new ArrayList<>();
    for (JobData j : failed) {
      Optional<StageData> s = failedStages.stream().filter(st -> j.stageIds().contains(st.stageId())).findFirst();
      s.ifPresent(cited::add);
      lines.add("job " + j.jobId() + " (\"" + j.name() + "\"): " + s.map(st -> "stage " + st.stageId() + " failed: "
          + Describe.firstLine(st.failureReason().orElse(""))).orElse("no stage of it failed (it was cancelled or its driver stopped)"));
    }
    fail("Expecting " + Describe.app(actual) + " to have no failed jobs but "
        + Describe.count(failed.size(), "job", "jobs") + " failed:" + Describe.lines(lines)
        + RuleAdvice.remediation(Optional.of(actual), cited, List.of("STAGE_FAILED", "EXECUTOR_OOM", "FETCH_FAILURE")));
    return myself;
  }

  /** Fails when a stage attempt failed, naming it and Spark's failure reason. */
  public SparkApplicationAssert hasNoFailedStages() {
    isNotNull();
    List<StageData> failed = failedStages();
    if (failed.isEmpty()) {
      return myself;
    }
    List<String> lines = failed.stream()
        .map(s -> Describe.stage(s, Optional.of(actual)) + ": " + Describe.firstLine(s.failureReason().orElse("no failure reason recorded"))).toList();
    fail("Expecting " + Describe.app(actual) + " to have no failed stages but "
        + Describe.count(failed.size(), "stage attempt", "stage attempts") + " failed:" + Describe.lines(lines)
        + RuleAdvice.remediation(Optional.of(actual), failed, List.of("STAGE_FAILED", "EXECUTOR_OOM", "FETCH_FAILURE")));
    return myself;
  }

  /**
   * Fails when a task attempt failed, even if a retry succeeded (killed attempts, such as the
   * losers of speculation, do not count): the failures folded by cause, with the first of each.
   */
  public SparkApplicationAssert hasNoTaskFailures() {
    isNotNull();
    List<TaskFailureGroup> groups = actual.facts().taskFailures().stream().filter(g -> !g.isKilled()).toList();
    long failedAttempts = groups.stream().mapToLong(TaskFailureGroup::count).sum();
    if (groups.isEmpty() && actual.facts().tasksFailed() == 0) {
      return myself;
    }
    List<String> lines = groups.stream().map(g -> g.count() + "x " + g.reason()
        + (g.isException() ? "" : ":") + " " + Describe.firstLine(g.description()) + " in stage " + g.stageId()
        + " (first: task " + g.taskId() + ", partition " + g.partitionIndex() + ", attempt " + g.attempt()
        + ", executor " + g.executorId() + ")").toList();
    long total = Math.max(failedAttempts, actual.facts().tasksFailed());
    List<StageData> stages = actual.stages(StageQuery.all()).stream().filter(s -> s.numFailedTasks() > 0).toList();
    fail("Expecting " + Describe.app(actual) + " to have no task failures but "
        + Describe.count(total, "task attempt", "task attempts") + " failed:" + Describe.lines(lines)
        + RuleAdvice.remediation(Optional.of(actual), stages, List.of("TASK_FAILURES", "STAGE_FAILED", "EXECUTOR_OOM")));
    return myself;
  }

  /**
   * Fails when an executor was removed while the application ran (an executor the driver released
   * on purpose, reason {@code "... killed by driver"}, does not count).
   */
  public SparkApplicationAssert hasNoExecutorLoss() {
    isNotNull();
    List<ExecutorRemoval> lost = actual.facts().executorRemovals().stream()
        .filter(r -> !r.reason().contains("killed by driver")).toList();
    if (lost.isEmpty()) {
      return myself;
    }
    List<String> lines = lost.stream().map(r -> "executor " + r.executorId() + " at " + Instant.ofEpochMilli(r.time()) + ": "
        + (r.reason().isEmpty() ? "no reason recorded" : Describe.firstLine(r.reason()))).toList();
    List<StageData> hit = actual.stages(StageQuery.all()).stream().filter(s -> s.numKilledTasks() > 0 || s.numFailedTasks() > 0
        || s.attemptId() > 0).toList();
    fail("Expecting " + Describe.app(actual) + " to lose no executors but "
        + Describe.count(lost.size(), "executor was", "executors were") + " removed while it ran:" + Describe.lines(lines)
        + RuleAdvice.remediation(Optional.of(actual), hit, List.of("EXECUTOR_CHURN", "KILLED_TASKS", "FETCH_FAILURE", "STAGE_RETRIED")));
    return myself;
  }

  /** The latest attempt of stage {@code stageId}; fails when the application has no such stage. */
  public StageDataAssert stage(int stageId) {
    isNotNull();
    List<StageData> attempts = actual.stageAttempts(stageId, StageQuery.all());
    if (attempts.isEmpty()) {
      List<Integer> ids = actual.stages(StageQuery.all()).stream().map(StageData::stageId).distinct().sorted().toList();
      fail("Expecting " + Describe.app(actual) + " to have stage " + stageId + " but it has "
          + (ids.isEmpty() ? "no stages" : "only stages " + ids.stream().map(String::valueOf).collect(Collectors.joining(", "))));
    }
    StageData latest = attempts.get(attempts.size() - 1);
    return new StageDataAssert(latest, Optional.of(actual)).as(info.description());
  }

  /** Every stage attempt that ran (skipped and pending stages left out), oldest first. */
  public StagesAssert stages() {
    isNotNull();
    List<StageData> ran = new ArrayList<>(actual.stages(StageQuery.all()).stream()
        .filter(s -> s.status() != StageStatus.SKIPPED && s.status() != StageStatus.PENDING).toList());
    ran.sort(Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId));
    return new StagesAssert(ran, actual).as(info.description());
  }

  /**
   * Fails when a SQL execution joined with a sort-merge join whose smaller side (the data that
   * reached its exchange) is below {@code bytes}: a join that should have been broadcast.
   */
  public SparkApplicationAssert hasNoSortMergeJoinBelow(long bytes) {
    isNotNull();
    List<String> lines = new ArrayList<>();
    for (ExecutionData x : actual.sqlExecutions()) {
      for (SortMergeJoin j : SortMergeJoin.of(x)) {
        if (j.smallerSideBytes() < bytes) {
          lines.add("SQL execution " + x.id() + " (\"" + Describe.firstLine(x.description()) + "\"): " + j.operator()
              + " with a " + Describe.bytes(j.smallerSideBytes()) + " side (the other " + Describe.bytes(j.largerSideBytes()) + ")");
        }
      }
    }
    if (lines.isEmpty()) {
      return myself;
    }
    fail("Expecting " + Describe.app(actual) + " to have no sort-merge join whose smaller side is below "
        + Describe.bytes(bytes) + " but " + Describe.count(lines.size(), "join has", "joins have") + " one:"
        + Describe.lines(lines) + "\nRemediation (SORT_MERGE_JOIN_SHOULD_BROADCAST): broadcast the small side "
        + "(broadcast(small_df) or /*+ BROADCAST(t) */), or raise spark.sql.autoBroadcastJoinThreshold above its size "
        + "and refresh the table statistics (ANALYZE TABLE ... COMPUTE STATISTICS) so that the optimizer sees it.");
    return myself;
  }

  /** Fails when a rule of {@code catalog} matches: each violation with its stages and remediation. */
  public SparkApplicationAssert passesRules(RuleCatalog catalog) {
    isNotNull();
    Objects.requireNonNull(catalog, "catalog");
    StageDiagnostics d = RuleAdvice.engine(catalog).evaluate(actual);
    if (d.status() == DiagnosticStatus.PASS) {
      return myself;
    }
    if (d.status() == DiagnosticStatus.ERROR) {
      fail("Expecting " + Describe.app(actual) + " to pass " + Describe.count(catalog.rules().size(), "rule", "rules")
          + " but they could not be evaluated: " + d.errorMessage().orElse("no reason given"));
    }
    List<String> lines = new ArrayList<>();
    for (Violation v : d.violations()) {
      String where = v.stages().isEmpty() ? v.detail().map(Describe::firstLine).orElse("the application")
          : "stages " + v.stages().stream().map(s -> s.stageId() + "." + s.stageAttemptId() + (s.detail().isEmpty() ? ""
              : " (" + Describe.firstLine(s.detail()) + ")")).collect(Collectors.joining(", "));
      lines.add(v.severity() + " " + v.ruleId() + " (" + v.description() + "): " + where + "\n    Remediation: " + v.remediation());
    }
    fail("Expecting " + Describe.app(actual) + " to pass " + Describe.count(d.rulesEvaluated(), "rule", "rules") + " but "
        + Describe.count(d.violations().size(), "rule matches", "rules match") + ":" + Describe.lines(lines));
    return myself;
  }

  /** Fails unless the RCA engine finds the application {@code HEALTHY} (on sufficient evidence). */
  public SparkApplicationAssert isHealthy() {
    isNotNull();
    rca().isHealthy();
    return myself;
  }

  /** Fails unless the RCA engine names {@code kind} as the root cause. */
  public SparkApplicationAssert hasRootCause(RootCauseKind kind) {
    isNotNull();
    rca().hasRootCause(kind);
    return myself;
  }

  /** The RCA engine's report on the application (computed once), for more assertions. */
  public RcaReportAssert rca() {
    isNotNull();
    if (report == null) {
      report = RcaRunner.builder().engine(engine).build().run(actual, actual.info().id());
    }
    return new RcaReportAssert(report).as(info.description());
  }

  /** Fails when the application's wall time (its attempt's duration) exceeded {@code limit}. */
  public SparkApplicationAssert ranWithin(Duration limit) {
    isNotNull();
    long ms = BaselineComparison.wallMs(actual);
    if (ms <= limit.toMillis()) {
      return myself;
    }
    fail("Expecting " + Describe.app(actual) + " to run within " + Describe.ms(limit.toMillis()) + " but it ran for "
        + Describe.ms(ms) + slowestStage().map(s -> "; its longest stage was " + Describe.stage(s, Optional.of(actual)) + " with "
            + Describe.ms(s.wallClock().orElseThrow().toMillis())).orElse(""));
    return myself;
  }

  /** Assertions comparing this run with a healthy earlier run of the same job. */
  public ComparisonAssert comparedTo(SparkApplication baseline) {
    isNotNull();
    return new ComparisonAssert(actual, Objects.requireNonNull(baseline, "baseline")).as(info.description());
  }

  private Optional<StageData> slowestStage() {
    return actual.stages(StageQuery.all()).stream().filter(s -> s.wallClock().isPresent())
        .max(Comparator.comparing(s -> s.wallClock().get()));
  }

  private List<StageData> failedStages() {
    List<StageData> failed = new ArrayList<>(actual.stages(StageQuery.all().withStatuses(Set.of(StageStatus.FAILED))));
    failed.sort(Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId));
    return failed;
  }

  /** Fails with {@code message} as it is (no format directives interpreted), honouring {@code as(...)}. */
  private void fail(String message) {
    failWithMessage("%s", message);
  }
}
