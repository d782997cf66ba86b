package io.sparkrca.fleet;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.fleet.internal.RowText;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.analysis.rca.RcaRunner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-application analysis of a fleet: collects one log's evidence with {@link
 * EvidenceCollector} (the event log alone, as {@code sparkrca rca EVENT_LOG} does, with no cluster
 * or code providers), names its root cause with {@link RcaEngine}, and turns the report into a
 * {@link FleetRow}. It never throws for a bad log: a log that cannot be read or analysed (corrupt,
 * not an event log, unreadable, too large for the heap) is an error row saying why. Each analysis
 * holds a {@link MemoryBudget} lease for its log's estimated heap while it runs.
 *
 * <pre>{@code
 * FleetAnalysis analysis = FleetAnalysis.builder().sources(ByteSources.defaults()).build();
 * FleetRow row = analysis.analyze(log);
 * System.out.println(row.toJson());
 * }</pre>
 *
 * <p>Immutable and thread-safe: one instance serves every thread of a scan.
 */
public final class FleetAnalysis {
  private static final Logger LOG = LoggerFactory.getLogger(FleetAnalysis.class);
  /** The standard engine without the charts' profile: a row holds none of it (before STANDARD, which uses it). */
  private static final RcaEngine ROWS_ONLY = RcaEngine.builder().charts(false).build();
  private static final FleetAnalysis STANDARD = builder().build();

  private final ByteSources bytes;
  private final SparkSources sources;
  private final RcaRunner runner;
  private final MemoryBudget budget;
  private final Duration timeout;

  private FleetAnalysis(Builder b) {
    this.bytes = b.sources;
    // Analyses run side by side, one per core (a scan's threads, a Spark executor's task slots):
    // each replay stays on its own thread. Two one-thread replays on 2 cores finished a fleet 1.2x
    // to 1.3x sooner than two replays that each decode on a second thread (benchmarks/RESULTS.md).
    this.sources = SparkSources.builder()
        .settings(SourceSettings.builder().byteSources(b.sources).readThreads(1).build())
        .build();
    this.runner = RcaRunner.builder().engine(b.engine).build();
    this.budget = b.budget;
    this.timeout = b.timeout;
  }

  /** Local files and the class path's byte sources, the standard engine, the JVM's shared budget. */
  public static FleetAnalysis standard() {
    return STANDARD;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Where the logs' bytes come from. */
  public ByteSources sources() {
    return bytes;
  }

  /** The memory budget the analyses share. */
  public MemoryBudget budget() {
    return budget;
  }

  /** The row of {@code log}; an error row when it cannot be analysed. */
  public FleetRow analyze(FleetLog log) {
    Objects.requireNonNull(log, "log");
    if (log.error().isPresent()) {
      return FleetRow.error(log, log.error().get());
    }
    try (MemoryBudget.Lease lease = budget.acquire(MemoryBudget.estimate(log))) {
      Evidence evidence = EvidenceCollector.builder()
          .sources(sources)
          .loadServiceProviders(false)
          .parallelism(1)
          .timeout(timeout)
          .application(log.uri())
          .build()
          .collect();
      if (evidence.app().isEmpty()) {
        return FleetRow.error(log, unreadable(log, evidence));
      }
      return row(log, evidence.app().get(), runner.run(evidence));
    } catch (SparkRcaException e) {
      return FleetRow.error(log, String.valueOf(e.getMessage()));
    } catch (RuntimeException | StackOverflowError e) {
      LOG.warn("analysing {} failed", log.uri(), e);
      return FleetRow.error(log, "the analysis failed (" + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); this is a sparkrca bug, please report it");
    } catch (OutOfMemoryError e) {
      // The replay's memory is bounded, so this is a log far beyond the heap the budget assumed.
      return FleetRow.error(log, "out of memory analysing this " + log.sizeBytes() + "-byte log (heap "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MiB): analyse it alone with a larger heap");
    }
  }

  private static String unreadable(FleetLog log, Evidence evidence) {
    List<EvidenceGap> gaps = evidence.gaps(EvidenceKind.EVENT_LOG);
    if (gaps.isEmpty()) {
      return "the event log could not be read";
    }
    EvidenceGap g = gaps.get(0);
    return g.detail() + (g.whatToDo().isEmpty() ? "" : " (" + g.whatToDo() + ")");
  }

  /** The row of an analysed application. */
  static FleetRow row(FleetLog log, SparkApplication app, RcaReport report) {
    ApplicationRef a = report.application();
    RootCause rc = report.rootCause();
    long duration = a.durationMs().orElse(0L);
    double coreHours = coreHours(app, a);
    long wastedMs;
    double wastedShare;
    if (report.verdict() == Verdict.HEALTHY) {
      wastedMs = 0;
      wastedShare = 0;
    } else if (a.outcome() == ApplicationRef.Outcome.FAILED) {
      wastedMs = duration;
      wastedShare = 1;
    } else {
      long cost = rc.findingId().flatMap(report::finding).map(Finding::estimatedCostMs).orElse(0L);
      wastedMs = Math.max(0, Math.min(cost, duration));
      wastedShare = duration > 0 ? (double) wastedMs / duration : 0;
    }
    Optional<String> top = report.recommendations().stream().findFirst().map(r -> RowText.clean(r.action()));
    return new FleetRow(Redactor.redactUri(log.uri()), log.sizeBytes(), log.modifiedTime(), log.inProgress(),
        RowText.date(a.startTime(), log.modifiedTime()), present(a.id()), a.attemptId(), present(a.name()),
        present(a.user()), present(a.sparkVersion()), a.startTime(), a.endTime(), a.durationMs(),
        Optional.of(a.outcome()), Optional.of(report.verdict()),
        Optional.of(new FleetRow.Cause(rc.kind(), rc.confidence(), RowText.clean(rc.title()), rc.stageIds())),
        wastedMs, RowText.hours(coreHours * wastedShare), RowText.hours(coreHours), top, Optional.empty());
  }

  /**
   * Cores times the time each executor was up, in hours: every executor but the driver, or the
   * driver alone when it ran the tasks (local mode).
   */
  static double coreHours(SparkApplication app, ApplicationRef a) {
    if (a.startTime().isEmpty()) {
      return 0;
    }
    long end = a.endTime().or(() -> a.durationMs().map(d -> a.startTime().get().plusMillis(d)))
        .map(Instant::toEpochMilli).orElse(a.startTime().get().toEpochMilli());
    List<ExecutorSummary> all = app.executors(false);
    boolean executors = all.stream().anyMatch(e -> !e.isDriver());
    double coreMs = 0;
    for (ExecutorSummary e : all) {
      if (e.isDriver() == executors) {
        continue;
      }
      long up = e.removeTime().map(Instant::toEpochMilli).orElse(end) - e.addTime().toEpochMilli();
      coreMs += (double) Math.max(0, e.totalCores()) * Math.max(0, up);
    }
    return coreMs / 3_600_000.0;
  }

  private static Optional<String> present(String s) {
    return s == null || s.isEmpty() ? Optional.empty() : Optional.of(RowText.clean(s));
  }

  /** Builds a {@link FleetAnalysis}. */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private RcaEngine engine = ROWS_ONLY;
    private MemoryBudget budget = MemoryBudget.shared();
    private Duration timeout = Duration.ofMinutes(10);

    private Builder() {}

    /** Where the logs' bytes come from (default: local files and the class path's providers). */
    public Builder sources(ByteSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** The engine (default: {@link RcaEngine#standard()}'s analyzers without charts, which rows do not hold). */
    public Builder engine(RcaEngine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
      return this;
    }

    /** The memory budget analyses lease from (default {@link MemoryBudget#shared()}). */
    public Builder budget(MemoryBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /** How long reading one log may take before it is an error row (default 10 minutes). */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new InvalidRequestException("the time allowed per log must be positive, not " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    public FleetAnalysis build() {
      return new FleetAnalysis(this);
    }
  }
}
