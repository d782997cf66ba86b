package io.sparkrca.core.app;

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
 * An application that answers only through the model, as a History Server or Dataproc source
 * does: everything is delegated except {@link #facts()}, {@link #sparkVersion()} and {@link
 * #completeness()}, which keep their defaults. Tests compare it with the replay it wraps.
 */
public final class ModelOnlyApplication implements SparkApplication {
  private final SparkApplication d;

  public ModelOnlyApplication(SparkApplication delegate) {
    this.d = delegate;
  }

  @Override public ApplicationInfo info() { return d.info(); }
  @Override public Optional<String> attemptId() { return d.attemptId(); }
  @Override public List<JobData> jobs(Set<JobExecutionStatus> statuses) { return d.jobs(statuses); }
  @Override public Optional<JobData> job(int jobId) { return d.job(jobId); }
  @Override public List<StageData> stages(StageQuery query) { return d.stages(query); }
  @Override public List<StageData> stageAttempts(int stageId, StageQuery query) { return d.stageAttempts(stageId, query); }
  @Override public Optional<StageData> stageAttempt(int stageId, int attemptId, StageQuery query) { return d.stageAttempt(stageId, attemptId, query); }
  @Override public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) { return d.tasks(stageId, attemptId, query); }
  @Override public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) { return d.taskSummary(stageId, attemptId, quantiles); }
  @Override public List<ExecutorSummary> executors(boolean activeOnly) { return d.executors(activeOnly); }
  @Override public Optional<ApplicationEnvironmentInfo> environment() { return d.environment(); }
  @Override public List<RDDStorageInfo> rdds() { return d.rdds(); }
  @Override public Optional<RDDStorageInfo> rdd(int rddId) { return d.rdd(rddId); }
  @Override public List<ExecutionData> sqlExecutions() { return d.sqlExecutions(); }
  @Override public Optional<ExecutionData> sqlExecution(long executionId) { return d.sqlExecution(executionId); }
  @Override public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) { return d.miscellaneousProcesses(activeOnly); }
}
