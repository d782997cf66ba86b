package io.sparkrca.gcp.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
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
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A real application whose stage attempts are repeated under new stage ids up to {@code n}. */
public final class RepeatedStages implements SparkApplication {
  private final SparkApplication base;
  private final List<StageData> baseStages;
  private final List<StageData> stages = new ArrayList<>();

  public RepeatedStages(SparkApplication base, int n) {
    this(base, n, id -> true);
  }

  /** Only the stage ids {@code kept} of the first {@code n}: gaps, as the History Server's retention leaves. */
  public RepeatedStages(SparkApplication base, int n, java.util.function.IntPredicate kept) {
    this.base = base;
    this.baseStages = base.stages(StageQuery.all().withDetails(true));
    for (int i = 0; i < n; i++) {
      if (kept.test(i)) {
        stages.add(withId(baseStages.get(i % baseStages.size()), i));
      }
    }
  }

  private StageData source(int stageId) {
    return baseStages.get(stageId % baseStages.size());
  }

  private static StageData withId(StageData s, int id) {
    try {
      RecordComponent[] rc = StageData.class.getRecordComponents();
      Object[] values = new Object[rc.length];
      Class<?>[] types = new Class<?>[rc.length];
      for (int i = 0; i < rc.length; i++) {
        types[i] = rc[i].getType();
        values[i] = rc[i].getName().equals("stageId") ? id : rc[i].getAccessor().invoke(s);
      }
      return StageData.class.getDeclaredConstructor(types).newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public ApplicationInfo info() {
    return base.info();
  }

  @Override
  public Optional<String> attemptId() {
    return base.attemptId();
  }

  @Override
  public List<JobData> jobs(Set<JobExecutionStatus> statuses) {
    return base.jobs(statuses);
  }

  @Override
  public Optional<JobData> job(int jobId) {
    return base.job(jobId);
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
    return stages.stream().filter(s -> s.stageId() == stageId && s.attemptId() == attemptId).findFirst();
  }

  @Override
  public List<TaskData> tasks(int stageId, int attemptId, TaskQuery query) {
    StageData s = source(stageId);
    return base.tasks(s.stageId(), s.attemptId(), query);
  }

  @Override
  public Optional<TaskMetricDistributions> taskSummary(int stageId, int attemptId, List<Double> quantiles) {
    StageData s = source(stageId);
    return base.taskSummary(s.stageId(), s.attemptId(), quantiles);
  }

  @Override
  public List<ExecutorSummary> executors(boolean activeOnly) {
    return base.executors(activeOnly);
  }

  @Override
  public Optional<ApplicationEnvironmentInfo> environment() {
    return base.environment();
  }

  @Override
  public List<RDDStorageInfo> rdds() {
    return base.rdds();
  }

  @Override
  public Optional<RDDStorageInfo> rdd(int rddId) {
    return base.rdd(rddId);
  }

  @Override
  public List<ExecutionData> sqlExecutions() {
    return base.sqlExecutions();
  }

  @Override
  public Optional<ExecutionData> sqlExecution(long executionId) {
    return base.sqlExecution(executionId);
  }

  @Override
  public List<ProcessSummary> miscellaneousProcesses(boolean activeOnly) {
    return base.miscellaneousProcesses(activeOnly);
  }
}
