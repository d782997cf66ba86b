package io.sparkrca.benchmarks;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationEnvironmentInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorMetricsDistributions;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.InputMetricDistributions;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.OutputMetricDistributions;
import io.sparkrca.core.model.ProcessSummary;
import io.sparkrca.core.model.RDDStorageInfo;
import io.sparkrca.core.model.RuntimeInfo;
import io.sparkrca.core.model.ShufflePushReadMetricDistributions;
import io.sparkrca.core.model.ShuffleReadMetricDistributions;
import io.sparkrca.core.model.ShuffleWriteMetricDistributions;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * A synthetic application built from the core model, for benchmarks: {@code n} stage attempts
 * with a realistic mix (mostly healthy stages of 10 ms to minutes; about 1% each skewed, spilling,
 * GC-bound or failed; 2% retried), task quantiles and executor distributions, and an environment
 * with AQE on. Deterministic for a given seed.
 */
public final class SyntheticApplication implements SparkApplication {
  private final List<StageData> stages;
  private final Map<String, StageData> byAttempt = new java.util.HashMap<>();
  private final List<ExecutorSummary> executors;

  public SyntheticApplication(int n, long seed) {
    Random r = new Random(seed);
    List<StageData> out = new ArrayList<>(n);
    int id = 0;
    while (out.size() < n) {
      boolean retried = r.nextInt(100) < 2 && out.size() + 1 < n;
      out.add(stage(id, 0, r, retried));
      if (retried) {
        out.add(stage(id, 1, r, false));
      }
      id++;
    }
    Collections.reverse(out);
    this.stages = List.copyOf(out);
    for (StageData s : stages) {
      byAttempt.put(s.stageId() + "/" + s.attemptId(), s);
    }
    List<ExecutorSummary> ex = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      ex.add(
          new ExecutorSummary(
              String.valueOf(i), "host-" + i + ":7337", i < 40, 0, 0, 0, 4, 4, 0, r.nextInt(3), 2000,
              2000, 3_600_000L, 90_000L, 50_000_000_000L, 20_000_000_000L, 20_000_000_000L, false,
              8L << 30, Instant.EPOCH, Optional.empty(), Optional.empty(), Map.of(), Optional.empty(),
              List.of(), Optional.empty(), Map.of(), Map.of(), 0, false, List.of()));
    }
    this.executors = List.copyOf(ex);
  }

  private static List<Double> q(double min, double p25, double p50, double p75, double max) {
    return List.of(min, p25, p50, p75, max);
  }

  private static List<Double> flat(double v) {
    return q(v, v, v, v, v);
  }

  private static StageData stage(int id, int attempt, Random r, boolean willRetry) {
    int kind = r.nextInt(100);
    int tasks = kind < 40 ? 1 + r.nextInt(8) : 50 + r.nextInt(2000);
    double medianMs = kind < 40 ? 5 + r.nextInt(50) : 200 + r.nextInt(20_000);
    double maxMs = medianMs * (1.2 + r.nextDouble());
    double medianBytes = 1 + r.nextInt(64) * 1048576.0;
    double maxBytes = medianBytes * 1.3;
    long gc = 0;
    long disk = 0;
    StageStatus status = willRetry ? StageStatus.FAILED : StageStatus.COMPLETE;
    int failed = willRetry ? 1 : 0;
    if (kind == 90) { // skew
      maxMs = medianMs * 20;
      maxBytes = medianBytes * 30;
    } else if (kind == 91) { // spill
      disk = (1L + r.nextInt(3)) << 30;
    } else if (kind == 92) { // GC
      gc = (long) (medianMs * tasks * 0.4);
    } else if (kind == 93) {
      status = StageStatus.FAILED;
      failed = 4;
    }
    long run = (long) (medianMs * tasks);
    TaskMetricDistributions d =
        new TaskMetricDistributions(
            q(0, 0.25, 0.5, 0.75, 1.0),
            q(medianMs / 2, medianMs * 0.8, medianMs, medianMs * 1.1, maxMs),
            flat(3), flat(2_000_000), q(medianMs / 2, medianMs * 0.8, medianMs, medianMs * 1.1, maxMs),
            flat(medianMs * 900_000), flat(2048), flat(gc / Math.max(1, tasks)), flat(1), flat(0), flat(4),
            flat(64 << 20), flat(0), flat(disk / Math.max(1, tasks)),
            new InputMetricDistributions(q(0, medianBytes * 0.8, medianBytes, medianBytes * 1.1, maxBytes), flat(1000)),
            new OutputMetricDistributions(flat(0), flat(0)),
            new ShuffleReadMetricDistributions(
                q(0, medianBytes * 0.8, medianBytes, medianBytes * 1.1, maxBytes), flat(1000), flat(10), flat(10), flat(5),
                flat(medianBytes / 2), flat(0), flat(20), flat(3),
                new ShufflePushReadMetricDistributions(flat(0), flat(0), flat(0), flat(0), flat(0), flat(0), flat(0), flat(0), flat(0))),
            new ShuffleWriteMetricDistributions(flat(medianBytes), flat(1000), flat(1_000_000)));
    ExecutorMetricsDistributions e =
        new ExecutorMetricsDistributions(
            q(0, 0.25, 0.5, 0.75, 1.0), q(run / 60.0, run / 50.0, run / 40.0, run / 30.0, run / 20.0),
            flat(0), flat(tasks / 40.0), flat(0), flat(medianBytes * tasks / 40), flat(1000), flat(0), flat(0),
            flat(medianBytes * tasks / 40), flat(1000), flat(medianBytes * tasks / 40), flat(1000), flat(0),
            flat(disk / 40.0), Map.of());
    Instant submitted = Instant.ofEpochSecond(1_700_000_000L + id * 10L);
    return new StageData(
        status, id, attempt, tasks, 0, tasks - failed, failed, 0, tasks - failed,
        Optional.of(submitted), Optional.of(submitted.plusMillis(5)), Optional.of(submitted.plusMillis((long) maxMs + 20)),
        status == StageStatus.FAILED ? Optional.of("Job aborted due to stage failure: java.lang.RuntimeException: boom") : Optional.empty(),
        tasks * 3L, tasks * 2_000_000L, run, run * 900_000L, tasks * 2048L, gc, tasks, disk / 2, disk, 64L << 20,
        (long) (medianBytes * tasks), 1000L * tasks, 0, 0, tasks * 10L, tasks * 10L, tasks * 5L,
        (long) (medianBytes * tasks / 2), 0, (long) (medianBytes * tasks / 2), (long) (medianBytes * tasks),
        1000L * tasks, 0, 0, 0, 0, 0, 0, 0, 0, tasks * 3L, 0, (long) (medianBytes * tasks),
        tasks * 1_000_000L, 1000L * tasks,
        "stage " + id, Optional.empty(), "", "default", List.of(id), List.of(),
        Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), 0, Optional.empty(),
        Optional.of(d), Optional.of(e), false, 0);
  }

  @Override
  public ApplicationInfo info() {
    return new ApplicationInfo(
        "app-synthetic", "synthetic", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(new ApplicationAttemptInfo(Optional.empty(), Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, 0, "bench", true, "3.5.1")));
  }

  @Override
  public Optional<String> attemptId() {
    return Optional.empty();
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    return List.of();
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return Optional.empty();
  }

  @Override
  public List<StageData> stages(StageQuery query) {
    return stages;
  }

  @Override
  public List<StageData> stageAttempts(int stageId, StageQuery query) {
    return stages.stream().filter(s -> s.stageId() == stageId).toList();
  }

  @Override
  public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) {
    return Optional.ofNullable(byAttempt.get(stageId + "/" + attemptId));
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    return List.of();
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    return stageAttempt(stageId, attemptId, StageQuery.all()).flatMap(StageData::taskMetricsDistributions);
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return executors;
  }

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return Optional.of(
        new ApplicationEnvironmentInfo(
            new RuntimeInfo(Optional.of("17"), Optional.empty(), Optional.of("2.13")),
            List.of(Map.entry("spark.sql.adaptive.enabled", "true")), List.of(), List.of(), List.of(), List.of(), List.of()));
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
}
