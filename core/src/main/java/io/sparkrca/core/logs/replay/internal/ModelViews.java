package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.model.ExecutorStageSummary;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.SpeculationStageSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The History Server's records made from the model: what the lines gave, and zero or absent for
 * what they cannot (task metrics, I/O, shuffle, GC, plans). Task lists sort "by runtime" on the
 * task's duration, the only time a log gives.
 *
 * <pre>{@code
 * StageData d = views.stage(state, StageQuery.all());
 * }</pre>
 */
final class ModelViews {
  private final ModelState m;

  ModelViews(ModelState m) {
    this.m = m;
  }

  static Optional<Instant> instant(long millis) {
    return ModelState.instant(millis);
  }

  // ------------------------------------------------------------------ jobs

  JobData job(JobState j) {
    int numTasks = 0;
    int active = 0;
    int completed = 0;
    int skippedTasks = 0;
    int failed = 0;
    int killed = 0;
    int indices = 0;
    int activeStages = 0;
    int completedStages = 0;
    int skippedStages = 0;
    int failedStages = 0;
    for (int id : j.stageIds) {
      StageState latest = m.latest.get(id);
      if (latest == null) {
        continue;
      }
      int stageTasks = 0;
      for (StageState st : m.stages.subMap(StageState.key(id, 0), StageState.key(id + 1, 0)).values()) {
        stageTasks = Math.max(stageTasks, Math.max(0, st.numTasks));
        active += st.active;
        completed += st.complete;
        failed += st.failed;
        killed += st.killed;
        indices += st.completedIndices;
      }
      numTasks += stageTasks;
      switch (latest.status) {
        case ACTIVE -> activeStages++;
        case COMPLETE -> completedStages++;
        case SKIPPED -> {
          skippedStages++;
          skippedTasks += stageTasks;
        }
        case FAILED -> failedStages++;
        default -> {
        }
      }
    }
    return new JobData(j.jobId, j.name == null ? "" : j.name, Optional.empty(), instant(j.submitted),
        j.status == JobExecutionStatus.RUNNING ? Optional.empty() : instant(j.completed), new ArrayList<>(j.stageIds),
        Optional.empty(), List.of(), j.status, numTasks, active, completed, skippedTasks, failed, killed, indices,
        activeStages, completedStages, skippedStages, failedStages, Map.of());
  }

  // ------------------------------------------------------------------ stages

  StageData stage(StageState st, StageQuery q) {
    StageData base = new StageData(st.status, st.stageId, st.attempt, Math.max(0, st.numTasks), st.active, st.complete,
        st.failed, st.killed, st.completedIndices, instant(st.submitted), instant(st.firstLaunch),
        st.ended() ? instant(st.completed) : Optional.empty(), Optional.ofNullable(st.failureReason),
        0, 0, 0, 0, 0, 0, 0, st.memorySpilled, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, st.name, Optional.empty(), "", "", List.of(), List.of(), Optional.empty(), Optional.empty(),
        Optional.empty(), st.killedSummary, st.resourceProfileId, Optional.empty(), Optional.empty(), Optional.empty(),
        false, 0);
    if (!q.details()) {
      return base;
    }
    Optional<Map<Long, TaskData>> tasks = Optional.empty();
    if (q.includeTasks()) {
      Map<Long, TaskData> byId = new LinkedHashMap<>();
      for (TaskData t : tasks(st, TaskQuery.all().withStatuses(q.taskStatuses()))) {
        byId.put(t.taskId(), t);
      }
      tasks = Optional.of(byId);
    }
    return base.withDetails(tasks, Optional.of(executorSummaries(st)), Optional.of(speculation(st)), Optional.empty(),
        Optional.empty());
  }

  private Map<String, ExecutorStageSummary> executorSummaries(StageState st) {
    Map<String, long[]> counts = new LinkedHashMap<>();
    TaskTable t = st.tasks;
    for (int r = 0; r < t.size; r++) {
      String e = m.string(t.executor[r]);
      if (e == null) {
        continue;
      }
      long[] c = counts.computeIfAbsent(e, k -> new long[4]);
      c[0] += Math.max(0, t.duration[r]);
      switch (t.status(r)) {
        case TaskTable.FAILED -> c[1]++;
        case TaskTable.SUCCESS -> c[2]++;
        case TaskTable.KILLED -> c[3]++;
        default -> {
        }
      }
    }
    Map<String, ExecutorStageSummary> out = new LinkedHashMap<>();
    counts.forEach((id, c) -> out.put(id, new ExecutorStageSummary(c[0], (int) c[1], (int) c[2], (int) c[3], 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, false, Optional.empty(), false)));
    return out;
  }

  private static SpeculationStageSummary speculation(StageState st) {
    TaskTable t = st.tasks;
    int n = 0;
    int active = 0;
    int done = 0;
    int failed = 0;
    int killed = 0;
    for (int r = t.speculative.nextSetBit(0); r >= 0; r = t.speculative.nextSetBit(r + 1)) {
      n++;
      switch (t.status(r)) {
        case TaskTable.RUNNING -> active++;
        case TaskTable.SUCCESS -> done++;
        case TaskTable.FAILED -> failed++;
        case TaskTable.KILLED -> killed++;
        default -> {
        }
      }
    }
    return new SpeculationStageSummary(n, active, done, failed, killed);
  }

  // ------------------------------------------------------------------ tasks

  List<TaskData> tasks(StageState st, TaskQuery q) {
    TaskTable t = st.tasks;
    List<Integer> rows = new ArrayList<>();
    for (int r = 0; r < t.size; r++) {
      if (q.statuses().isEmpty() || q.statuses().contains(status(t.status(r)))) {
        rows.add(r);
      }
    }
    Comparator<Integer> byId = Comparator.comparingLong(r -> t.tid[r]);
    Comparator<Integer> byRuntime = Comparator.<Integer>comparingLong(r -> t.duration[r]).thenComparing(byId);
    rows.sort(q.sortBy() == TaskSorting.INCREASING_RUNTIME ? byRuntime
        : q.sortBy() == TaskSorting.DECREASING_RUNTIME ? byRuntime.reversed() : byId);
    List<TaskData> out = new ArrayList<>();
    for (int i = q.offset(); i < rows.size() && out.size() < q.length(); i++) {
      out.add(task(t, rows.get(i)));
    }
    return out;
  }

  private static TaskStatus status(byte s) {
    return switch (s) {
      case TaskTable.RUNNING -> TaskStatus.RUNNING;
      case TaskTable.SUCCESS -> TaskStatus.SUCCESS;
      case TaskTable.FAILED -> TaskStatus.FAILED;
      case TaskTable.KILLED -> TaskStatus.KILLED;
      default -> TaskStatus.UNKNOWN;
    };
  }

  TaskData task(TaskTable t, int r) {
    long launch = t.launch[r];
    String executor = m.string(t.executor[r]);
    String host = m.string(t.host[r]);
    String locality = m.string(t.locality[r]);
    return new TaskData(t.tid[r], t.index[r], Math.max(0, t.attempt[r]), t.partition[r],
        launch == TimeParser.NO_TIME ? Instant.EPOCH : Instant.ofEpochMilli(launch), Optional.empty(),
        t.duration[r] >= 0 ? Optional.of(t.duration[r]) : Optional.empty(), executor == null ? "" : executor,
        host == null ? "" : host, TaskTable.STATUS_NAMES[t.status(r)], locality == null ? "" : locality,
        t.speculative.get(r), List.of(), Optional.ofNullable(t.error(r)), Optional.empty(), Map.of(), 0, 0);
  }

  // ------------------------------------------------------------------ executors

  ExecutorSummary executor(ExecutorState e) {
    return new ExecutorSummary(e.id, e.hostPort != null ? e.hostPort : e.host == null ? "" : e.host, e.active, 0, 0, 0,
        e.cores, e.cores, e.activeTasks, e.failedTasks, e.completedTasks, e.totalTasks, e.totalDuration, 0, 0, 0, 0,
        false, e.maxMemory, e.added == TimeParser.NO_TIME ? Instant.EPOCH : Instant.ofEpochMilli(e.added),
        e.active ? Optional.empty() : instant(e.removed), Optional.ofNullable(e.removeReason), Map.of(),
        Optional.empty(), List.of(), Optional.empty(), Map.of(), Map.of(), 0, false, List.of());
  }

  /** Whether a stage attempt has one of {@code statuses} (all when empty). */
  static boolean matches(StageState st, Set<StageStatus> statuses) {
    return statuses.isEmpty() || statuses.contains(st.status);
  }
}
