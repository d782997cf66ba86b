package io.sparkrca.analysis;

import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.app.ApplicationFacts;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.evidence.ApplicationEvidence;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.model.TaskSorting;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.EvidenceRef;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What analyzers read: the {@link Evidence}, the application (when there is one) with its facts
 * and effective configuration, and what is derived from them once per analysis: stages and jobs in
 * time order, the application's outcome and time span, the cores it had, the driver's time zone,
 * the platform, task quantiles per stage, and the SQL execution behind each stage. Not
 * thread-safe; one context per analysis.
 *
 * <pre>{@code
 * for (StageData s : ctx.completedStages()) {
 *   ctx.quantiles(s).ifPresent(q -> System.out.println(s.stageId() + " median " + q.duration().get(2) + " ms"));
 * }
 * }</pre>
 */
public final class AnalysisContext {
  /** The quantiles {@link #quantiles(StageData)} computes: min, p25, median, p75, max. */
  public static final List<Double> QUANTILES = List.of(0.0, 0.25, 0.5, 0.75, 1.0);

  /** Where the application ran. */
  public enum Platform {
    LOCAL, LOCAL_CLUSTER, STANDALONE, YARN, KUBERNETES, DATAPROC_SERVERLESS, DATAPROC_CLUSTER, UNKNOWN
  }

  private final Evidence evidence;
  private final KnowledgeBase knowledge;
  private final Optional<SparkApplication> app;
  private final ApplicationFacts facts;
  private final EffectiveConf conf;
  private final List<StageData> stages;
  private final List<JobData> jobs;
  private final List<ExecutionData> executions;
  private final List<ExecutorSummary> executors;
  private final Map<Long, Optional<TaskMetricDistributions>> quantiles = new HashMap<>();
  private final Map<Integer, Integer> jobOfStage = new HashMap<>();
  private final Map<Integer, Long> executionOfJob = new HashMap<>();
  private final Map<Class<?>, Object> derived = new HashMap<>();
  private Optional<AnalysisContext> baseline;
  private Optional<ZoneId> zone;

  /** The context an analysis of {@code evidence} reads; what {@link io.sparkrca.analysis.rca.RcaEngine} hands each analyzer. */
  public static AnalysisContext of(Evidence evidence) {
    return of(evidence, KnowledgeBase.standard());
  }

  /** As {@link #of(Evidence)}, classifying failures with {@code knowledge}. */
  public static AnalysisContext of(Evidence evidence, KnowledgeBase knowledge) {
    return new AnalysisContext(java.util.Objects.requireNonNull(evidence, "evidence"),
        java.util.Objects.requireNonNull(knowledge, "knowledge"));
  }

  AnalysisContext(Evidence evidence) {
    this(evidence, KnowledgeBase.standard());
  }

  AnalysisContext(Evidence evidence, KnowledgeBase knowledge) {
    this.evidence = evidence;
    this.knowledge = knowledge;
    this.app = evidence.app();
    if (app.isPresent()) {
      SparkApplication a = app.get();
      this.facts = a.facts();
      EffectiveConf conf = EffectiveConf.of(a);
      List<StageData> s = new ArrayList<>(a.stages(StageQuery.all()));
      s.sort(Comparator.comparingInt(StageData::stageId).thenComparingInt(StageData::attemptId));
      this.stages = List.copyOf(s);
      List<JobData> j = new ArrayList<>(a.jobs(Set.of()));
      j.sort(Comparator.comparingInt(JobData::jobId));
      this.jobs = List.copyOf(j);
      this.executions = a.sqlExecutions();
      this.executors = a.executors(false);
      this.conf = conf.observed(rebuiltFromLogs(), heaps(executors, conf));
      for (JobData job : jobs) {
        for (int stage : job.stageIds()) {
          jobOfStage.putIfAbsent(stage, job.jobId());
        }
      }
      for (ExecutionData x : executions) {
        for (List<Integer> ids : List.of(x.successJobIds(), x.failedJobIds(), x.runningJobIds())) {
          ids.forEach(id -> executionOfJob.putIfAbsent(id, x.id()));
        }
      }
    } else {
      this.facts = new ApplicationFacts("", 0, 0, 0, 0, 0, 0, 0, 0, List.of(), 0, List.of(), List.of(),
          List.of(), List.of(), Optional.empty());
      this.conf = EffectiveConf.of(Map.of(), Optional.empty());
      this.stages = List.of();
      this.jobs = List.of();
      this.executions = List.of();
      this.executors = List.of();
    }
  }

  /** Everything collected. */
  public Evidence evidence() {
    return evidence;
  }

  /** The application, when it could be read. */
  public Optional<SparkApplication> app() {
    return app;
  }

  /** The application's facts (empty facts when there is no application). */
  public ApplicationFacts facts() {
    return facts;
  }

  /** The effective configuration (Spark's defaults where unset). */
  public EffectiveConf conf() {
    return conf;
  }

  /** Every stage attempt, oldest stage first, attempts in order. */
  public List<StageData> stages() {
    return stages;
  }

  /** Stage attempts that completed (not failed, skipped or pending). */
  public List<StageData> completedStages() {
    return stages.stream().filter(s -> s.status() == StageStatus.COMPLETE).toList();
  }

  /** Jobs, oldest first. */
  public List<JobData> jobs() {
    return jobs;
  }

  /** SQL executions, oldest first. */
  public List<ExecutionData> executions() {
    return executions;
  }

  /** Executors and the driver, removed ones included. */
  public List<ExecutorSummary> executors() {
    return executors;
  }

  /** The job a stage first ran in. */
  public Optional<JobData> jobOf(int stageId) {
    Integer j = jobOfStage.get(stageId);
    return j == null ? Optional.empty() : jobs.stream().filter(x -> x.jobId() == j).findFirst();
  }

  /** The SQL execution a stage ran for. */
  public Optional<ExecutionData> executionOf(int stageId) {
    Integer j = jobOfStage.get(stageId);
    Long x = j == null ? null : executionOfJob.get(j);
    return x == null ? Optional.empty() : executions.stream().filter(e -> e.id() == x).findFirst();
  }

  /** The stages (non-skipped attempts' ids, ascending) an execution ran. */
  public List<Integer> stagesOf(ExecutionData x) {
    java.util.TreeSet<Integer> ids = new java.util.TreeSet<>();
    for (JobData j : jobs) {
      if (executionOfJob.getOrDefault(j.jobId(), -1L) == x.id()) {
        for (int s : j.stageIds()) {
          if (stages.stream().anyMatch(st -> st.stageId() == s && st.status() != StageStatus.SKIPPED
              && st.status() != StageStatus.PENDING)) {
            ids.add(s);
          }
        }
      }
    }
    return new ArrayList<>(ids);
  }

  /** Task quantiles ({@link #QUANTILES}) of a stage attempt's successful tasks, cached. */
  public Optional<TaskMetricDistributions> quantiles(StageData s) {
    long key = ((long) s.stageId() << 32) | s.attemptId();
    return quantiles.computeIfAbsent(key, k -> app.flatMap(a -> a.taskSummary(s.stageId(), s.attemptId(), QUANTILES)));
  }

  /**
   * Tells the source that the task lists of these attempts are read next, so that a remote one
   * (Dataproc) fetches them together; see {@link SparkApplication#prefetchTasks}.
   */
  public void prefetchTasks(List<StageData> attempts) {
    if (!attempts.isEmpty()) {
      app.ifPresent(a -> a.prefetchTasks(attempts));
    }
  }

  /** The slowest task of a stage attempt. */
  public Optional<TaskData> slowestTask(StageData s) {
    return app.flatMap(a -> a.tasks(s.stageId(), s.attemptId(),
        TaskQuery.first(1).sortedBy(TaskSorting.DECREASING_RUNTIME)).stream().findFirst());
  }

  /** The wall time of a stage attempt, from submission to completion; 0 when unknown. */
  public static long wallMs(StageData s) {
    if (s.submissionTime().isEmpty() || s.completionTime().isEmpty()) {
      return 0;
    }
    return Math.max(0, s.completionTime().get().toEpochMilli() - s.submissionTime().get().toEpochMilli());
  }

  private Optional<ApplicationAttemptInfo> attempt() {
    return app.map(a -> a.info().latestAttempt());
  }

  /** When the application started (epoch ms), or -1. */
  public long startMs() {
    return attempt().map(ApplicationAttemptInfo::startTimeEpoch).filter(t -> t > 0).orElse(-1L);
  }

  /** When it ended, or (when it did not) the last time anything happened; -1 when unknown. */
  public long endMs() {
    Optional<ApplicationAttemptInfo> a = attempt();
    if (a.isPresent() && a.get().completed() && a.get().endTime().toEpochMilli() > 0) {
      return a.get().endTime().toEpochMilli();
    }
    long last = -1;
    for (StageData s : stages) {
      last = Math.max(last, s.completionTime().map(Instant::toEpochMilli).orElse(-1L));
    }
    for (JobData j : jobs) {
      last = Math.max(last, j.completionTime().map(Instant::toEpochMilli).orElse(-1L));
    }
    return last;
  }

  /** How long the application ran (to its end, or to its last event), at least 1 ms when known; 0 when unknown. */
  public long durationMs() {
    long s = startMs();
    long e = endMs();
    return s > 0 && e >= s ? Math.max(1, e - s) : 0;
  }

  /** Whether the application's end was recorded. */
  public boolean completed() {
    return attempt().map(ApplicationAttemptInfo::completed).orElse(false);
  }

  /** How the application ended, from everything collected. */
  public ApplicationRef.Outcome outcome() {
    if (app.isEmpty()) {
      return evidence.count(LogSignatures.DRIVER_UNCAUGHT) > 0 ? ApplicationRef.Outcome.FAILED : ApplicationRef.Outcome.UNKNOWN;
    }
    boolean failed = jobs.stream().anyMatch(j -> j.status() == JobExecutionStatus.FAILED)
        || !facts.sqlFailures().isEmpty()
        || facts.exitCode().map(c -> c != 0).orElse(false)
        || evidence.driverLogs().stream().anyMatch(l -> l.count(LogSignatures.DRIVER_UNCAUGHT) > 0);
    if (failed) {
      return ApplicationRef.Outcome.FAILED;
    }
    return completed() ? ApplicationRef.Outcome.SUCCEEDED : ApplicationRef.Outcome.INCOMPLETE;
  }

  /** The cores the application's executors had (the driver's in local mode), at most at once. */
  public int totalCores() {
    int max = 0;
    List<long[]> spans = new ArrayList<>();
    for (ExecutorSummary e : executors) {
      if (e.totalCores() <= 0) {
        continue;
      }
      long from = e.addTime().toEpochMilli();
      long to = e.removeTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
      spans.add(new long[] {from, to, e.totalCores()});
    }
    for (long[] probe : spans) {
      int at = 0;
      for (long[] s : spans) {
        if (s[0] <= probe[0] && probe[0] < s[1]) {
          at += (int) s[2];
        }
      }
      max = Math.max(max, at);
    }
    return max;
  }

  /**
   * A value derived from this analysis's evidence once and shared by the analyzers that read it
   * (one per type): the first call computes it, later calls return the same instance.
   *
   * <pre>{@code
   * Grouping byHost = ctx.derived(Grouping.class, Grouping::of); // Grouping: an analyzer's own type
   * }</pre>
   */
  public <T> T derived(Class<T> type, java.util.function.Function<AnalysisContext, T> compute) {
    Object known = derived.get(type);
    if (known != null) {
      return type.cast(known);
    }
    // not computeIfAbsent: a computation may ask for another derived value
    T value = Objects.requireNonNull(compute.apply(this), "a derived value");
    derived.put(type, value);
    return value;
  }

  /** The value of {@code type} when {@link #derived} already computed it; never computes it. */
  public <T> Optional<T> derivedIfComputed(Class<T> type) {
    return Optional.ofNullable(derived.get(type)).map(type::cast);
  }

  /** The driver's time zone ({@code user.timezone}), in which its log lines' times are written. */
  public Optional<ZoneId> zone() {
    if (zone == null) {
      zone = driverZone(); // read once: a source may fetch or redact the property on every call
    }
    return zone;
  }

  private Optional<ZoneId> driverZone() {
    return app.flatMap(a -> a.systemProperty("user.timezone")).filter(v -> !v.isBlank()).flatMap(v -> {
      try {
        return Optional.of(ZoneId.of(v.trim()));
      } catch (DateTimeException e) {
        return Optional.empty();
      }
    });
  }

  /** The zone to place log times in: the driver's, or UTC (then every such time is approximate). */
  public ZoneId zoneOrUtc() {
    return zone().orElse(ZoneOffset.UTC);
  }

  /** Where the application ran, from its master and properties. */
  public Platform platform() {
    // Only Serverless batches and sessions have the sparkApplications API.
    if (source().map(s -> s.provider().startsWith("dataproc sparkApplications")).orElse(false)) {
      return Platform.DATAPROC_SERVERLESS;
    }
    String master = conf.set("spark.master").orElse("").toLowerCase(Locale.ROOT);
    Map<String, String> set = conf.setProperties();
    boolean dataproc = set.keySet().stream().anyMatch(k -> k.startsWith("spark.dataproc."));
    if (dataproc && set.keySet().stream().anyMatch(k -> k.startsWith("spark.dataproc.driver") || k.contains("serverless")
        || k.equals("spark.dataproc.sparkBigquery.connector.version") || k.startsWith("spark.dataproc.scaling"))) {
      return Platform.DATAPROC_SERVERLESS;
    }
    if (dataproc) {
      return Platform.DATAPROC_CLUSTER;
    }
    if (master.startsWith("local-cluster")) {
      return Platform.LOCAL_CLUSTER;
    }
    if (master.startsWith("local")) {
      return Platform.LOCAL;
    }
    if (master.startsWith("k8s://")) {
      return Platform.KUBERNETES;
    }
    if (master.startsWith("yarn")) {
      return Platform.YARN;
    }
    if (master.startsWith("spark://")) {
      return Platform.STANDALONE;
    }
    return Platform.UNKNOWN;
  }

  /**
   * Why the application is an interactive session, in words, or empty for a batch application.
   * In a session the time with no job running is mostly time between the user's commands, not
   * driver work. Recognised: Spark's shells ({@code spark.repl.class.uri}, which the Scala shell and
   * notebook interpreters set, or the names spark-shell, pyspark and sparkR give the application),
   * the SQL shell and Thrift server ({@code SparkSQL::host}), and Dataproc Serverless sessions.
   *
   * <pre>{@code
   * ctx.interactiveSession().ifPresent(why -> System.out.println("interactive: " + why));
   * }</pre>
   */
  public Optional<String> interactiveSession() {
    if (source().map(s -> s.provider().startsWith("dataproc sparkApplications") && s.provider().contains("/sessions/"))
        .orElse(false)) {
      return Optional.of("a Dataproc Serverless session");
    }
    if (conf.set("spark.repl.class.uri").isPresent()) {
      return Optional.of("a Spark shell or notebook (spark.repl.class.uri is set)");
    }
    String name = app.map(a -> a.info().name()).orElse("");
    return switch (name) {
      case "Spark shell" -> Optional.of("a Spark shell (the application is named 'Spark shell')");
      case "PySparkShell" -> Optional.of("a PySpark shell (the application is named 'PySparkShell')");
      case "SparkR", "sparkR" -> Optional.of("a SparkR shell (the application is named '" + name + "')");
      default -> name.startsWith("SparkSQL::")
          ? Optional.of("the Spark SQL shell or Thrift server (the application is named '" + name + "')")
          : Optional.empty();
    };
  }

  /** Whether executors are the driver's own threads (local mode): the driver's heap is theirs. */
  public boolean localMode() {
    return platform() == Platform.LOCAL;
  }

  /** The heap tasks run in: {@code spark.driver.memory} in local mode, else {@code spark.executor.memory}. */
  public String heapProperty() {
    return localMode() ? "spark.driver.memory" : "spark.executor.memory";
  }

  /** The baseline run's context, when a baseline was collected. */
  public Optional<AnalysisContext> baseline() {
    if (baseline == null) {
      baseline = evidence.baseline().map(b -> new AnalysisContext(new Evidence(Optional.of(b), Optional.empty(),
          List.of(), List.of(), List.of(), List.of())));
    }
    return baseline;
  }

  /** The failure knowledge base failures are classified with. */
  public KnowledgeBase knowledge() {
    return knowledge;
  }

  /**
   * The heap the driver's and the executors' JVMs ran with, by the property that sets it, from the
   * on-heap storage memory their block managers reported: (heap - 300 MiB reserved) x
   * spark.memory.fraction. Empty for a JVM that reported none.
   */
  private static Map<String, Long> heaps(List<ExecutorSummary> executors, EffectiveConf conf) {
    double fraction;
    try {
      fraction = Double.parseDouble(conf.get("spark.memory.fraction").orElse("0.6"));
    } catch (NumberFormatException e) {
      return Map.of();
    }
    Map<String, Long> out = new HashMap<>();
    for (ExecutorSummary e : executors) {
      long onHeap = e.memoryMetrics().map(m -> m.totalOnHeapStorageMemory()).filter(m -> m > 0).orElse(e.maxMemory());
      if (onHeap <= 0 || fraction <= 0) {
        continue;
      }
      long heap = Math.round(onHeap / fraction) + (300L << 20);
      out.merge(e.id().equals("driver") ? "spark.driver.memory" : "spark.executor.memory", heap, Math::max);
    }
    return out;
  }

  /**
   * Whether the application was rebuilt from logs (there was no event log): its numbers are what
   * the lines gave, and what logs do not show (GC time, spill sizes, plans, retries that were not
   * logged) is unknown, not zero.
   */
  public boolean rebuiltFromLogs() {
    return evidence.application().map(a -> a.provider().equals(EvidenceCollector.FROM_LOGS)).orElse(false);
  }

  /** Where the application came from. */
  public Optional<ApplicationEvidence> source() {
    return evidence.application();
  }

  /**
   * A reference to a fact: an event-log line when the source has lines, else the History Server
   * path it was read from; for an application rebuilt from logs, the log and line the fact was read
   * from.
   */
  public EvidenceRef factRef(String source, long line, String detail) {
    String where = source.isEmpty() ? evidence.application().map(ApplicationEvidence::uri).orElse("") : source;
    if (rebuiltFromLogs()) {
      return new EvidenceRef(EvidenceRef.Kind.LOG, where, Math.max(0, line), detail); // a log's line, not an event's
    }
    return new EvidenceRef(line > 0 ? EvidenceRef.Kind.EVENT_LOG : EvidenceRef.Kind.API, where, line, detail);
  }

  /** A reference to an application-level value (a stage's metrics), by its History Server path. */
  public EvidenceRef apiRef(String path, String detail) {
    String id = app.map(a -> a.info().id()).orElse("");
    return new EvidenceRef(EvidenceRef.Kind.API, "applications/" + id + "/" + path, 0, detail);
  }

  /** A reference to a configuration property's effective value. */
  public EvidenceRef confRef(String key) {
    String id = app.map(a -> a.info().id()).orElse("");
    return new EvidenceRef(EvidenceRef.Kind.CONFIG, "applications/" + id + "/environment", 0, conf.cite(key));
  }
}
