package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.JobExecutionStatus;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.ChainLink;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.TimelineEvent;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Candidate;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Puts the evidence on one timeline, and tells the failure chain: the root cause, then what
 * followed from it in time order (other task failures, lost executors, failed and re-run stages,
 * failed jobs and SQL executions, the driver's exception), then how the application ended. Event
 * log times are exact; log lines are placed with the driver's {@code user.timezone} (an executor's
 * lines, or any line when that zone is unknown, are marked approximate).
 */
public final class Chronology {
  static final int MAX_TIMELINE = 200;
  static final int MAX_CHAIN = 30;
  /** Log signatures worth a timeline entry. */
  private static final Set<String> TIMELINE_SIGNATURES = Set.of(LogSignatures.JAVA_HEAP_OOM, LogSignatures.GC_OVERHEAD_OOM,
      LogSignatures.DIRECT_MEMORY_OOM, LogSignatures.OTHER_OOM, LogSignatures.EXIT_ON_OOM, LogSignatures.CONTAINER_MEMORY_KILL,
      LogSignatures.SIGNAL_TERM, LogSignatures.EXECUTOR_LOST, LogSignatures.HEARTBEAT_TIMEOUT, LogSignatures.FETCH_FAILED,
      LogSignatures.PYTHON_EXCEPTION, LogSignatures.PYTHON_WORKER_CRASH, LogSignatures.MODULE_NOT_FOUND,
      LogSignatures.CLASS_NOT_FOUND, LogSignatures.NOT_SERIALIZABLE, LogSignatures.PATH_NOT_FOUND,
      LogSignatures.ACCESS_DENIED, LogSignatures.WRITE_FAILURE, LogSignatures.DISK_FULL, LogSignatures.DRIVER_UNCAUGHT);

  /** The source of what the application's own record says. */
  private static final String EVENT_LOG = EvidenceKind.EVENT_LOG.displayName();

  private Chronology() {}

  /** Everything that happened, in time order (at most {@value #MAX_TIMELINE} events). */
  public static List<TimelineEvent> timeline(AnalysisContext ctx) {
    List<TimelineEvent> out = new ArrayList<>();
    if (ctx.startMs() > 0) {
      out.add(event(ctx.startMs(), EVENT_LOG, "application started", Optional.empty()));
    }
    for (JobData j : ctx.jobs()) {
      j.submissionTime().ifPresent(t -> out.add(event(t.toEpochMilli(), EVENT_LOG, "job " + j.jobId() + " started ("
          + j.name() + ")", Optional.empty())));
      j.completionTime().ifPresent(t -> out.add(event(t.toEpochMilli(), EVENT_LOG, "job " + j.jobId() + " "
          + j.status().name().toLowerCase(java.util.Locale.ROOT), Optional.empty())));
    }
    for (StageData s : ctx.stages()) {
      if (s.attemptId() > 0) {
        s.submissionTime().ifPresent(t -> out.add(event(t.toEpochMilli(), EVENT_LOG, "stage " + s.stageId()
            + " re-run (attempt " + s.attemptId() + ")", Optional.empty())));
      }
    }
    for (StageFailure f : ctx.facts().stageFailures()) {
      if (f.completionTime() > 0) {
        out.add(event(f.completionTime(), EVENT_LOG, "stage " + f.stageId() + "." + f.attemptId() + " failed: "
            + firstLine(f.reason()), Optional.of(ctx.factRef(f.source(), f.line(), firstLine(f.reason())))));
      }
    }
    for (TaskFailureGroup g : ctx.facts().taskFailures()) {
      if (g.firstTime() > 0) {
        out.add(event(g.firstTime(), EVENT_LOG, Formats.count(g.count(), "task attempt") + " of " + Support.stages(g.stageIds()) + " failed: "
            + g.description(), Optional.of(ctx.factRef(g.source(), g.firstLine(), g.description()))));
      }
    }
    for (ExecutorRemoval r : ctx.facts().executorRemovals()) {
      if (r.time() > 0) {
        out.add(event(r.time(), EVENT_LOG, "executor " + r.executorId() + " removed: " + r.reason(),
            Optional.of(ctx.factRef(r.source(), r.line(), r.reason()))));
      }
    }
    for (SqlFailure f : ctx.facts().sqlFailures()) {
      if (f.time() > 0) {
        out.add(event(f.time(), EVENT_LOG, "SQL execution " + f.executionId() + " failed: " + firstLine(f.errorMessage()),
            Optional.of(ctx.factRef(f.source(), f.line(), firstLine(f.errorMessage())))));
      }
    }
    for (io.sparkrca.core.evidence.ClusterEvent e : ctx.evidence().clusterEvents()) {
      if (e.time().isPresent() && timelineWorthy(e)) {
        out.add(new TimelineEvent(e.time().get(), "cluster", e.object() + ": " + e.reason() + " (" + firstLine(e.message())
            + ")", false, Optional.of(ClusterRecords.ref(e))));
      }
    }
    ZoneId zone = ctx.zoneOrUtc();
    boolean zoneKnown = ctx.zone().isPresent();
    for (LogEvidence log : ctx.evidence().logs()) {
      String source = log.role() == LogRole.EXECUTOR ? EvidenceKind.EXECUTOR_LOGS.qualified(log.executorId().orElse("?"))
          : log.role() == LogRole.DRIVER ? EvidenceKind.DRIVER_LOG.displayName() : EvidenceKind.LOG.displayName();
      for (LogExcerpt e : log.excerpts()) {
        if (e.time().isEmpty() || e.signatures().stream().noneMatch(TIMELINE_SIGNATURES::contains)) {
          continue;
        }
        boolean approximate = !e.time().get().zoned() && (!zoneKnown || log.role() != LogRole.DRIVER);
        out.add(new TimelineEvent(e.time().get().toInstant(zone), source, e.text().strip(), approximate,
            Optional.of(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block()))));
      }
    }
    long end = ctx.endMs();
    if (ctx.completed() && end > 0) {
      out.add(event(end, EVENT_LOG, "application ended", Optional.empty()));
    }
    out.sort(Comparator.comparing(TimelineEvent::time));
    return out.size() > MAX_TIMELINE ? List.copyOf(out.subList(0, MAX_TIMELINE)) : out;
  }

  /** The failure chain of a failure root cause: the cause, its fallout in time order, the outcome. */
  public static List<ChainLink> chain(AnalysisContext ctx, Candidate root, boolean failureRoot) {
    List<Step> steps = new ArrayList<>();
    long t0 = root.time();
    EvidenceRef rootRef = root.finding().evidence().isEmpty() ? null : root.finding().evidence().get(0);
    steps.add(new Step(t0, ChainLink.Role.ROOT_CAUSE, root.finding().title() + ": " + root.finding().summary(),
        Optional.ofNullable(rootRef)));
    if (failureRoot) {
      long from = t0 > 0 ? t0 : Long.MIN_VALUE;
      for (TaskFailureGroup g : ctx.facts().taskFailures()) {
        if (g.firstTime() >= from && !sameAsRoot(root, g)) {
          steps.add(new Step(g.firstTime(), ChainLink.Role.CONSEQUENCE, Formats.count(g.count(), "task attempt") + " of "
              + Support.stages(g.stageIds()) + " failed: " + g.description(), Optional.of(ctx.factRef(g.source(), g.firstLine(), g.description()))));
        }
      }
      for (ExecutorRemoval r : ctx.facts().executorRemovals()) {
        // The root's own loss is a later link when the root is the cluster's earlier record of the kill.
        boolean own = root.finding().summary().contains("Executor " + r.executorId() + " was lost")
            || root.finding().culprit().executorIds().equals(List.of(r.executorId()));
        if (r.time() >= from && !r.reason().isEmpty() && (!own || (t0 > 0 && r.time() > t0))) {
          steps.add(new Step(r.time(), ChainLink.Role.CONSEQUENCE, "executor " + r.executorId() + " removed: " + r.reason(),
              Optional.of(ctx.factRef(r.source(), r.line(), r.reason()))));
        }
      }
      for (StageData s : ctx.stages()) {
        if (s.attemptId() > 0 && s.submissionTime().map(t -> t.toEpochMilli() >= from).orElse(false)) {
          steps.add(new Step(s.submissionTime().get().toEpochMilli(), ChainLink.Role.CONSEQUENCE,
              "stage " + s.stageId() + " re-run (attempt " + s.attemptId() + ")", Optional.of(ctx.apiRef(Support.stagePath(s), ""))));
        }
      }
      for (StageFailure f : ctx.facts().stageFailures()) {
        if (f.completionTime() >= from || f.completionTime() < 0) {
          steps.add(new Step(f.completionTime(), ChainLink.Role.CONSEQUENCE, "stage " + f.stageId() + "." + f.attemptId()
              + " failed: " + firstLine(f.reason()), Optional.of(ctx.factRef(f.source(), f.line(), firstLine(f.reason())))));
        }
      }
      for (JobData j : ctx.jobs()) {
        if (j.status() == JobExecutionStatus.FAILED) {
          long t = j.completionTime().map(Instant::toEpochMilli).orElse(-1L);
          steps.add(new Step(t, ChainLink.Role.CONSEQUENCE, "job " + j.jobId() + " failed (" + j.name() + ")",
              Optional.of(ctx.apiRef("jobs/" + j.jobId(), ""))));
        }
      }
      for (LogEvidence log : ctx.evidence().driverLogs()) {
        for (LogExcerpt e : log.excerpts(LogSignatures.DRIVER_UNCAUGHT)) {
          boolean cited = root.finding().evidence().stream().anyMatch(r -> r.source().equals(e.log()) && r.line() == e.line());
          long t = e.time().map(x -> x.toInstant(ctx.zoneOrUtc()).toEpochMilli()).orElse(-1L);
          if (!cited && (t < 0 || t >= from)) {
            steps.add(new Step(t, ChainLink.Role.CONSEQUENCE, "the driver threw: " + e.block().lines()
                .filter(l -> l.contains("Exception in thread") || l.contains("User class threw")).findFirst().orElse(e.text()).strip()
                + (t > 0 ? " (time from the driver log)" : ""), Optional.of(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), e.block()))));
          }
        }
      }
      for (SqlFailure f : ctx.facts().sqlFailures()) {
        if (!root.finding().evidence().stream().anyMatch(e -> e.line() == f.line() && f.line() > 0)) {
          steps.add(new Step(f.time(), ChainLink.Role.CONSEQUENCE, "SQL execution " + f.executionId() + " failed: "
              + firstLine(f.errorMessage()), Optional.of(ctx.factRef(f.source(), f.line(), firstLine(f.errorMessage())))));
        }
      }
    }
    long end = ctx.endMs();
    String outcome = switch (ctx.outcome()) {
      case FAILED -> "the application failed";
      case SUCCEEDED -> failureRoot ? "the application succeeded after Spark recovered" : "the application succeeded";
      case INCOMPLETE -> "the log ends before the application did";
      case UNKNOWN -> "how the application ended is unknown";
    };
    steps.add(new Step(ctx.completed() ? end : -1, ChainLink.Role.OUTCOME, outcome, Optional.empty()));
    // Root first, outcome last, the rest by time (unknown times after known ones).
    Step first = steps.get(0);
    Step last = steps.get(steps.size() - 1);
    List<Step> middle = new ArrayList<>(steps.subList(1, steps.size() - 1));
    middle.sort(Comparator.comparingLong(s -> s.time < 0 ? Long.MAX_VALUE : s.time));
    List<Step> ordered = new ArrayList<>();
    ordered.add(first);
    ordered.addAll(middle.subList(0, Math.min(middle.size(), MAX_CHAIN - 2)));
    ordered.add(last);
    List<ChainLink> out = new ArrayList<>();
    for (int i = 0; i < ordered.size(); i++) {
      Step s = ordered.get(i);
      out.add(new ChainLink(i + 1, s.time > 0 ? Optional.of(Instant.ofEpochMilli(s.time)) : Optional.empty(), s.role,
          s.event, s.ref));
    }
    return out;
  }

  private record Step(long time, ChainLink.Role role, String event, Optional<EvidenceRef> ref) {}

  /** Cluster records worth a timeline entry: failures, disruptions, node trouble, warnings; not routine starts and exits. */
  private static boolean timelineWorthy(io.sparkrca.core.evidence.ClusterEvent e) {
    return switch (e.type()) {
      case TERMINATION -> e.exitCode().map(c -> c != 0).orElse(true);
      case POD_STATUS, NODE_CONDITION, APPLICATION, OTHER -> true;
      case EVENT -> "Warning".equals(e.details().attributes().get("type")) || ClusterRecords.DISRUPTIONS.contains(e.reason())
          || e.reason().equals(ClusterEventReasons.KILLING);
    };
  }

  private static boolean sameAsRoot(Candidate root, TaskFailureGroup g) {
    return root.time() == g.firstTime() && root.finding().culprit().stageIds().contains(g.stageId());
  }

  private static TimelineEvent event(long time, String source, String event, Optional<EvidenceRef> ref) {
    return new TimelineEvent(Instant.ofEpochMilli(time), source, event, false, ref);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
