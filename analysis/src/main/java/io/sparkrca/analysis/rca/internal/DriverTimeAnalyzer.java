package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.core.format.Formats.humanMillis;
import static io.sparkrca.analysis.rca.internal.Support.percent;
import static io.sparkrca.analysis.rca.internal.Support.prop;

import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Time the driver kept the cluster idle (the slow-job playbook's step 10, Sparklens' driver time):
 * from the first job to the end of the application, the time no job was running. The start-up
 * before the first job (JVM, session, planning the first query) is not counted: it is reported
 * apart, as it is seldom the job's own doing. A gap becomes a finding from {@value #MIN_SHARE} of
 * the run time and {@value #MIN_IDLE_MS} ms.
 *
 * <p>In an interactive session ({@link AnalysisContext#interactiveSession()}: a shell, a notebook,
 * a Dataproc session) the gaps are the user's time between commands, not driver work, so they are
 * no {@link RootCauseKind#DRIVER_BOTTLENECK}. What they can cost there is the executors the session
 * kept through them: on a cluster (not in local mode or a local cluster, which hold no shared
 * resources) executors alive across the gaps are an {@link RootCauseKind#IDLE_SESSION}.
 */
public final class DriverTimeAnalyzer implements Analyzer {
  static final double MIN_SHARE = 0.30;
  static final long MIN_IDLE_MS = 5000;
  /** An executor removed at least this long before the application ended was given back, not kept to the end. */
  static final long RELEASED_BEFORE_END_MS = 1000;
  /** The executors a finding names; a session may hold hundreds. */
  static final int MAX_NAMED_EXECUTORS = 20;

  @Override
  public String name() {
    return "driver-time";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<JobData> jobs = ctx.jobs().stream().filter(j -> j.submissionTime().isPresent()).sorted(
        Comparator.comparing(j -> j.submissionTime().get())).toList();
    long end = ctx.endMs();
    long duration = ctx.durationMs();
    if (jobs.isEmpty() || end <= 0 || duration <= 0) {
      return List.of();
    }
    Optional<String> session = ctx.interactiveSession();
    // A session's executors wait from its start for the user's first command; a batch's start-up is not its doing.
    Gaps gaps = Gaps.of(jobs, session.isPresent() ? ctx.startMs() : -1, end);
    double share = gaps.idle() / (double) duration;
    if (gaps.idle() < MIN_IDLE_MS || share < MIN_SHARE) {
      return List.of();
    }
    if (session.isPresent()) {
      return idleSession(ctx, session.get(), gaps, share);
    }
    long idle = gaps.idle();
    long startup = jobs.get(0).submissionTime().get().toEpochMilli() - ctx.startMs();
    String summary = humanMillis(idle) + " (" + percent(share) + " of the run) with no job running between the first job and the "
        + "end; the longest gap " + humanMillis(gaps.longest().length());
    List<EvidenceRef> evidence = new ArrayList<>();
    evidence.add(ctx.apiRef("jobs", Formats.count(jobs.size(), "job") + "; no job ran for " + humanMillis(idle) + " after the first one started"));
    String why = "Between its first job and its end the application spent " + humanMillis(idle) + " (" + percent(share) + " of its "
        + humanMillis(duration) + ") with no Spark job running: the driver was busy with its own work (collecting results "
        + "and processing them in the driver, Python or pandas code, sleeps, calls to other services), so the "
        + "executors waited. The longest such gap lasted " + humanMillis(gaps.longest().length()) + " from "
        + Instant.ofEpochMilli(gaps.longest().start()) + "." + (startup > 0 ? " (The " + humanMillis(startup) + " before the "
        + "first job are start-up and are not counted.)" : "");
    return List.of(Candidate.builder(finding(RootCauseKind.DRIVER_BOTTLENECK, share >= 0.5 ? Severity.HIGH : Severity.MEDIUM,
            "Time spent on the driver between jobs", summary, Culprit.none(),
            List.of(new Metric("driverIdleMs", idle, "ms"), new Metric("driverIdleShare", share, "share"),
                new Metric("longestGapMs", gaps.longest().length(), "ms"), new Metric("startupMs", startup, "ms")),
            idle, share, evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why)
        .time(gaps.longest().start())
        .recommend(Support.fix("Move the driver-side work into Spark (distributed transformations instead of "
                + "collect-then-loop), run independent jobs concurrently, and remove sleeps or slow external calls "
                + "between actions.", "The cluster idles while the driver works.", List.of()))
        .want(EvidenceKind.DRIVER_LOG, "the driver log shows what the driver did in the gaps")
        .want(EvidenceKind.CODE, "the driver code between the actions is where the time goes")
        .build());
  }

  /** The executors an interactive session kept through its gaps, when it ran on shared resources. */
  private List<Candidate> idleSession(AnalysisContext ctx, String session, Gaps gaps, double share) {
    AnalysisContext.Platform platform = ctx.platform();
    if (platform == AnalysisContext.Platform.LOCAL || platform == AnalysisContext.Platform.LOCAL_CLUSTER) {
      return List.of(); // one machine's own processes: nobody else waited for them
    }
    long executorMs = 0;
    long coreMs = 0;
    List<String> held = new ArrayList<>();
    List<long[]> alive = new ArrayList<>();
    for (ExecutorSummary e : ctx.executors()) {
      if (e.id().equals("driver")) {
        continue;
      }
      long from = e.addTime().toEpochMilli();
      long to = e.removeTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE);
      long idle = gaps.overlap(from, to);
      if (idle > 0 && !Support.loopback(e.hostPort())) { // an executor on the driver's own machine holds nothing shared
        executorMs += idle;
        coreMs += idle * Math.max(1, e.totalCores());
        held.add(e.id());
        alive.add(new long[] {from, to});
      }
    }
    // The idle time during which any executor was held: what the session's executors cost it.
    long heldIdle = 0;
    alive.sort(Comparator.comparingLong(a -> a[0]));
    long runFrom = Long.MIN_VALUE;
    long runTo = Long.MIN_VALUE;
    for (long[] a : alive) {
      if (a[0] > runTo) {
        heldIdle += runTo > runFrom ? gaps.overlap(runFrom, runTo) : 0;
        runFrom = a[0];
        runTo = a[1];
      } else {
        runTo = Math.max(runTo, a[1]);
      }
    }
    heldIdle += runTo > runFrom ? gaps.overlap(runFrom, runTo) : 0;
    double heldShare = heldIdle / (double) ctx.durationMs();
    if (held.isEmpty() || heldIdle < MIN_IDLE_MS || heldShare < MIN_SHARE) {
      return List.of();
    }
    held.sort(Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder())); // 2 before 10
    long idle = gaps.idle();
    EffectiveConf conf = ctx.conf();
    boolean dynamic = conf.isTrue("spark.dynamicAllocation.enabled");
    String summary = held.size() + " executor" + (held.size() == 1 ? "" : "s") + " held for " + humanMillis(executorMs)
        + " in all (" + Formats.fixed(coreMs / 3_600_000.0, 2) + " core-hours) while no job ran, through " + humanMillis(heldIdle)
        + " (" + percent(heldShare) + ") of the session";
    List<EvidenceRef> evidence = new ArrayList<>();
    evidence.add(ctx.apiRef("jobs", "no job ran for " + humanMillis(idle) + " of the session; the longest gap "
        + humanMillis(gaps.longest().length()) + " from " + Instant.ofEpochMilli(gaps.longest().start())));
    evidence.add(ctx.apiRef("allexecutors", held.size() + " executors alive during those gaps"));
    evidence.add(ctx.confRef("spark.dynamicAllocation.enabled"));
    // Checked against the removals: an executor removed well before the end was given back, not kept.
    long end = ctx.endMs();
    List<String> released = ctx.executors().stream().filter(e -> held.contains(e.id()))
        .filter(e -> e.removeTime().map(t -> end > 0 && t.toEpochMilli() < end - RELEASED_BEFORE_END_MS).orElse(false))
        .map(ExecutorSummary::id).toList();
    int stayed = held.size() - released.size();
    if (!released.isEmpty()) {
      evidence.add(ctx.apiRef("allexecutors", released.size() + " of them removed before the application ended (executors "
          + String.join(", ", released.subList(0, Math.min(released.size(), MAX_NAMED_EXECUTORS))) + ")"));
    }
    String allocation;
    if (!dynamic) {
      allocation = "Dynamic allocation is off, so the session kept every executor it started until it ended.";
    } else if (released.isEmpty()) {
      allocation = "Dynamic allocation is on, yet they stayed: a minimum number of executors, a long idle timeout "
          + "or cached data kept them.";
    } else if (stayed == 0) {
      allocation = "Dynamic allocation is on and released all of them before the end, but only after they had sat idle "
          + "(" + conf.cite("spark.dynamicAllocation.executorIdleTimeout") + "): the idle time before each was released is "
          + "the cost.";
    } else {
      allocation = "Dynamic allocation is on: it released " + released.size() + " of them before the end, after they had "
          + "sat idle (" + conf.cite("spark.dynamicAllocation.executorIdleTimeout") + "), and " + stayed
          + " stayed until the end: a minimum number of executors, a long idle timeout or "
          + "cached data kept " + (stayed == 1 ? "it" : "them") + ".";
    }
    String why = "This application is " + session + ": the " + humanMillis(idle) + " with no job running are the time between "
        + "the user's commands, not driver work. The session held " + held.size() + " executor"
        + (held.size() == 1 ? "" : "s") + " during " + (heldIdle == idle ? "all of it" : humanMillis(heldIdle) + " of it")
        + " (" + humanMillis(executorMs) + " of executor time, " + Formats.fixed(coreMs / 3_600_000.0, 2) + " core-hours) that "
        + "no one else could use. " + allocation;
    List<String> named = held.subList(0, Math.min(held.size(), MAX_NAMED_EXECUTORS));
    Severity severity = heldShare >= 0.5 ? Severity.MEDIUM : Severity.LOW;
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.IDLE_SESSION, severity,
            "An interactive session held executors while idle", summary, Culprit.none().withExecutors(named),
            List.of(new Metric("sessionIdleMs", idle, "ms"), new Metric("sessionIdleShare", share, "share"),
                new Metric("idleExecutorMs", executorMs, "ms"), new Metric("idleCoreHours", coreMs / 3_600_000.0, "h"),
                new Metric("heldIdleMs", heldIdle, "ms"), new Metric("executorsHeld", held.size(), "executors")),
            heldIdle, heldShare, evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why)
        .time(gaps.longest().start());
    if (dynamic) {
      b.recommend(Support.tune("Let the session give back idle executors sooner: lower the idle timeout and the "
              + "minimum, and let cached executors go too (or unpersist what is cached when done).",
          conf.cite("spark.dynamicAllocation.executorIdleTimeout"),
          List.of(prop(conf, "spark.dynamicAllocation.executorIdleTimeout", "60s"),
              prop(conf, "spark.dynamicAllocation.minExecutors", "0"),
              prop(conf, "spark.dynamicAllocation.cachedExecutorIdleTimeout", "30min"))));
    } else {
      b.recommend(Support.fix("Let the session give back the executors it does not use: enable dynamic allocation, "
              + "with shuffle tracking where no external shuffle service runs.",
          "An interactive session runs jobs now and then; with static executors it holds them all the time.",
          List.of(prop(conf, "spark.dynamicAllocation.enabled", "true"),
              prop(conf, "spark.dynamicAllocation.shuffleTracking.enabled", "true"),
              prop(conf, "spark.dynamicAllocation.executorIdleTimeout", "60s"))));
    }
    b.recommend(Support.tune("Stop the session (spark.stop(), or close the notebook's kernel) when the work is done.",
        "A session left open holds its driver and minimum executors until it is stopped.", List.of()));
    return List.of(b.build());
  }

  /**
   * When no job ran, from the first job's submission (or from {@code start}, when it is given and
   * earlier) to the end of the application.
   */
  private record Gaps(List<Gap> all, long idle, Gap longest) {
    static Gaps of(List<JobData> jobsBySubmission, long start, long end) {
      List<Gap> all = new ArrayList<>();
      long covered = jobsBySubmission.get(0).submissionTime().get().toEpochMilli();
      if (start > 0 && start < covered) {
        all.add(new Gap(start, covered));
      }
      for (JobData j : jobsBySubmission) {
        long s = j.submissionTime().get().toEpochMilli();
        if (s > covered) {
          all.add(new Gap(covered, s));
        }
        covered = Math.max(covered, j.completionTime().map(Instant::toEpochMilli).orElse(end));
      }
      if (end > covered) {
        all.add(new Gap(covered, end));
      }
      long idle = 0;
      Gap longest = new Gap(covered, covered);
      for (Gap g : all) {
        idle += g.length();
        if (g.length() > longest.length()) {
          longest = g;
        }
      }
      return new Gaps(List.copyOf(all), idle, longest);
    }

    /** How much of {@code [from, to)} falls in the gaps. */
    long overlap(long from, long to) {
      long sum = 0;
      for (Gap g : all) {
        sum += Math.max(0, Math.min(to, g.end()) - Math.max(from, g.start()));
      }
      return sum;
    }
  }

  private record Gap(long start, long end) {
    long length() {
      return end - start;
    }
  }
}
