package io.sparkrca.core.eventlog.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobExecutionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Spark SQL's {@code SQLAppStatusListener} in replay mode, as the History Server runs it: SQL
 * executions with their status, jobs, plan graph (following adaptive re-planning) and metric
 * values, aggregated from the tasks' and the driver's accumulator updates and formatted as Spark
 * formats them.
 *
 * <p>What the History Server shows is what its listener last wrote to its store, and this class
 * keeps the same write points: an execution is "live" until its end event and the end of all its
 * jobs have been seen; then it is written a last time with its formatted metric values, and
 * events that arrive for it later change nothing (as in Spark). Executions still live when the
 * log ends are written with the values aggregated so far.
 *
 * <p>Where Spark 3.5 and 4.0 differ, this follows 4.0: the plan graph skips {@code
 * ResultQueryStage} nodes (only 4.0 writes them), and metrics that an adaptive re-plan adds while
 * a job runs are counted for that job's stages (3.5 counts only those known when the job started).
 * Metric values format identically in both.
 *
 * <p>Memory: per running stage, see {@link SqlStageMetrics}; per finished execution, its plan graph
 * and one string per metric. As the History Server does (its default {@code
 * spark.sql.ui.retainedExecutions}), only the 1,000 most recently finished executions are kept,
 * besides the running ones.
 *
 * <p>Unlike Spark, a start or re-plan event whose plan cannot be read still lists the execution
 * (without a plan graph) and says so in the replay notes; Spark drops such an event.
 */
final class SqlTracker implements ReplayExtension {
  /** Spark's default {@code spark.sql.ui.retainedExecutions}. */
  static final int RETAINED_EXECUTIONS = 1000;

  private static final String PREFIX = "org.apache.spark.sql.execution.ui.";
  private static final String EXECUTION_ID_KEY = "spark.sql.execution.id";

  private final ReplayFacts facts;
  private final int retainedExecutions;

  /** The store: the last written state of each execution, by id. */
  private final TreeMap<Long, Execution> stored = new TreeMap<>();
  /** Stored executions that have a completion time, oldest completion first, for clean-up. */
  private final TreeSet<Execution> storedCompleted =
      new TreeSet<>(
          Comparator.comparingLong((Execution e) -> e.storedCompletionTime)
              .thenComparingLong(e -> e.id));
  /** The stored plan graphs, by execution id. */
  private final Map<Long, SqlPlanGraph> graphs = new HashMap<>();
  /** Executions still receiving updates. */
  private final Map<Long, Execution> live = new LinkedHashMap<>();
  /** Per stage id, how many live executions include it. */
  private final Map<Integer, Integer> liveStageRefs = new HashMap<>();
  /** Metric values of the stages of live executions, by stage id. */
  private final Map<Integer, SqlStageMetrics> stageMetrics = new HashMap<>();
  private static final int MAX_CACHED_STAGE_KEY = 1 << 20;
  private Integer[] stageKeys = new Integer[64];
  private boolean flushing;
  private long dropped;

  SqlTracker(ReplayFacts facts) {
    this(facts, RETAINED_EXECUTIONS);
  }

  SqlTracker(ReplayFacts facts, int retainedExecutions) {
    this.facts = facts;
    this.retainedExecutions = retainedExecutions;
  }

  @Override
  public boolean handles(String eventName) {
    return eventName.startsWith(PREFIX) || eventName.startsWith("SparkListenerSQL")
        || eventName.equals("SparkListenerDriverAccumUpdates");
  }

  @Override
  public void onEvent(String eventName, JsonNode e, long line) {
    String simple = eventName.substring(eventName.lastIndexOf('.') + 1);
    switch (simple) {
      case "SparkListenerSQLExecutionStart":
        onExecutionStart(e);
        break;
      case "SparkListenerSQLAdaptiveExecutionUpdate":
        onAdaptiveExecutionUpdate(e);
        break;
      case "SparkListenerSQLAdaptiveSQLMetricUpdates":
        onAdaptiveMetricUpdates(e);
        break;
      case "SparkListenerSQLExecutionEnd":
        onExecutionEnd(e, line);
        break;
      case "SparkListenerDriverAccumUpdates":
        onDriverAccumUpdates(e);
        break;
      default:
        break;
    }
  }

  private void onExecutionStart(JsonNode e) {
    long id = Json.requiredLong(e, "executionId");
    SqlPlanGraph graph = graph(id, e, "start");
    graphs.put(id, graph);
    Execution exec = getOrCreate(id);
    exec.description = Json.optText(e, "description").orElse("");
    exec.physicalPlanDescription = Json.optText(e, "physicalPlanDescription").orElse("");
    exec.addMetrics(graph.allMetrics());
    exec.submissionTime = Json.optLong(e, "time", -1L);
    update(exec, false);
  }

  private void onAdaptiveExecutionUpdate(JsonNode e) {
    long id = Json.requiredLong(e, "executionId");
    SqlPlanGraph graph = graph(id, e, "adaptive re-plan");
    graphs.put(id, graph);
    Execution exec = getOrCreate(id);
    exec.physicalPlanDescription = Json.optText(e, "physicalPlanDescription").orElse("");
    exec.addMetrics(graph.allMetrics());
    update(exec, false);
  }

  private void onAdaptiveMetricUpdates(JsonNode e) {
    long id = Json.requiredLong(e, "executionId");
    List<SqlPlanGraph.Metric> metrics = new ArrayList<>();
    JsonNode list = e.get("sqlPlanMetrics");
    if (Json.present(list) && list.isArray()) {
      for (JsonNode m : list) {
        JsonNode acc = m.get("accumulatorId");
        if (acc != null && acc.isIntegralNumber()) {
          metrics.add(
              new SqlPlanGraph.Metric(
                  Json.optText(m, "name").orElse(""), acc.longValue(),
                  Json.optText(m, "metricType").orElse(SqlMetricFormat.SUM)));
        }
      }
    }
    Execution exec = getOrCreate(id);
    exec.addMetrics(metrics);
    update(exec, false);
  }

  private void onExecutionEnd(JsonNode e, long line) {
    Execution exec = live.get(Json.requiredLong(e, "executionId"));
    if (exec == null) {
      return;
    }
    exec.completionTime = Json.optLong(e, "time", -1L);
    exec.hasCompletionTime = true;
    JsonNode error = e.get("errorMessage");
    exec.errorMessage = Json.present(error) ? error.asText() : null;
    if (facts != null && exec.errorMessage != null && !exec.errorMessage.isEmpty()) {
      facts.sqlFailed(exec.id, exec.description, exec.errorMessage, exec.completionTime, line);
    }
    update(exec, false);
    // Spark aggregates on its store's worker, which the History Server runs on the replay thread.
    if (exec.metricValues == null) {
      exec.metricValues = aggregate(exec);
    }
    removeStaleStageMetrics(exec);
    exec.endEvents++;
    update(exec, true);
  }

  private void onDriverAccumUpdates(JsonNode e) {
    Execution exec = live.get(Json.requiredLong(e, "executionId"));
    if (exec == null) {
      return;
    }
    JsonNode updates = e.get("accumUpdates");
    if (Json.present(updates) && updates.isArray()) {
      for (JsonNode pair : updates) {
        if (pair.isArray() && pair.size() == 2 && pair.get(0).isIntegralNumber()
            && pair.get(1).isIntegralNumber()) {
          exec.addDriverUpdate(pair.get(0).longValue(), pair.get(1).longValue());
        }
      }
    }
    update(exec, false);
  }

  /** Heartbeat accumulator updates of running tasks (Spark's event logger does not write these). */
  void onExecutorMetricsUpdate(JsonNode e) {
    JsonNode all = e.get("Metrics Updated");
    if (!Json.present(all) || !all.isArray() || stageMetrics.isEmpty()) {
      return;
    }
    long[] ids = new long[16];
    long[] values = new long[16];
    for (JsonNode t : all) {
      if (!t.isObject()) {
        continue;
      }
      int stageId = Json.optInt(t, "Stage ID", -1);
      SqlStageMetrics stage = stageMetrics.get(stageId);
      if (stage == null || stage.attemptId != Json.optInt(t, "Stage Attempt ID", 0)) {
        continue;
      }
      int n = 0;
      JsonNode updates = t.get("Accumulator Updates");
      if (Json.present(updates) && updates.isArray()) {
        for (JsonNode a : updates) {
          JsonNode id = a.get("ID");
          JsonNode update = a.get("Update");
          if (id == null || !id.isIntegralNumber() || !Json.present(update)) {
            continue;
          }
          long v = update.isIntegralNumber() ? update.longValue() : StreamingEvents.parseLongOrMin(update.asText());
          if (v == Long.MIN_VALUE && !update.isIntegralNumber()) {
            continue;
          }
          ids = SqlStageMetrics.grow(ids, n + 1);
          values = SqlStageMetrics.grow(values, n + 1);
          ids[n] = id.longValue();
          values[n] = v;
          n++;
        }
      }
      stage.update(Json.optLong(t, "Task ID", -1L), -1, false, ids, values, n);
    }
  }

  @Override
  public void onJobStart(int jobId, List<Integer> stageIds, List<StageInfo> stageInfos,
      Map<String, String> properties, long time) {
    String text = properties.get(EXECUTION_ID_KEY);
    if (text == null) {
      return;
    }
    long id;
    try {
      id = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      return; // Spark's listener fails on this job; it is no SQL job
    }
    Execution exec = live.get(id);
    if (exec == null) {
      Execution old = stored.get(id);
      exec = old != null ? revive(old) : getOrCreate(id);
    }
    if (!exec.metricTypes.isEmpty()) {
      for (StageInfo s : stageInfos) {
        stageMetrics.put(s.stageId(), new SqlStageMetrics(s.stageId(), 0, s.numTasks(), exec.metricTypes));
      }
    }
    exec.jobs.put(jobId, JobExecutionStatus.RUNNING);
    for (int stageId : stageIds) {
      if (exec.stages.add(stageId)) {
        liveStageRefs.merge(stageId, 1, Integer::sum);
      }
    }
    update(exec, true);
  }

  @Override
  public void onJobEnd(int jobId, boolean succeeded, long time) {
    for (Execution exec : new ArrayList<>(live.values())) {
      if (exec.jobs.containsKey(jobId)) {
        exec.jobs.put(jobId, succeeded ? JobExecutionStatus.SUCCEEDED : JobExecutionStatus.FAILED);
        exec.endEvents++;
        update(exec, false);
      }
    }
  }

  @Override
  public void onStageSubmitted(int stageId, int attemptId, Map<String, String> properties) {
    if (!isSqlStage(stageId)) {
      return;
    }
    SqlStageMetrics old = stageMetrics.get(stageId);
    if (old != null && old.attemptId != attemptId) {
      // A new attempt starts from nothing, as in Spark: the earlier attempt's values are dropped.
      stageMetrics.put(stageId, new SqlStageMetrics(stageId, attemptId, old.numTasks, old.types));
    }
  }

  @Override
  public void onTaskStart(int stageId, int stageAttemptId, TaskInfoScratch info) {
    SqlStageMetrics stage = stageMetrics.get(stageKey(stageId));
    if (stage != null && stage.attemptId == stageAttemptId) {
      stage.registerTask(info.taskId, info.index);
    }
  }

  @Override
  public void onTaskEnd(int stageId, int stageAttemptId, TaskInfoScratch info) {
    Integer key = stageKey(stageId);
    SqlStageMetrics stage = stageMetrics.get(key);
    if (stage == null || stage.attemptId != stageAttemptId) {
      return;
    }
    if (liveStageRefs.containsKey(key)) {
      stage.update(info.taskId, info.index, info.successful(), info.sqlAccumIds, info.sqlAccumUpdates,
          info.sqlAccumCount);
    }
    stage.taskEnded(info.taskId);
  }

  @Override
  public void finish(long lastUpdateTime) {
    // The store's flush: executions still live are written with the values aggregated so far.
    flushing = true;
    for (Execution exec : live.values()) {
      if (exec.metricValues == null) {
        exec.metricValues = aggregate(exec);
      }
      write(exec);
    }
    stageMetrics.clear();
    if (dropped > 0 && facts != null) {
      facts.note(dropped + " finished SQL executions were dropped, the oldest by completion time, to "
          + "keep " + retainedExecutions + " as the History Server does (spark.sql.ui.retainedExecutions)");
    }
  }

  /**
   * The boxed stage id, from a cache: the per-task lookups by stage id then allocate nothing (ids
   * are small and dense; very large ones are simply boxed).
   */
  private Integer stageKey(int stageId) {
    if (stageId < 0 || stageId >= MAX_CACHED_STAGE_KEY) {
      return stageId;
    }
    if (stageId >= stageKeys.length) {
      stageKeys = Arrays.copyOf(stageKeys, Math.max(stageId + 1, stageKeys.length * 2));
    }
    Integer key = stageKeys[stageId];
    if (key == null) {
      key = stageId;
      stageKeys[stageId] = key;
    }
    return key;
  }

  private boolean isSqlStage(int stageId) {
    return liveStageRefs.containsKey(stageId);
  }

  private SqlPlanGraph graph(long id, JsonNode e, String what) {
    List<String> problems = new ArrayList<>();
    SqlPlanGraph graph = SqlPlanGraph.build(e.get("sparkPlanInfo"), problems);
    if (!problems.isEmpty() && facts != null) {
      facts.note(
          "SQL execution " + id + ": the plan of its " + what + " event is incomplete ("
              + problems.get(0) + (problems.size() > 1 ? ", and " + (problems.size() - 1) + " more" : "")
              + "); its plan graph shows what could be read");
    }
    return graph;
  }

  private Execution getOrCreate(long id) {
    Execution exec = live.get(id);
    if (exec == null) {
      exec = new Execution(id);
      live.put(id, exec);
    }
    return exec;
  }

  /** A job of an execution that already ended: Spark re-opens it from its stored state. */
  private Execution revive(Execution old) {
    Execution exec = new Execution(old.id);
    exec.description = old.description;
    exec.physicalPlanDescription = old.physicalPlanDescription;
    exec.metricTypes.putAll(old.metricTypes);
    exec.submissionTime = old.submissionTime;
    exec.completionTime = old.completionTime;
    exec.hasCompletionTime = old.hasCompletionTime;
    exec.jobs.putAll(old.jobs);
    exec.stages.addAll(old.stages);
    exec.metricValues = old.metricValues;
    exec.endEvents = old.jobs.size() + 1;
    // Spark does not carry the error message over.
    live.put(exec.id, exec);
    for (int stageId : exec.stages) {
      liveStageRefs.merge(stageId, 1, Integer::sum);
    }
    return exec;
  }

  private void update(Execution exec, boolean force) {
    if (exec.endEvents >= exec.jobs.size() + 1) {
      write(exec);
      removeStaleStageMetrics(exec);
      if (live.remove(exec.id) == exec) {
        for (int stageId : exec.stages) {
          liveStageRefs.computeIfPresent(stageId, (k, n) -> n == 1 ? null : n - 1);
        }
      }
    } else if (force) {
      write(exec);
    }
  }

  /** Drops the values of stages that no other live execution includes. */
  private void removeStaleStageMetrics(Execution exec) {
    for (Iterator<Integer> it = stageMetrics.keySet().iterator(); it.hasNext(); ) {
      int stageId = it.next();
      int refs = liveStageRefs.getOrDefault(stageId, 0) - (exec.stages.contains(stageId) ? 1 : 0);
      if (refs <= 0) {
        it.remove();
      }
    }
  }

  private void write(Execution exec) {
    Execution previous = stored.put(exec.id, exec);
    if (previous != null && previous.storedCompletionTime != Long.MIN_VALUE) {
      storedCompleted.remove(previous);
    }
    exec.storedCompletionTime = exec.hasCompletionTime ? exec.completionTime : Long.MIN_VALUE;
    if (exec.storedCompletionTime != Long.MIN_VALUE) {
      storedCompleted.add(exec);
    }
    if (!exec.written) {
      exec.written = true;
      if (!flushing) {
        cleanUp();
      }
    }
  }

  /** Spark's {@code cleanupExecutions}: the oldest finished executions beyond the limit go. */
  private void cleanUp() {
    int toDelete = stored.size() - retainedExecutions;
    while (toDelete-- > 0 && !storedCompleted.isEmpty()) {
      Execution old = storedCompleted.pollFirst();
      stored.remove(old.id);
      graphs.remove(old.id);
      old.storedCompletionTime = Long.MIN_VALUE;
      dropped++;
    }
  }

  /** Spark's {@code aggregateMetrics}: every metric's values over the execution's stages. */
  private Map<Long, String> aggregate(Execution exec) {
    Map<Long, String> types = exec.metricTypes;
    // Per metric: the sum (for sum metrics), or the values; and the task with the largest value.
    Map<Long, long[]> sums = new HashMap<>();
    Map<Long, List<SqlStageMetrics.PackedValues>> valueLists = new HashMap<>();
    Map<Long, long[]> maxes = new HashMap<>();
    for (int stageId : ScalaHashOrder.order(exec.stages)) {
      SqlStageMetrics stage = stageMetrics.get(stageId);
      if (stage == null) {
        continue;
      }
      for (Map.Entry<Long, SqlStageMetrics.Slot> e : stage.slots().entrySet()) {
        long id = e.getKey();
        if (!types.containsKey(id)) {
          continue;
        }
        if (e.getValue() instanceof SqlStageMetrics.SumSlot s) {
          sums.computeIfAbsent(id, k -> new long[1])[0] += s.sum;
        } else {
          SqlStageMetrics.ValuesSlot v = (SqlStageMetrics.ValuesSlot) e.getValue();
          valueLists.computeIfAbsent(id, k -> new ArrayList<>()).add(v.values);
          if (v.hasMax) {
            long[] max = maxes.get(id);
            if (max == null) {
              maxes.put(id, new long[] {v.maxValue, stage.stageId, stage.attemptId, v.maxTaskId});
            } else if (v.maxValue > max[0]) {
              max[0] = v.maxValue;
              max[1] = stage.stageId;
              max[2] = stage.attemptId;
              max[3] = v.maxTaskId;
            }
          }
        }
      }
    }
    // The driver's updates: one more value each; a driver value above the tasks' largest makes
    // the label "(driver)".
    Map<Long, List<Long>> driverValues = new HashMap<>();
    for (int i = 0; i < exec.driverCount; i++) {
      long id = exec.driverUpdates[2 * i];
      long value = exec.driverUpdates[2 * i + 1];
      if (!types.containsKey(id)) {
        continue;
      }
      boolean present = sums.containsKey(id) || valueLists.containsKey(id) || driverValues.containsKey(id);
      if (present) {
        long[] max = maxes.get(id);
        if (max != null && value > max[0]) {
          maxes.remove(id);
        }
      }
      driverValues.computeIfAbsent(id, k -> new ArrayList<>()).add(value);
    }
    Map<Long, String> out = new HashMap<>();
    java.util.Set<Long> ids = new java.util.HashSet<>(sums.keySet());
    ids.addAll(valueLists.keySet());
    ids.addAll(driverValues.keySet());
    long[] scratch = new long[0];
    for (long id : ids) {
      String type = types.get(id);
      List<Long> driver = driverValues.getOrDefault(id, List.of());
      long[] max = maxes.getOrDefault(id, new long[0]);
      if (SqlMetricFormat.SUM.equals(type) && !valueLists.containsKey(id)) {
        long sum = sums.containsKey(id) ? sums.get(id)[0] : 0;
        for (long d : driver) {
          sum += d;
        }
        out.put(id, SqlMetricFormat.sum(sum));
        continue;
      }
      if (!SqlMetricFormat.isKnown(type) && facts != null) {
        facts.note("SQL execution " + exec.id + ": metric type '" + type + "' is unknown to Spark; "
            + "its value is shown as N/A");
      }
      int count = driver.size() + (sums.containsKey(id) ? 1 : 0);
      for (SqlStageMetrics.PackedValues v : valueLists.getOrDefault(id, List.of())) {
        count += v.size();
      }
      if (scratch.length < count) {
        scratch = new long[count];
      }
      int n = 0;
      if (sums.containsKey(id)) {
        scratch[n++] = sums.get(id)[0]; // a metric whose type changed: its sum is one value
      }
      for (SqlStageMetrics.PackedValues v : valueLists.getOrDefault(id, List.of())) {
        v.copyTo(scratch, n);
        n += v.size();
      }
      for (long d : driver) {
        scratch[n++] = d;
      }
      out.put(id, SqlMetricFormat.stringValue(type, scratch, n, max));
    }
    return out;
  }

  /** The executions as the History Server lists them, by id. */
  List<ExecutionData> toApi(long now) {
    List<ExecutionData> out = new ArrayList<>(stored.size());
    for (Execution e : stored.values()) {
      out.add(e.toApi(graphs.get(e.id), now));
    }
    return out;
  }

  /** One execution as the History Server answers it. */
  Optional<ExecutionData> toApi(long id, long now) {
    Execution e = stored.get(id);
    return e == null ? Optional.empty() : Optional.of(e.toApi(graphs.get(id), now));
  }

  /** Approximate bytes held by the values of running stages, for tests. */
  long liveStageBytes() {
    long bytes = 0;
    for (SqlStageMetrics s : stageMetrics.values()) {
      bytes += s.retainedBytes();
    }
    return bytes;
  }

  /** Spark's {@code LiveExecutionData}; once written for the last time, it no longer changes. */
  static final class Execution {
    final long id;
    String description = "";
    String physicalPlanDescription = "";
    /** Accumulator id to metric type, every metric any plan of this execution had. */
    final Map<Long, String> metricTypes = new HashMap<>();
    long submissionTime = -1;
    long completionTime;
    boolean hasCompletionTime;
    /** Null when the end event had none (logs of Spark before 3.4). */
    String errorMessage;
    /** Jobs in insertion order (Scala's order is derived when listing). */
    final LinkedHashMap<Integer, JobExecutionStatus> jobs = new LinkedHashMap<>();
    final LinkedHashSet<Integer> stages = new LinkedHashSet<>();
    long[] driverUpdates = new long[0];
    int driverCount;
    /** The formatted values, once aggregated. */
    Map<Long, String> metricValues;
    int endEvents;
    boolean written;
    long storedCompletionTime = Long.MIN_VALUE;

    Execution(long id) {
      this.id = id;
    }

    void addMetrics(List<SqlPlanGraph.Metric> metrics) {
      for (SqlPlanGraph.Metric m : metrics) {
        metricTypes.put(m.accumulatorId(), m.metricType());
      }
    }

    void addDriverUpdate(long id, long value) {
      driverUpdates = SqlStageMetrics.grow(driverUpdates, 2 * driverCount + 2);
      driverUpdates[2 * driverCount] = id;
      driverUpdates[2 * driverCount + 1] = value;
      driverCount++;
    }

    /** Spark's {@code SQLExecutionUIData.executionStatus}. */
    String status() {
      if (errorMessage != null) {
        return errorMessage.isEmpty() ? "COMPLETED" : "FAILED";
      }
      if (!hasCompletionTime) {
        return "RUNNING";
      }
      return jobs.containsValue(JobExecutionStatus.FAILED) ? "FAILED" : "COMPLETED";
    }

    ExecutionData toApi(SqlPlanGraph graph, long now) {
      List<Integer> running = new ArrayList<>();
      List<Integer> success = new ArrayList<>();
      List<Integer> failed = new ArrayList<>();
      for (int jobId : ScalaHashOrder.order(jobs.keySet())) {
        switch (jobs.get(jobId)) {
          case RUNNING:
            running.add(jobId);
            break;
          case SUCCEEDED:
            success.add(jobId);
            break;
          case FAILED:
            failed.add(jobId);
            break;
          default:
            break;
        }
      }
      SqlPlanGraph g = graph == null ? SqlPlanGraph.EMPTY : graph;
      return new ExecutionData(
          id,
          status(),
          description,
          physicalPlanDescription,
          Instant.ofEpochMilli(submissionTime),
          (hasCompletionTime ? completionTime : now) - submissionTime,
          running,
          success,
          failed,
          g.toApiNodes(metricValues == null ? Map.of() : metricValues),
          g.toApiEdges());
    }
  }
}
