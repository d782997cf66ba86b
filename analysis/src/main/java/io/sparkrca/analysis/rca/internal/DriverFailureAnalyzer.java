package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;

import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Failures outside any task (the log-pattern catalogue's driver-side failures): an application that
 * ran no job, a SQL execution that failed without a failed job (a failed commit, an analysis
 * error), a driver that threw from its main thread or ran out of memory. The cause is in a failed
 * SQL execution's own error (Spark 3.4+ event logs) or in the driver log, classified by the
 * catalog: a missing path, access denied, a missing class or module, serialization, a driver OOM
 * from collect/toPandas, a write or commit failure.
 */
public final class DriverFailureAnalyzer implements Analyzer {

  @Override
  public String name() {
    return "driver-failures";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    boolean failedJob = ctx.jobs().stream().anyMatch(j -> j.status() == JobExecutionStatus.FAILED);
    for (SqlFailure f : ctx.facts().sqlFailures()) {
      if (f.errorMessage().isEmpty() || executionHadFailedJob(ctx, f.executionId())) {
        continue; // a failed job's SQL execution repeats the task's error: fallout
      }
      out.add(fromText(ctx, f.errorMessage(), ctx.factRef(f.source(), f.line(), "SQL execution " + f.executionId()
          + " failed:\n" + FailureText.excerpt(f.errorMessage(), 25)), f.time(), Optional.of(f.executionId()), false));
    }
    for (LogEvidence log : ctx.evidence().driverLogs()) {
      for (LogExcerpt e : log.excerpts()) {
        boolean uncaught = e.matched(LogSignatures.DRIVER_UNCAUGHT);
        boolean driverOom = (e.matched(LogSignatures.JAVA_HEAP_OOM) || e.matched(LogSignatures.GC_OVERHEAD_OOM))
            && !taskContext(e) && e.block().contains("Exception in thread");
        if (!uncaught && !driverOom) {
          continue;
        }
        // Spark 4 re-throws a failed stage's task error as it is, without "Job aborted": the same
        // headline as a recorded task failure is that failure, not the driver's own.
        String headline = FailureText.headline(e.block());
        boolean rethrownJob = e.block().contains("Job aborted due to stage failure") || e.block().contains("SparkException: Job ")
            || ctx.facts().taskFailures().stream().anyMatch(g -> g.isException()
                && FailureText.headline(g.firstDetail().isEmpty() ? g.description() : g.firstDetail()).equals(headline));
        if (rethrownJob && (failedJob || ctx.rebuiltFromLogs() || !ctx.facts().taskFailures().isEmpty())) {
          continue; // the driver re-throws the failed job: the task failure is the cause
        }
        if (ctx.rebuiltFromLogs() && FailureText.classify(e.block(), true, ctx.knowledge())
            .flatMap(FailureText.Classified::family).isPresent()) {
          continue; // a failure family the logs name: the log-family analysis judges it, with its confidence
        }
        long time = e.time().map(t -> t.toInstant(ctx.zoneOrUtc()).toEpochMilli()).orElse(ctx.endMs());
        out.add(fromText(ctx, e.block(), new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block()), time,
            Optional.empty(), true));
        break; // one uncaught exception per driver log
      }
    }
    out.addAll(stageAborts(ctx));
    if (out.isEmpty() && ctx.app().isPresent() && ctx.jobs().isEmpty() && ctx.stages().isEmpty()
        && !ctx.rebuiltFromLogs()) { // logs may simply not show the jobs that ran
      out.add(noJob(ctx));
    } else if (out.isEmpty() && ctx.app().isPresent() && !ctx.completed() && !failedJob) {
      abruptEnd(ctx).ifPresent(out::add);
    }
    return dedupe(out);
  }

  private Candidate fromText(AnalysisContext ctx, String text, EvidenceRef ref, long time, Optional<Long> sqlExecution,
      boolean fromLog) {
    Optional<FailureText.Classified> k = FailureText.classify(text, true, ctx.knowledge());
    RootCauseKind kind = k.map(FailureText.Classified::kind).orElse(RootCauseKind.DRIVER_FAILURE);
    // From logs alone the exception may be the last of a story the logs do not hold; a suggestive
    // wording never settles the cause.
    boolean settled = k.map(FailureText.Classified::decisive).orElse(!ctx.rebuiltFromLogs());
    String headline = FailureText.headline(text);
    Optional<String> code = FailureText.codeLocation(text);
    Culprit culprit = Culprit.none();
    if (sqlExecution.isPresent()) {
      Optional<ExecutionData> x = ctx.executions().stream().filter(e -> e.id() == sqlExecution.get()).findFirst();
      // A failed commit concerns the stage that wrote the data; other driver-side failures no stage.
      List<Integer> stages = kind == RootCauseKind.WRITE_COMMIT_FAILURE ? x.map(ctx::stagesOf).orElse(List.of()) : List.of();
      culprit = Culprit.stages(stages).withSqlExecution(sqlExecution.get(), Optional.empty());
    }
    if (kind == RootCauseKind.BROADCAST_TIMEOUT || kind == RootCauseKind.BROADCAST_TOO_LARGE) {
      // The broadcast's own job is the one left unfinished: its stages are the culprit.
      List<Integer> unfinished = ctx.stages().stream().filter(st -> st.status() != StageStatus.COMPLETE
          && st.status() != StageStatus.SKIPPED).map(StageData::stageId).distinct().toList();
      culprit = culprit.withStages(unfinished);
    }
    boolean noJob = ctx.jobs().isEmpty();
    String when = noJob ? " before it ran any job" : sqlExecution.isPresent() && !ctx.stagesOf(
        ctx.executions().stream().filter(e -> e.id() == sqlExecution.get()).findFirst().orElseThrow()).isEmpty()
        ? " after its tasks had succeeded" : "";
    StringBuilder why = new StringBuilder();
    why.append("The driver failed").append(when).append(": ").append(headline).append(".");
    switch (kind) {
      case DRIVER_OOM -> why.append(" The driver's own heap ran out").append(text.contains("executeCollect")
          || text.contains("collect") ? " while it gathered a query's result (collect)" : text.contains("toPandas")
          ? " while it converted a result to pandas" : text.contains("broadcast") || text.contains("Broadcast")
          ? " while it built a broadcast relation" : "").append(": every row it pulls in lives in its heap at once.");
      case INPUT_NOT_FOUND -> why.append(" An input the job reads does not exist, so Spark could not plan the query.");
      case MISSING_DEPENDENCY -> why.append(" Code the job needs is not on its class path.");
      case SERIALIZATION_FAILURE -> why.append(" A function sent to the executors captures an object that cannot be serialized.");
      case WRITE_COMMIT_FAILURE -> why.append(" The write's tasks finished, but committing their output failed, so the "
          + "output is incomplete and the job failed.");
      case ACCESS_DENIED -> why.append(" The job's identity may not read or write what it asked for.");
      default -> { }
    }
    code.ifPresent(c -> why.append(" The first frame of user code is ").append(c).append("."));
    Candidate.Builder b = Candidate.builder(finding(kind, Severity.CRITICAL, kind.title(), headline, culprit, List.of(),
            0, 0, List.of(ref), name()))
        .confidence(settled ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
        .explanation(why.toString())
        .codeLocation(code)
        .time(time)
        .explainsFailure(true)
        .explains(RootCauseKind.UNDETERMINED);
    if (!settled) {
      b.toConfirm("what the driver did before it threw: the event log records its jobs and their failures");
      b.want(EvidenceKind.EVENT_LOG, "it records the jobs the driver ran before it threw, and their failures");
    }
    if (kind == RootCauseKind.DRIVER_OOM) {
      Remedies.oom(ctx, kind, Optional.empty(), List.of(), code).forEach(b::recommend);
    } else if (kind == RootCauseKind.DRIVER_FAILURE) {
      b.recommend(Support.fix("Fix the exception the driver threw" + code.map(c -> " at " + c).orElse("") + ": " + headline + ".",
          "It ended the application outside any Spark job.", List.of()));
    } else {
      Remedies.forFailure(ctx, kind, text, k.flatMap(FailureText.Classified::family)).forEach(b::recommend);
    }
    if (!fromLog) {
      b.want(EvidenceKind.DRIVER_LOG, "the driver log has the full stack trace and what the driver did before");
    }
    b.want(EvidenceKind.CODE, "the job's script or JAR would show the failing line");
    return b.build();
  }

  /**
   * A stage the driver aborted for a reason of its own, with no task failure behind it: a result
   * over spark.driver.maxResultSize, a broadcast too large. The reason is classified by the
   * knowledge base; a stage whose tasks failed is the task failures' to explain.
   */
  private List<Candidate> stageAborts(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    java.util.Set<Integer> withTaskFailures = new java.util.HashSet<>();
    ctx.facts().taskFailures().stream().filter(g -> g.isException()).forEach(g -> withTaskFailures.addAll(g.stageIds()));
    for (StageData st : ctx.stages()) {
      if (st.status() != StageStatus.FAILED || st.failureReason().isEmpty() || withTaskFailures.contains(st.stageId())) {
        continue;
      }
      String reason = st.failureReason().get();
      Optional<FailureText.Classified> k = FailureText.classify(reason, true, ctx.knowledge());
      if (k.isEmpty() || k.get().family().isEmpty() || !k.get().decisive()) {
        continue; // a suggestive reading (a fetch failure's) is for the analyses of the records
      }
      RootCauseKind kind = k.get().kind();
      Candidate.Builder b = Candidate.builder(finding(kind, Severity.CRITICAL, kind.title() + " in stage " + st.stageId(),
              FailureText.headline(reason), Culprit.stages(List.of(st.stageId())), List.of(), 0, 0,
              List.of(ctx.apiRef(Support.stagePath(st), "stage " + st.stageId() + "." + st.attemptId() + " aborted: "
                  + FailureText.excerpt(reason, 10))), name()))
          .confidence(Confidence.CONFIRMED)
          .explanation("The driver aborted stage " + st.stageId() + ": " + FailureText.headline(reason) + ". "
              + k.get().family().get().meaning())
          .time(st.submissionTime().map(Instant::toEpochMilli).orElse(ctx.startMs()))
          .explainsFailure(true)
          .explains(RootCauseKind.DRIVER_FAILURE, RootCauseKind.UNDETERMINED);
      Remedies.forFailure(ctx, kind, reason, k.get().family()).forEach(b::recommend);
      out.add(b.build());
    }
    return out;
  }

  /** An application with no job: nothing in the event log says why. */
  private Candidate noJob(AnalysisContext ctx) {
    boolean haveDriverLog = ctx.evidence().hasDriverLog();
    Optional<String> session = ctx.interactiveSession();
    if (session.isPresent() && ctx.completed()) {
      // A shell outlives its commands' errors: it ended by being closed, not by a failure before an action.
      return Candidate.builder(finding(RootCauseKind.UNDETERMINED, Severity.LOW, "The session ran no Spark job",
              "the event log has no job, stage or task; the session ended normally", Culprit.none(), List.of(), 0, 0,
              List.of(ctx.apiRef("jobs", "no jobs")), name()))
          .confidence(Confidence.INSUFFICIENT_EVIDENCE)
          .explanation("The application is " + session.get() + ", and it was closed without running any Spark job, "
              + "so there is nothing of it to diagnose. A command that failed in the session without starting a job "
              + "(a compile error, an exception in the driver) shows only in the session's own output.")
          .toConfirm("the session's console or notebook output, for a command that failed before it ran a job")
          .time(ctx.startMs())
          .explainsFailure(true) // as for any application without a job: the answer is this, not "healthy"
          .want(EvidenceKind.DRIVER_LOG, "a session's failed commands are printed only there")
          .build();
    }
    return Candidate.builder(finding(RootCauseKind.UNDETERMINED, Severity.HIGH, "The application ran no Spark job",
            "the event log has no job, stage or task" + (haveDriverLog ? "; the driver log shows no exception" : ""),
            Culprit.none(), List.of(), 0, 0, List.of(ctx.apiRef("jobs", "no jobs")), name()))
        .confidence(Confidence.INSUFFICIENT_EVIDENCE)
        .explanation("The application started and ended without running any Spark job. Either it had nothing to "
            + "do, or its driver failed before its first action; the event log cannot tell which"
            + (haveDriverLog ? ", and the driver log given shows no uncaught exception." : ": the driver log would."))
        .toConfirm("the driver log (spark-submit's stderr, the driver pod's log): an exception before the first action is there")
        .time(ctx.startMs())
        .explainsFailure(true)
        .want(EvidenceKind.DRIVER_LOG, "failures before the first action are recorded only there")
        .build();
  }

  /**
   * An event log that stops while a job runs, with no failure in it and no exception in the driver
   * log: the driver was stopped from outside (SIGKILL from the kernel's OOM killer or a container
   * limit, a lost node, a preemption), or it is still running. A cluster record for the driver
   * says which; without one the honest answer is undetermined, with what to collect.
   */
  private Optional<Candidate> abruptEnd(AnalysisContext ctx) {
    List<JobData> running = ctx.jobs().stream().filter(j -> j.status() == JobExecutionStatus.RUNNING).toList();
    if (running.isEmpty() || ctx.facts().tasksFailed() > 0) {
      // Between jobs nothing says the end was not simply a log still being written; with failed
      // tasks, their analysis tells the story of a cut-off log.
      return Optional.empty();
    }
    long last = ctx.endMs();
    for (JobData j : ctx.jobs()) {
      last = Math.max(last, j.submissionTime().map(Instant::toEpochMilli).orElse(-1L));
    }
    for (StageData st : ctx.stages()) {
      last = Math.max(last, st.submissionTime().map(Instant::toEpochMilli).orElse(-1L));
    }
    List<Integer> activeStages = ctx.stages().stream().filter(st -> st.status() == StageStatus.ACTIVE)
        .map(StageData::stageId).distinct().toList();
    String jobs = running.stream().map(j -> "job " + j.jobId() + " (" + j.name() + ")").collect(Collectors.joining(", "));
    List<EvidenceRef> refs = new ArrayList<>();
    refs.add(ctx.apiRef("jobs", jobs + (running.size() == 1 ? " was" : " were") + " still running when the event log ends"
        + (activeStages.isEmpty() ? "" : "; active stages " + activeStages)));

    // The decisive record of the driver's end: a memory kill, then its pod taken away, then any
    // failed exit; a record of another kind (an event) only when there is nothing better.
    ClusterRecords driver = ClusterRecords.of(ctx, "driver");
    Optional<ClusterEvent> record = driver.memoryKill(-1).or(driver::disruption).or(() -> driver.termination(-1))
        .or(() -> ctx.evidence().clusterEvents().stream()
            .filter(e -> e.executorId().map("driver"::equals).orElse(false))
            .filter(e -> e.type() == io.sparkrca.core.evidence.ClusterDetails.Type.OTHER).findFirst());
    StringBuilder why = new StringBuilder("The event log stops")
        .append(last > 0 ? " at " + Instant.ofEpochMilli(last) : "")
        .append(" while ").append(jobs).append(running.size() == 1 ? " was" : " were").append(" running, and records no "
            + "failed task, stage or job and no application end.");
    if (record.isPresent()) {
      ClusterEvent e = record.get();
      refs.add(0, ClusterRecords.ref(e));
      boolean memory = ClusterRecords.isMemoryKill(e);
      RootCauseKind kind = memory ? RootCauseKind.DRIVER_OOM : RootCauseKind.DRIVER_FAILURE;
      why.append(" The cluster manager records that it ").append(memory ? "killed the driver for exceeding its memory "
          + "limit" : "stopped the driver").append(" (").append(e.reason()).append(": ").append(e.message()).append(")")
          .append(memory ? ": the driver's heap plus its overhead outgrew the container, which the JVM never sees." : ".")
          .append(ClusterRecords.end(e).map(t -> " It ended at " + t + ", in " + ClusterRecords.where(e) + ".").orElse(""));
      Candidate.Builder b = Candidate.builder(finding(kind, Severity.CRITICAL, memory ? "The driver's container was "
              + "killed for its memory use" : "The cluster manager stopped the driver", e.reason() + " while " + jobs
              + " ran", Culprit.none(), List.of(), 0, 0, refs, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation(why.toString())
          .time(e.time().map(Instant::toEpochMilli).orElse(last))
          .explainsFailure(true)
          .explains(RootCauseKind.UNDETERMINED);
      if (memory) {
        Remedies.oom(ctx, RootCauseKind.DRIVER_OOM, Optional.empty(), List.of(), Optional.empty()).forEach(b::recommend);
      } else {
        b.recommend(Support.investigate("Find why the cluster manager stopped the driver (" + e.reason() + ") and keep it "
            + "from doing so: a preemptible or spot node, an eviction for node pressure, a deadline.",
            "The driver did not fail on its own: " + e.message() + "."));
      }
      return Optional.of(b.build());
    }

    boolean haveDriverLog = ctx.evidence().hasDriverLog();
    boolean sigterm = false;
    for (LogEvidence log : ctx.evidence().driverLogs()) {
      sigterm |= log.count(LogSignatures.SIGNAL_TERM) > 0;
      List<String> tail = log.lastLines();
      if (!tail.isEmpty()) {
        refs.add(new EvidenceRef(EvidenceRef.Kind.LOG, log.uri(), 0, "the driver log ends"
            + (sigterm ? "" : " without an exception, an OutOfMemoryError or a shutdown") + ":\n"
            + String.join("\n", tail.subList(Math.max(0, tail.size() - 3), tail.size()))));
      }
      break;
    }
    if (sigterm) {
      why.append(" The driver received SIGTERM: something outside the application stopped it (the cluster manager, a "
          + "preemption, a deadline, a user's kill).");
    } else if (haveDriverLog) {
      why.append(" The driver log just stops, without an exception, an OutOfMemoryError or a shutdown: the process "
          + "was killed without warning (SIGKILL, exit 137: the kernel's OOM killer, a container memory limit, a lost "
          + "node), or it is still running.");
    } else {
      why.append(" Without the driver log the analysis cannot tell a driver killed from outside from one that is "
          + "still running.");
    }
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.UNDETERMINED, Severity.HIGH,
            "The application stopped mid-job without a recorded failure", "the event log ends while " + jobs + " ran"
                + (haveDriverLog && !sigterm ? "; the driver log ends without an error" : ""),
            Culprit.none(), List.of(), 0, 0, refs, name()))
        .confidence(Confidence.INSUFFICIENT_EVIDENCE)
        .explanation(why.toString())
        .toConfirm("the driver's exit status (137 is SIGKILL, 143 SIGTERM) and who sent it: the kernel log (dmesg: "
            + "'Out of memory: Killed process'), kubectl describe pod for the driver (OOMKilled, Evicted), yarn "
            + "application -status, or the Dataproc batch's state message")
        .time(last)
        .explainsFailure(true)
        .want(EvidenceKind.CLUSTER_RECORDS, "the cluster manager's or the kernel's record says who killed the driver and why")
        .recommend(Support.investigate("Find who stopped the driver: its exit status and the cluster manager's or "
            + "kernel's record of the kill. If it was killed for memory, raise spark.driver.memoryOverhead (and "
            + "spark.driver.memory if the heap was full) or keep results off the driver.",
            "Nothing the application recorded explains the stop."));
    if (!haveDriverLog) {
      b.want(EvidenceKind.DRIVER_LOG, "a driver that failed on its own says so in its log");
    }
    return Optional.of(b.build());
  }

  private static boolean executionHadFailedJob(AnalysisContext ctx, long executionId) {
    for (ExecutionData x : ctx.executions()) {
      if (x.id() == executionId && !x.failedJobIds().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Whether an OOM excerpt is a task's (a local-mode driver log shows tasks' errors too). */
  private static boolean taskContext(LogExcerpt e) {
    String b = e.block();
    return b.contains("Exception in task") || b.contains("Executor task launch worker") || b.contains("Lost task");
  }

  /** The SQL failure and the driver log usually name the same exception: keep the better-placed one once. */
  private static List<Candidate> dedupe(List<Candidate> in) {
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : in) {
      Optional<Candidate> same = out.stream().filter(o -> o.kind() == c.kind()).findFirst();
      if (same.isEmpty()) {
        out.add(c);
      } else if (c.finding().culprit().stageIds().isEmpty() && !same.get().finding().culprit().stageIds().isEmpty()) {
        continue;
      } else {
        // Merge: the SQL failure's place in the plan, both records as evidence.
        Candidate keep = same.get();
        List<EvidenceRef> refs = Support.concat(keep.finding().evidence(), c.finding().evidence());
        out.set(out.indexOf(keep), new Candidate(withEvidence(keep.finding(), refs), keep.confidence(), keep.explanation(),
            keep.evidenceAgainst(), keep.toConfirm(), keep.codeLocation().or(c::codeLocation), Math.min(keep.time(), c.time()),
            keep.explainsFailure(), keep.explains(), keep.recommendations(),
            keep.wants().stream().filter(w -> w.kind() != EvidenceKind.DRIVER_LOG).toList()));
      }
    }
    return out;
  }

  private static io.sparkrca.core.report.Finding withEvidence(io.sparkrca.core.report.Finding f, List<EvidenceRef> refs) {
    return new io.sparkrca.core.report.Finding(f.id(), f.kind(), f.severity(), f.title(), f.summary(), f.culprit(),
        f.metrics(), f.estimatedCostMs(), f.costShare(), f.fallout(), f.causedBy(), refs, f.analyzer());
  }

}
