package io.sparkrca.rules.rca.internal;

import static io.sparkrca.rules.rca.internal.Support.finding;
import static io.sparkrca.rules.rca.internal.Support.ms;
import static io.sparkrca.rules.rca.internal.Support.pct;

import io.sparkrca.core.model.JobData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.rules.rca.AnalysisContext;
import io.sparkrca.rules.rca.Analyzer;
import io.sparkrca.rules.rca.Candidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Time the driver kept the cluster idle (seed 001 step 10, Sparklens' driver time): from the
 * first job to the end of the application, the time no job was running. The start-up before the
 * first job (JVM, session, planning the first query) is not counted: it is reported apart, as it is
 * seldom the job's own doing. A gap becomes a finding from {@value #MIN_SHARE} of the run time and
 * {@value #MIN_IDLE_MS} ms.
 */
public final class DriverTimeAnalyzer implements Analyzer {
  static final double MIN_SHARE = 0.30;
  static final long MIN_IDLE_MS = 5000;

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
    long idle = 0;
    long covered = jobs.get(0).submissionTime().get().toEpochMilli();
    long longestGap = 0;
    long longestGapStart = -1;
    for (JobData j : jobs) {
      long s = j.submissionTime().get().toEpochMilli();
      long e = j.completionTime().map(Instant::toEpochMilli).orElse(end);
      if (s > covered) {
        idle += s - covered;
        if (s - covered > longestGap) {
          longestGap = s - covered;
          longestGapStart = covered;
        }
      }
      covered = Math.max(covered, e);
    }
    if (end > covered) {
      long tail = end - covered;
      idle += tail;
      if (tail > longestGap) {
        longestGap = tail;
        longestGapStart = covered;
      }
    }
    double share = idle / (double) duration;
    if (idle < MIN_IDLE_MS || share < MIN_SHARE) {
      return List.of();
    }
    long startup = jobs.get(0).submissionTime().get().toEpochMilli() - ctx.startMs();
    String summary = ms(idle) + " (" + pct(share) + " of the run) with no job running between the first job and the "
        + "end; the longest gap " + ms(longestGap);
    List<EvidenceRef> evidence = new ArrayList<>();
    evidence.add(ctx.apiRef("jobs", jobs.size() + " jobs; no job ran for " + ms(idle) + " after the first one started"));
    String why = "Between its first job and its end the application spent " + ms(idle) + " (" + pct(share) + " of its "
        + ms(duration) + ") with no Spark job running: the driver was busy with its own work (collecting results "
        + "and processing them in the driver, Python or pandas code, sleeps, calls to other services), so the "
        + "executors waited. The longest such gap lasted " + ms(longestGap) + " from "
        + Instant.ofEpochMilli(longestGapStart) + "." + (startup > 0 ? " (The " + ms(startup) + " before the first job are "
        + "start-up and are not counted.)" : "");
    return List.of(Candidate.builder(finding(RootCauseKind.DRIVER_BOTTLENECK, share >= 0.5 ? Severity.HIGH : Severity.MEDIUM,
            "Time spent on the driver between jobs", summary, Culprit.none(),
            List.of(new Metric("driverIdleMs", idle, "ms"), new Metric("driverIdleShare", share, "share"),
                new Metric("longestGapMs", longestGap, "ms")), idle, share, evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why)
        .time(longestGapStart)
        .recommend(Support.fix("Move the driver-side work into Spark (distributed transformations instead of "
                + "collect-then-loop), run independent jobs concurrently, and remove sleeps or slow external calls "
                + "between actions.", "The cluster idles while the driver works.", List.of()))
        .want("driver log", "the driver log shows what the driver did in the gaps")
        .want("code", "the driver code between the actions is where the time goes")
        .build());
  }
}
