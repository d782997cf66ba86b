package io.sparkrca.core.report.html;

import io.sparkrca.core.report.Alternative;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.ChainLink;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.core.report.TimelineEvent;
import io.sparkrca.core.report.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * An RCA report shaped like that of the 1M-task benchmark log (benchmarks/compare), built by
 * hand so that a test has it without the 3.5 GB log: 10,000 jobs and stages on the timeline, 200
 * executors, four stages of interest with task and shuffle histograms, 50 findings whose culprits
 * list hundreds of stages, 100 timeline events, a failure chain and alternatives whose text lists
 * 600 stage ids, as the real report's do. Every string that may be folded in the page is unique,
 * so that a test finds each one.
 */
public final class LargeReport {
  /** Stages (and jobs) on the timeline. */
  public static final int STAGES = 10_000;
  /** Executors. */
  public static final int EXECUTORS = 200;
  /** Findings. */
  public static final int FINDINGS = 50;
  /** Timeline events. */
  public static final int EVENTS = 100;

  private static final long T0 = 1_700_000_000_000L;

  private LargeReport() {}

  /** The stage ids 0 to {@code n - 1}, comma-separated: the long text a real report carries. */
  public static String stageList(int from, int n) {
    return IntStream.range(from, from + n).mapToObj(Integer::toString).collect(Collectors.joining(", "));
  }

  /** The report. */
  public static RcaReport report() {
    List<RunProfile.Span> jobs = new ArrayList<>();
    List<RunProfile.Span> stages = new ArrayList<>();
    for (int i = 0; i < STAGES; i++) {
      long start = T0 + i * 360L;
      long end = start + 300 + (i % 97) * 40L;
      jobs.add(new RunProfile.Span("job " + i, "foreach at Job.scala:" + i, start, end + 5, "SUCCEEDED", 160, 0));
      stages.add(new RunProfile.Span("stage " + i + ".0", "foreach at Job.scala:" + i, start, end,
          i % 1000 == 7 ? "FAILED" : "COMPLETE", 160, 160_000));
    }
    List<RunProfile.ExecutorSpan> lives = new ArrayList<>();
    List<RunProfile.ExecutorLoad> loads = new ArrayList<>();
    for (int e = 1; e <= EXECUTORS; e++) {
      lives.add(new RunProfile.ExecutorSpan(Integer.toString(e), 4, T0 + e * 10L, e % 50 == 0 ? T0 + 3_000_000L : 0,
          e % 50 == 0 ? "lost worker" : ""));
      loads.add(new RunProfile.ExecutorLoad(Integer.toString(e), 10_000_000L + e * 1000, 40_000L * (e % 17), e * 1_000_000L,
          e * 400_000L));
    }
    List<RunProfile.TaskDistribution> dists = new ArrayList<>();
    for (int d = 0; d < 4; d++) {
      List<Long> edges = new ArrayList<>();
      List<Long> counts = new ArrayList<>();
      List<Long> bytes = new ArrayList<>();
      List<Long> byteCounts = new ArrayList<>();
      for (int b = 0; b <= RunProfile.BINS; b++) {
        edges.add(1000L + b * 600L);
        bytes.add(b * 1_000_000L);
      }
      for (int b = 0; b < RunProfile.BINS; b++) {
        counts.add((long) Math.max(1, 400 - Math.abs(b - 6) * 30));
        byteCounts.add((long) Math.max(1, 380 - Math.abs(b - 8) * 25));
      }
      dists.add(new RunProfile.TaskDistribution(d * 100, 0, "stage " + d * 100 + ".0: foreach at Job.scala:" + d * 100,
          counts.stream().mapToLong(Long::longValue).sum(), new RunProfile.Histogram("ms", edges, counts),
          Optional.of(new RunProfile.Histogram("bytes", bytes, byteCounts)), 4600, 18_900,
          "task " + (d * 1000 + 7) + " (partition 7) on executor 3", 8_000_000, 29_000_000, true));
    }
    RunProfile profile = new RunProfile("app-large", T0, T0 + STAGES * 360L + 5000, jobs, stages, STAGES, lives, loads,
        dists, List.of());

    List<Finding> findings = new ArrayList<>();
    for (int i = 1; i <= FINDINGS; i++) {
      findings.add(Finding.builder(i == 2 ? RootCauseKind.SPILL : RootCauseKind.DATA_SKEW, Severity.HIGH, "test")
          .id("F" + i)
          .title("finding " + i)
          .summary("finding " + i + " summary: the slowest task took 19.6 s = 10.3x the median 1.9 s, stages "
              + stageList(i * 7, i == 1 ? 300 : 3))
          .culprit(Culprit.stages(List.of(i)).withPartition(i).withExecutors(List.of(Integer.toString(i))))
          .cost(17_700, 0.01)
          .build());
    }
    List<TimelineEvent> events = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      events.add(new TimelineEvent(Instant.ofEpochMilli(T0 + i * 36_000L), "event log", "event " + i + ": job " + i
          + " started" + (i == 2 ? ", 344 task attempts of stages [" + stageList(0, 300) + "] failed" : ""), false,
          Optional.empty()));
    }
    List<ChainLink> chain = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      chain.add(new ChainLink(i, Optional.of(Instant.ofEpochMilli(T0 + i * 600_000L)), i == 1 ? ChainLink.Role.ROOT_CAUSE
          : ChainLink.Role.CONSEQUENCE, "chain step " + i + ": task attempts of stages [" + stageList(i * 1000, 300)
              + "] failed", Optional.empty()));
    }
    EvidenceRef log = new EvidenceRef(EvidenceRef.Kind.EVENT_LOG, "app-large", 1455, "task 182.0 of stage 0.0 failed");
    RootCause rc = RootCause.builder(RootCauseKind.FLAKY_INFRASTRUCTURE, Confidence.LEADING_HYPOTHESIS)
        .title("A transient task failure that a retry fixed")
        .explanation("344 attempts failed and succeeded on retry.")
        .culprit(Culprit.stages(List.of(0)))
        .evidenceFor(List.of(log))
        .alternatives(List.of(new Alternative(RootCauseKind.SPILL, "Spill to disk in stages " + stageList(0, 600),
            "spill explains 3.7 min of 18.7 min"), new Alternative(RootCauseKind.DATA_SKEW, "Skew", "bounded")))
        .findingId(Optional.of("F1"))
        .build();
    ApplicationRef app = new ApplicationRef("app-large", "large", Optional.empty(), "3.5.9", "me", "/logs/app-large",
        "event-log", "local[48]", Optional.of(Instant.ofEpochMilli(T0)), Optional.of(Instant.ofEpochMilli(T0 + 3_600_000L)),
        Optional.empty(), ApplicationRef.Outcome.SUCCEEDED);
    return RcaReport.builder(app, Verdict.PROBLEM, rc)
        .failureChain(chain)
        .timeline(events)
        .findings(findings)
        .notes(List.of("840 more findings were left out of the report."))
        .build()
        .withProfile(profile);
  }
}
