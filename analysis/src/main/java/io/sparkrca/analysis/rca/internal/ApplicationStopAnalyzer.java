package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.core.app.ExecutorRemoval;
import io.sparkrca.core.app.JobFailure;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cluster manager stopped the application underneath its driver: a failed job's exception
 * shows the {@code SparkContext} stopped by the YARN client's monitor thread
 * ({@code YarnClientSchedulerBackend$MonitorThread}, which stops the context when YARN reports the
 * application ended: killed, failed or finished), so the running jobs were cancelled and the
 * executors lost at once. {@link RootCauseKind#APPLICATION_STOPPED_BY_CLUSTER_MANAGER}: the stack
 * trace is the record; why YARN ended the application is in its ResourceManager.
 */
public final class ApplicationStopAnalyzer implements Analyzer {
  /** Executors lost this close to the stop are its fallout. */
  static final long WINDOW_MS = 2000;
  private static final String MONITOR = "YarnClientSchedulerBackend$MonitorThread";

  @Override
  public String name() {
    return "application-stop";
  }

  /** The stages of the job that were cut short (failed) by the stop. */
  private static List<Integer> runningStages(AnalysisContext ctx, int jobId) {
    List<Integer> ofJob = ctx.jobs().stream().filter(j -> j.jobId() == jobId).findFirst()
        .map(j -> j.stageIds()).orElse(List.of());
    return ctx.stages().stream().filter(s -> ofJob.contains(s.stageId()) && s.status() == StageStatus.FAILED)
        .map(StageData::stageId).distinct().sorted().toList();
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    Optional<JobFailure> stopped = ctx.facts().jobFailures().stream()
        .filter(f -> f.error().contains(MONITOR) && f.error().contains("SparkContext.stop")).findFirst();
    if (stopped.isEmpty()) {
      return List.of();
    }
    JobFailure f = stopped.get();
    List<JobFailure> cancelled = ctx.facts().jobFailures().stream()
        .filter(j -> j.error().contains("SparkContext.stop") || j.error().contains("SparkContext was shut down")).toList();
    List<ExecutorRemoval> lost = f.time() <= 0 ? List.of() : ctx.facts().executorRemovals().stream()
        .filter(r -> Math.abs(r.time() - f.time()) <= WINDOW_MS).toList();
    long time = f.time();
    for (ExecutorRemoval r : lost) {
      time = time <= 0 ? r.time() : Math.min(time, r.time());
    }
    String message = f.error().lines().findFirst().orElse("");
    StringBuilder why = new StringBuilder("YARN ended the application while its driver was running: the YARN client's "
        + "monitor thread (" + MONITOR + "), which watches the application's state on the ResourceManager, saw it end "
        + "and stopped the SparkContext, so job " + f.jobId() + " failed with \"" + message + "\"");
    if (cancelled.size() > 1) {
      why.append(" and ").append(cancelled.size() - 1).append(cancelled.size() == 2 ? " other job was" : " other jobs were")
          .append(" cancelled with it");
    }
    why.append('.');
    if (!lost.isEmpty()) {
      why.append(" ").append(lost.size()).append(lost.size() == 1 ? " executor was" : " executors were")
          .append(" lost within ").append(WINDOW_MS / 1000).append(" s of it: fallout of the stop, not a cause.");
    }
    why.append(" No task failure explains it: the application was stopped from outside (a 'yarn application -kill', "
        + "the ResourceManager or an operator ending it, or its ApplicationMaster failing).");
    List<EvidenceRef> evidence = new ArrayList<>();
    // The message, and the frames that show who stopped the context (Spark's own frames in between left out).
    List<String> shown = new ArrayList<>(List.of(message));
    f.error().lines().filter(l -> l.contains("SparkContext.stop(")).findFirst().ifPresent(l -> shown.add(l + "\n\t..."));
    f.error().lines().filter(l -> l.contains(MONITOR)).findFirst().ifPresent(shown::add);
    evidence.add(ctx.factRef(f.source(), f.line(), "job " + f.jobId() + " failed:\n" + String.join("\n", shown)));
    lost.stream().limit(3).forEach(r -> evidence.add(ctx.factRef(r.source(), r.line(), "executor " + r.executorId()
        + " removed: " + r.reason())));
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.APPLICATION_STOPPED_BY_CLUSTER_MANAGER, Severity.CRITICAL,
            "YARN stopped the application under its driver",
            "the SparkContext was stopped by " + MONITOR + "; job " + f.jobId() + " cancelled"
                + (lost.isEmpty() ? "" : ", " + lost.size() + " executors lost at once"),
            Culprit.stages(runningStages(ctx, f.jobId()))
                .withExecutors(lost.stream().map(ExecutorRemoval::executorId).distinct().toList()),
            List.of(new Metric("jobsCancelled", cancelled.size(), "count"), new Metric("executorsLost", lost.size(), "count")),
            0, 0, evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why.toString())
        .time(time)
        .explainsFailure(true)
        .explains(RootCauseKind.EXECUTOR_LOST, RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE, RootCauseKind.HEARTBEAT_TIMEOUT,
            RootCauseKind.FLAKY_INFRASTRUCTURE, RootCauseKind.DRIVER_FAILURE)
        .toConfirm("why YARN ended it: the application's final status and diagnostics on the ResourceManager "
            + "('yarn application -status <id>', the RM's web UI or audit log for who killed it)")
        .want(EvidenceKind.DRIVER_LOG, "the driver log's 'YARN application has exited unexpectedly with state ...' line "
            + "gives YARN's final state and diagnostics");
    b.recommend(Support.investigate("Find out why YARN ended the application: read its final state and diagnostics "
        + "('yarn application -status <application id>'), the ResourceManager's audit log for a kill, and the "
        + "ApplicationMaster's log; then re-run it.", "The stack trace shows YARN's side ended the application; "
        + "nothing in the job's own code or data did."));
    return List.of(b.build());
  }
}
