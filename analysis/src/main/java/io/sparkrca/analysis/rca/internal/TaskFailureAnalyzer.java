package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.core.format.Formats.humanBytes;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.analysis.rca.internal.Support.fix;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.tune;

import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.SqlNode;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Failed tasks (the failure playbook): tells a deterministic data or code failure (the same
 * exception at the same partition on every attempt; the stage aborts) from flaky infrastructure (a
 * retry succeeded), and names the specific cause when the exception shows one: an out-of-memory
 * error by kind (with the memory settings and the operators behind it), a missing class, a
 * serialization error, a Python UDF, a write failure, a missing input or an access denial. The
 * first user frame of the stack trace is the code location.
 */
public final class TaskFailureAnalyzer implements Analyzer {
  /** A local master without a failure count ({@code local}, {@code local[4]}, {@code local[*]}): one attempt per task. */
  private static final Pattern LOCAL_MASTER = Pattern.compile("local(\\[[^,\\]]*\\])?");
  private static final Pattern LOCAL_WITH_FAILURES = Pattern.compile("local\\[[^,\\]]*,\\s*(\\d+)\\]");

  /**
   * The attempts a task gets: {@code spark.task.maxFailures} when set; in local mode the master's
   * own count ({@code local[N,F]}), else 1; otherwise Spark's default 4.
   */
  static int maxFailures(AnalysisContext ctx) {
    java.util.OptionalLong set = ctx.conf().set("spark.task.maxFailures").isPresent()
        ? ctx.conf().number("spark.task.maxFailures") : java.util.OptionalLong.empty();
    if (set.isPresent()) {
      return (int) set.getAsLong();
    }
    String master = ctx.conf().get("spark.master").orElse("").trim();
    Matcher m = LOCAL_WITH_FAILURES.matcher(master);
    if (m.matches()) {
      return Integer.parseInt(m.group(1));
    }
    return LOCAL_MASTER.matcher(master).matches() ? 1 : 4;
  }

  static final Pattern ABORT = Pattern.compile("Task (\\d+) in stage (\\d+)\\.(\\d+) failed (\\d+) times");

  @Override
  public String name() {
    return "task-failures";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    for (TaskFailureGroup g : ctx.facts().taskFailures()) {
      if (!g.isException()) {
        continue; // lost executors and fetch failures: ExecutorLossAnalyzer; kills: fallout
      }
      out.add(analyze(ctx, g));
    }
    return out;
  }

  private Candidate analyze(AnalysisContext ctx, TaskFailureGroup g) {
    String text = g.firstDetail().isEmpty() ? g.description() : g.firstDetail();
    Optional<FailureText.Classified> classified = FailureText.classify(text, false, ctx.knowledge());
    Optional<RootCauseKind> specific = classified.map(FailureText.Classified::kind);
    boolean decisive = classified.map(FailureText.Classified::decisive).orElse(false);
    Optional<StageFailure> abort = abortOf(ctx, g);
    boolean fatal = abort.isPresent();
    // Rebuilt from logs, a failure without its stage's abort may still have ended the job: only a
    // successful retry seen in the logs says it did not.
    boolean outcomeUnknown = !fatal && ctx.rebuiltFromLogs() && !retrySucceeded(ctx, g);
    int partition = g.partitionIndex();
    int maxFailures = maxFailures(ctx);
    int failedTimes = (int) g.count();
    int stage = g.stageId();
    List<Integer> stages = g.stageIds();
    if (abort.isPresent()) {
      Matcher m = ABORT.matcher(abort.get().reason());
      if (m.find()) {
        // The culprit is the task that used up its attempts and aborted the job, not the group's first
        // failure (which may be in a stage that was cancelled later).
        partition = Integer.parseInt(m.group(1));
        stage = Integer.parseInt(m.group(2));
        failedTimes = Integer.parseInt(m.group(4));
        List<Integer> ordered = new ArrayList<>(List.of(stage));
        g.stageIds().stream().filter(id -> id != Integer.parseInt(m.group(2))).forEach(ordered::add);
        stages = ordered;
      }
    }
    String headline = FailureText.headline(text);
    Optional<String> code = FailureText.codeLocation(text);
    Culprit culprit = Culprit.stages(stages).withPartition(partition).withExecutors(g.executorIds());
    if (g.hosts().size() == 1) {
      culprit = culprit.withHost(g.hosts().get(0));
    }
    EvidenceRef first = ctx.factRef(g.source(), g.firstLine(),
        "task " + g.partitionIndex() + "." + g.attempt() + " of stage " + g.stageId() + "." + g.stageAttemptId()
            + " (TID " + g.taskId() + ", executor " + g.executorId() + ") failed:\n" + FailureText.excerpt(text, 25));
    List<EvidenceRef> evidence = new ArrayList<>();
    evidence.add(first);
    abort.ifPresent(a -> evidence.add(ctx.factRef(a.source(), a.line(), "stage " + a.stageId() + "." + a.attemptId()
        + " aborted: " + firstLine(a.reason()))));
    List<Metric> metrics = new ArrayList<>(List.of(
        new Metric("failedAttempts", g.count(), "count"),
        new Metric("partitions", g.partitionIndices().size(), "count"),
        new Metric("executors", g.executorIds().size(), "count")));
    long cost = retryCost(ctx, g);

    if (specific.isPresent() && specific.get().isOutOfMemory()) {
      return oom(ctx, g, specific.get(), fatal, culprit, evidence, metrics, headline, code, cost);
    }
    if (specific.isPresent()) {
      RootCauseKind k = specific.get();
      // Not one bad record: every partition may fail alike, so the first failure is the culprit.
      culprit = Culprit.stages(g.stageIds()).withPartition(g.partitionIndex()).withExecutors(g.executorIds());
      String where = culprit.describe();
      Candidate.Builder b = Candidate.builder(finding(k, fatal ? Severity.CRITICAL : Severity.HIGH,
              k.title() + " in stage " + g.stageId(),
              Formats.count(g.count(), "task attempt") + " failed with " + headline + (fatal ? "; the stage aborted" : "; retries succeeded"),
              culprit, metrics, fatal ? 0 : cost, Support.share(ctx, cost), evidence, name()))
          .confidence(decisive ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
          .explanation("Tasks of " + where + " failed with " + headline + "."
              + code.map(c -> " The first frame of user code is " + c + ".").orElse("")
              + (fatal ? " The partition failed " + (failedTimes == 1 ? "once" : failedTimes + " times") + " and the stage, then the job, aborted."
                  : outcomeUnknown ? " The logs do not show whether a retry succeeded."
                  : " A retry succeeded, so the job went on."))
          .codeLocation(code)
          .time(g.firstTime())
          .explainsFailure(fatal || outcomeUnknown);
      if (!decisive) {
        b.toConfirm("the task's full error (the event log, or the executor's log) naming " + k.title().toLowerCase(
            java.util.Locale.ROOT));
      }
      Remedies.forFailure(ctx, k, text, classified.flatMap(FailureText.Classified::family)).forEach(b::recommend);
      if (code.isPresent()) {
        b.want(EvidenceKind.CODE, "the job's JAR or script would show the failing line");
      }
      return b.build();
    }
    if (outcomeUnknown) {
      return unknownOutcome(ctx, g, culprit, evidence, metrics, headline, code);
    }
    if (fatal) {
      // One attempt allowed (spark.task.maxFailures=1) or seen: one failure does not show determinism.
      boolean oneAttempt = failedTimes <= 1 || maxFailures <= 1;
      boolean everyAttempt = !oneAttempt && g.partitionIndices().size() == 1 && g.count() >= Math.min(failedTimes, maxFailures);
      boolean severalExecutors = g.executorIds().size() > 1 || g.hosts().size() > 1;
      String spread = severalExecutors ? " on " + g.executorIds().size() + " different executors" : " on executor " + g.executorId();
      String allowed = maxFailures > 1 ? "it was attempted only once"
          : LOCAL_MASTER.matcher(ctx.conf().get("spark.master").orElse("")).matches()
              && ctx.conf().set("spark.task.maxFailures").isEmpty()
              ? "spark.master=" + ctx.conf().get("spark.master").orElse("") + " allows no retry; local[N,F] allows F attempts"
              : "spark.task.maxFailures=" + maxFailures + " allowed no retry";
      Candidate.Builder b = Candidate.builder(finding(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Severity.CRITICAL,
              "Partition " + partition + " of stage " + stage + (oneAttempt ? " failed on its only attempt" : " fails on every attempt"),
              "partition " + partition + " failed " + (oneAttempt ? "its only attempt" : failedTimes + " of " + failedTimes
                  + " attempts") + " with " + headline + spread,
              culprit, metrics, 0, 0, evidence, name()))
          .confidence(everyAttempt ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
          .explanation(oneAttempt
              ? "Partition " + partition + " of stage " + stage + " threw " + headline + spread + " on its only attempt ("
                  + allowed + "), so Spark aborted the stage and the job. One failure does not show that it is "
                  + "deterministic: a record this partition holds, or the code that processes it, would fail every "
                  + "attempt, but so far only one was made, and a transient fault fails one attempt too."
                  + code.map(c -> " The first frame of user code is " + c + ".").orElse("")
              : "Partition " + partition + " of stage " + stage + " threw " + headline + " on every one of its "
              + failedTimes + " attempts" + spread + ", so Spark aborted the stage and the job. The same exception at the same "
              + "partition on every attempt is a deterministic failure: a record this partition holds, or the code "
              + "that processes it, not the machine it ran on."
              + code.map(c -> " The first frame of user code is " + c + ".").orElse(""))
          .codeLocation(code)
          .time(g.firstTime())
          .explainsFailure(true)
          .explains(RootCauseKind.FLAKY_INFRASTRUCTURE);
      if (oneAttempt) {
        b.toConfirm("a run that allows retries (spark.task.maxFailures=4, Spark's default): the same failure on every "
            + "attempt confirms the data, a successful retry a transient fault");
      } else if (!everyAttempt) {
        b.toConfirm("the failures are spread over " + g.partitionIndices().size() + " partitions; their task errors "
            + "should all name the same bad input");
      }
      if (!severalExecutors && !ctx.localMode()) {
        b.against(ctx.factRef(g.source(), g.firstLine(), "every attempt ran on executor " + g.executorId()
            + ": one bad host could also fail the same partition every time"));
      }
      b.recommend(fix("Find and fix the input that partition " + partition + " holds, or the code that cannot handle it"
              + code.map(c -> " (" + c + ")").orElse("") + ": " + headline + ".",
          oneAttempt ? "Only one attempt was made (" + allowed + "): if a retry also fails the same way, retrying or adding "
              + "resources cannot help." : "It fails the same way on every attempt, so retrying or adding resources cannot help.",
          List.of()));
      b.recommend(tune("Make bad records visible instead of fatal where the format allows it: read with "
              + "mode=PERMISSIVE and a columnNameOfCorruptRecord, or use try_cast/try_to_number for parsing, "
              + "and count or route the rejects.",
          "A single malformed record should not abort a whole job.", List.of()));
      b.want(EvidenceKind.CODE, "the job's code would show the failing line");
      return b.build();
    }
    // Retries succeeded.
    // One host is a suspect only where other hosts ran executors too (a local cluster's workers share one).
    boolean oneHost = g.hosts().size() == 1 && !ctx.localMode() && ctx.executors().size() > 2
        && ctx.executors().stream().filter(e -> !e.id().equals("driver"))
            .map(e -> Support.host(e.hostPort())).distinct().count() > 1;
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.FLAKY_INFRASTRUCTURE, Severity.MEDIUM,
            "A transient task failure in stage " + g.stageId() + " that a retry fixed",
            Formats.count(g.count(), "attempt") + " failed with " + headline + " and succeeded on retry",
            culprit, metrics, cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation("Partition " + g.partitionIndex() + " of stage " + g.stageId() + " failed with " + headline
            + " on attempt " + g.attempt() + " and succeeded when retried, so the job went on: a transient failure "
            + "(a reset connection, a slow or flaky host, a storage hiccup), not bad data."
            + (oneHost ? " Every failure was on host " + g.hosts().get(0) + ": suspect that host." : ""))
        .codeLocation(code)
        .time(g.firstTime())
        .explainsFailure(false);
    b.recommend(Support.investigate("Nothing needs fixing now; if it recurs, look at the hosts and services the "
        + "failing task used" + (g.hosts().isEmpty() ? "" : " (" + String.join(", ", g.hosts()) + ")") + ".",
        "Spark retried the task (spark.task.maxFailures=" + maxFailures + ") and the retry succeeded."));
    if (oneHost) {
      b.recommend(tune("Let Spark stop scheduling on a host that keeps failing tasks.",
          "Every failure was on one host.", List.of(prop(ctx.conf(), "spark.excludeOnFailure.enabled", "true"))));
    }
    return b.build();
  }

  /**
   * A task failure in logs whose outcome they do not show (no abort, no successful retry): the
   * error is named, the verdict waits for the record of the task's other attempts.
   */
  private Candidate unknownOutcome(AnalysisContext ctx, TaskFailureGroup g, Culprit culprit, List<EvidenceRef> evidence,
      List<Metric> metrics, String headline, Optional<String> code) {
    return Candidate.builder(finding(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Severity.HIGH,
            "Partition " + g.partitionIndex() + " of stage " + g.stageId() + " failed with " + headline,
            Formats.count(g.count(), "attempt") + " failed with " + headline + "; the logs do not show whether a retry succeeded",
            culprit, metrics, 0, 0, evidence, name()))
        .confidence(Confidence.LEADING_HYPOTHESIS)
        .explanation("Partition " + g.partitionIndex() + " of stage " + g.stageId() + " failed with " + headline
            + ". The logs given show no successful retry and no abort of the stage: if every attempt failed alike, "
            + "the partition holds input (or meets code) that fails deterministically; if a retry succeeded, it was "
            + "transient." + code.map(c -> " The first frame of user code is " + c + ".").orElse(""))
        .toConfirm("whether the partition's other attempts failed the same way: the event log records every attempt")
        .codeLocation(code)
        .time(g.firstTime())
        .explainsFailure(true)
        .want(EvidenceKind.EVENT_LOG, "it records every attempt of the task and whether the stage aborted")
        .build();
  }

  /** Whether the logs show a successful attempt of the failed group's partition. */
  private static boolean retrySucceeded(AnalysisContext ctx, TaskFailureGroup g) {
    if (ctx.app().isEmpty()) {
      return false;
    }
    for (io.sparkrca.core.model.StageData s : ctx.stages()) {
      if (s.stageId() != g.stageId()) {
        continue;
      }
      for (io.sparkrca.core.model.TaskData t : ctx.app().get().tasks(s.stageId(), s.attemptId(),
          io.sparkrca.core.app.TaskQuery.all())) {
        if (t.index() == g.partitionIndex() && "SUCCESS".equals(String.valueOf(t.status()))) {
          return true;
        }
      }
    }
    return false;
  }

  /** The OOM of a task: the kind, the memory settings behind it, the operators, what to change. */
  private Candidate oom(AnalysisContext ctx, TaskFailureGroup g, RootCauseKind kind, boolean fatal, Culprit culprit,
      List<EvidenceRef> evidence, List<Metric> metrics, String headline, Optional<String> code, long cost) {
    EffectiveConf conf = ctx.conf();
    String heapKey = ctx.heapProperty();
    Optional<StageData> stage = ctx.stages().stream().filter(s -> s.stageId() == g.stageId()).findFirst();
    List<String> operators = operators(ctx, g.stageId());
    StringBuilder why = new StringBuilder();
    why.append("Tasks of ").append(culprit.describe()).append(" ran out of memory: ").append(headline).append(".");
    boolean gpu = kind == RootCauseKind.ACCELERATOR_OOM;
    String execs = g.executorIds().size() > 1 ? "s " + String.join(", ", g.executorIds()) : " " + g.executorId();
    if (gpu) {
      // The device's memory ran out, not the JVM's heap: the heap and Spark's memory shares are beside the point.
      why.append(" It was the GPU's memory on executor").append(execs).append(" that ran out, not the JVM's heap: a batch "
          + "needed more device memory than the RAPIDS pool had free, and splitting and retrying it did not make it fit.");
    } else {
      why.append(" The executor JVM").append(execs).append(" had ").append(conf.cite(heapKey));
      conf.get("spark.executor.cores").ifPresent(c -> why.append(" and ").append(conf.cite("spark.executor.cores")));
      why.append(".");
    }
    if (stage.isPresent()) {
      StageData s = stage.get();
      long input = s.inputBytes() + s.shuffleReadBytes();
      if (s.numTasks() > 0 && input > 0) {
        why.append(" The stage read ").append(humanBytes(input)).append(" in ").append(s.numTasks()).append(" tasks (")
            .append(humanBytes(input / (double) s.numTasks())).append(" per task)");
        metrics.add(new Metric("bytesPerTask", input / (double) s.numTasks(), "bytes"));
      } else if (s.inputRecords() > 0 && s.numTasks() > 0) {
        why.append(" The stage read ").append(s.inputRecords()).append(" records in ")
            .append(Formats.count(s.numTasks(), "task"));
        metrics.add(new Metric("recordsPerTask", s.inputRecords() / (double) s.numTasks(), "count"));
      }
      if (s.executorRunTime() > 0) {
        double gc = s.jvmGcTime() / (double) s.executorRunTime();
        why.append(why.charAt(why.length() - 1) == '.' ? " " : "; ").append("GC took ").append(Support.percent(gc))
            .append(" of its task time.");
        metrics.add(new Metric("stageGcShare", gc, "share"));
      } else if (why.charAt(why.length() - 1) != '.') {
        why.append('.');
      }
    }
    // Each task's share of the unified (execution + storage) memory: (heap - 300 MiB reserved)
    // x spark.memory.fraction, split between the tasks an executor runs at once.
    long heap = conf.bytes(heapKey).orElse(1L << 30);
    double fraction = conf.get("spark.memory.fraction").map(Double::parseDouble).orElse(0.6);
    long cores = ctx.localMode() ? Math.max(1, ctx.totalCores()) : conf.number("spark.executor.cores").orElse(1);
    long perTask = Math.max(0, Math.round((heap - (300L << 20)) * fraction / Math.max(1, cores)));
    if (kind != RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY && !gpu && perTask > 0) {
      why.append(" Each task's share of Spark's unified memory is about ").append(humanBytes(perTask)).append(" ((")
          .append(EffectiveConf.sparkSize(heap)).append(" - 300 MiB reserved) x spark.memory.fraction ")
          .append(fraction).append(" / ").append(cores).append(cores == 1 ? " task" : " concurrent tasks")
          .append("); what user code keeps outside Spark's operators (collections in a UDF or mapPartitions) is not "
              + "bounded by it and is the usual culprit.");
      metrics.add(new Metric("unifiedMemoryPerTask", perTask, "bytes"));
    }
    if (kind == RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY) {
      long overhead = conf.bytes("spark.executor.memoryOverhead").orElse(Math.max(384L << 20, heap / 10));
      why.append(" Direct buffers live outside the heap, in the executor's overhead (")
          .append(conf.get("spark.executor.memoryOverhead").map(v -> "spark.executor.memoryOverhead=" + v)
              .orElse("spark.executor.memoryOverhead defaults to " + EffectiveConf.sparkSize(overhead)))
          .append(conf.get("spark.executor.extraJavaOptions").filter(o -> o.contains("MaxDirectMemorySize"))
              .map(o -> "; -XX:MaxDirectMemorySize is set in spark.executor.extraJavaOptions").orElse(""))
          .append(").");
    }
    if (!operators.isEmpty()) {
      why.append(" Memory-heavy operators in its plan: ").append(String.join(", ", operators)).append(".");
    }
    code.ifPresent(c -> why.append(" The first frame of user code is ").append(c)
        .append(gpu ? "." : ": what it holds in memory is the first suspect."));
    long removed = ctx.facts().executorRemovals().stream().filter(r -> g.executorIds().contains(r.executorId())).count();
    if (removed > 0 && !gpu) {
      why.append(" The executor then died (exit code 52 is Spark's code for an OutOfMemoryError), and with it anything it held.");
    }
    if (fatal) {
      why.append(" The task failed on every attempt, so the stage and the job aborted.");
    }
    Candidate.Builder b = Candidate.builder(finding(kind, fatal ? Severity.CRITICAL : Severity.HIGH,
            kind.title() + " in stage " + g.stageId(),
            Formats.count(g.count(), "task attempt") + " failed with " + headline + " on "
                + Formats.noun(g.executorIds().size(), "executor") + " " + String.join(", ", g.executorIds()),
            culprit, metrics, fatal ? 0 : cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why.toString())
        .codeLocation(code)
        .time(g.firstTime())
        .explainsFailure(fatal)
        .explains(RootCauseKind.EXECUTOR_LOST, RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE, RootCauseKind.FLAKY_INFRASTRUCTURE);
    // The executor's own log shows the OOM too when it was given; cite it.
    for (String exec : g.executorIds()) {
      for (LogExcerpt e : ctx.evidence().executorLogs(exec).stream().flatMap(l -> l.excerpts().stream())
          .filter(x -> x.matched(LogSignatures.JAVA_HEAP_OOM) || x.matched(LogSignatures.GC_OVERHEAD_OOM)
              || x.matched(LogSignatures.DIRECT_MEMORY_OOM)).limit(1).toList()) {
        evidence.add(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block()));
      }
    }
    Remedies.oom(ctx, kind, stage, operators, code).forEach(b::recommend);
    b.want(EvidenceKind.EXECUTOR_LOGS, "the failed executors' stderr shows what else ran out of memory and the GC before it");
    return b.build();
  }

  /** Memory-heavy operators of the SQL execution a stage belongs to. */
  static List<String> operators(AnalysisContext ctx, int stageId) {
    Optional<ExecutionData> x = ctx.executionOf(stageId);
    if (x.isEmpty()) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (SqlNode n : x.get().nodes()) {
      String name = n.nodeName();
      if (name.startsWith("BroadcastHashJoin") || name.startsWith("BroadcastExchange") || name.startsWith("HashAggregate")
          || name.startsWith("ObjectHashAggregate") || name.startsWith("Generate") || name.startsWith("Sort")
          || name.startsWith("Window") || name.startsWith("CartesianProduct") || name.startsWith("BroadcastNestedLoopJoin")
          || name.startsWith("AQEShuffleRead") || name.startsWith("InMemoryTableScan") || name.startsWith("DeserializeToObject")
          || name.startsWith("MapPartitions") || name.startsWith("ArrowEvalPython") || name.startsWith("BatchEvalPython")) {
        out.add(name);
      }
    }
    String plan = x.get().planDescription();
    if (plan.contains("explode(arrays_zip")) {
      out.add("Generate explode(arrays_zip(...))");
    }
    if (plan.contains("AQEShuffleRead") && plan.contains("coalesced")) {
      out.add("AQEShuffleRead coalesced");
    }
    return new ArrayList<>(out);
  }

  /** The stage failure that aborted the group's stage, when the failure was fatal. */
  private static Optional<StageFailure> abortOf(AnalysisContext ctx, TaskFailureGroup g) {
    String message = g.description().contains(": ") ? g.description().substring(g.description().indexOf(": ") + 2) : "";
    String probe = message.length() > 60 ? message.substring(0, 60) : message;
    for (StageFailure f : ctx.facts().stageFailures()) {
      if (g.stageIds().contains(f.stageId()) && (f.reason().contains("failed") && f.reason().contains("times")
          || !g.exceptionClass().isEmpty() && f.reason().contains(g.exceptionClass())
          || !probe.isEmpty() && f.reason().contains(probe))) {
        return Optional.of(f);
      }
    }
    // Spark 4 records the task's own message as the stage's reason; any non-fetch failure of a
    // stage that never completed afterwards ended it.
    for (StageFailure f : ctx.facts().stageFailures()) {
      boolean recovered = ctx.stages().stream().anyMatch(s -> s.stageId() == f.stageId() && s.attemptId() > f.attemptId()
          && s.status() == StageStatus.COMPLETE);
      if (g.stageIds().contains(f.stageId()) && !recovered && !f.reason().contains("FetchFailed")) {
        return Optional.of(f);
      }
    }
    // A cut-off log may end before the abort: the partition still never succeeded.
    for (int id : g.stageIds()) {
      boolean completed = ctx.stages().stream().anyMatch(s -> s.stageId() == id && s.status() == StageStatus.COMPLETE);
      int maxFailures = (int) ctx.conf().number("spark.task.maxFailures").orElse(4);
      if (!completed && !ctx.completed() && g.partitionIndices().size() == 1 && g.count() >= maxFailures) {
        return Optional.of(new StageFailure(id, g.stageAttemptId(), "", "Task " + g.partitionIndex() + " in stage " + id
            + "." + g.stageAttemptId() + " failed " + g.count() + " times (the log ends before the abort)",
            0, -1, g.source(), g.firstLine()));
      }
    }
    return Optional.empty();
  }

  /** The time failed attempts cost: roughly one median task each. */
  private static long retryCost(AnalysisContext ctx, TaskFailureGroup g) {
    for (StageData s : ctx.stages()) {
      if (s.stageId() == g.stageId() && s.attemptId() == g.stageAttemptId()) {
        Optional<io.sparkrca.core.model.TaskMetricDistributions> q = ctx.quantiles(s);
        double median = q.map(t -> Support.quantileAt(t.duration(), 2)).orElse(Double.NaN);
        if (Double.isFinite(median)) {
          return Math.round(median * g.count());
        }
      }
    }
    return 0;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
