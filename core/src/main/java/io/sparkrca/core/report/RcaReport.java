package io.sparkrca.core.report;

import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.html.ChartSource;
import io.sparkrca.core.report.html.HtmlSection;
import io.sparkrca.core.report.html.RunProfile;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A root-cause analysis of one application: its identity, the verdict, the root cause with its
 * confidence and evidence, the failure chain, the timeline, every finding ranked, the
 * recommendations (immediate fix and tuning, with exact property values), and the evidence that
 * was missing with what to fetch next. Immutable. Markdown follows the RCA template of the Spark
 * troubleshooting playbooks; JSON follows the versioned schema {@code rca-report.schema.json}
 * (this package's resource, {@link #SCHEMA_RESOURCE}). Secrets are redacted in both.
 *
 * <pre>{@code
 * RcaReport report = RcaEngine.standard().analyze(evidence);
 * System.out.println(report.rootCause().kind() + " " + report.rootCause().confidence());
 * Files.writeString(Path.of("rca.json"), report.toJson());
 * System.exit(report.exitCode());
 * }</pre>
 *
 * <p>Built with {@link #builder} (what is not named is empty), or changed with {@link #toBuilder()}:
 *
 * <pre>{@code
 * RcaReport built = RcaReport.builder(application, Verdict.PROBLEM, cause).findings(List.of(finding)).build();
 * }</pre>
 *
 * @param application which application
 * @param verdict healthy, a problem, or undetermined
 * @param rootCause the root cause (for a healthy run, kind {@link RootCauseKind#HEALTHY})
 * @param failureChain the root cause and its fallout, in order
 * @param timeline events from the event log and the logs on one timeline
 * @param findings every finding, ranked: the root cause's first
 * @param recommendations what to do, most important first
 * @param missingEvidence what was missing and would matter
 * @param notes anything else the reader should know about the analysis
 * @param charts what the HTML report's charts are drawn from (the timeline, the culprit stages'
 *     tasks, the executors' GC and spill), when the application was read: profiled when the page is
 *     rendered; not part of the JSON
 * @param sections further parts of the HTML report (the comparison with a baseline); not part of
 *     the JSON, whose root cause and findings already carry their conclusions
 */
public record RcaReport(
    ApplicationRef application,
    Verdict verdict,
    RootCause rootCause,
    List<ChainLink> failureChain,
    List<TimelineEvent> timeline,
    List<Finding> findings,
    List<Recommendation> recommendations,
    List<MissingEvidence> missingEvidence,
    List<String> notes,
    Optional<ChartSource> charts,
    List<HtmlSection> sections) implements Report {
  /** The version of the JSON shape; bumped when a field changes meaning or disappears. */
  public static final int SCHEMA_VERSION = 1;
  /** The class-path resource holding the JSON Schema of {@link #toJson()}. */
  public static final String SCHEMA_RESOURCE = "/io/sparkrca/core/report/rca-report.schema.json";

  public RcaReport {
    Objects.requireNonNull(application, "application");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(rootCause, "rootCause");
    failureChain = List.copyOf(failureChain);
    timeline = List.copyOf(timeline);
    findings = List.copyOf(findings);
    recommendations = List.copyOf(recommendations);
    missingEvidence = List.copyOf(missingEvidence);
    notes = List.copyOf(notes);
    Objects.requireNonNull(charts, "charts");
    sections = List.copyOf(sections);
  }

  /** A report without charts or further HTML sections. */
  public RcaReport(ApplicationRef application, Verdict verdict, RootCause rootCause, List<ChainLink> failureChain,
      List<TimelineEvent> timeline, List<Finding> findings, List<Recommendation> recommendations,
      List<MissingEvidence> missingEvidence, List<String> notes) {
    this(application, verdict, rootCause, failureChain, timeline, findings, recommendations, missingEvidence, notes,
        Optional.empty(), List.of());
  }

  /** A builder of the report on {@code application}: what is not named is empty. */
  public static Builder builder(ApplicationRef application, Verdict verdict, RootCause rootCause) {
    return new Builder(application, verdict, rootCause);
  }

  /** A builder holding this report's fields, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder(application, verdict, rootCause).failureChain(failureChain).timeline(timeline)
        .findings(findings).recommendations(recommendations).missingEvidence(missingEvidence).notes(notes);
    b.charts = charts;
    b.sections.addAll(sections);
    return b;
  }

  /** This report with its HTML charts drawn from {@code source} (the application, profiled when rendered). */
  public RcaReport withCharts(ChartSource source) {
    return toBuilder().charts(source).build();
  }

  /** This report with the numbers its HTML charts draw, made already. */
  public RcaReport withProfile(RunProfile p) {
    return withCharts(ChartSource.of(p));
  }

  /**
   * What the HTML charts draw: the culprit stages' tasks in detail (the longest stage's when the
   * root cause names none); made on each call from {@link #charts()}, empty without charts.
   */
  public Optional<RunProfile> profile() {
    return charts.flatMap(c -> c.profile(rootCause.stageIds()));
  }

  /** This report with one more HTML section (a comparison with a baseline, say). */
  public RcaReport withSection(HtmlSection s) {
    return toBuilder().section(s).build();
  }

  /** The command line's exit code: 0 healthy on sufficient evidence, 1 otherwise. */
  public int exitCode() {
    return verdict.exitCode();
  }

  /** The finding with this id. */
  public Optional<Finding> finding(String id) {
    return findings.stream().filter(f -> f.id().equals(id)).findFirst();
  }

  @Override
  public String toMarkdown() {
    return RcaMarkdown.render(this);
  }

  @Override
  public String toJson() {
    return RcaJson.write(this);
  }

  /** One self-contained HTML page: the report's sections, with charts (profiled now) when {@link #charts()} is present. */
  @Override
  public String toHtml() {
    return RcaHtml.render(this);
  }

  /** Builds an {@link RcaReport}. Not thread-safe. */
  public static final class Builder {
    private final ApplicationRef application;
    private final Verdict verdict;
    private final RootCause rootCause;
    private List<ChainLink> failureChain = List.of();
    private List<TimelineEvent> timeline = List.of();
    private List<Finding> findings = List.of();
    private List<Recommendation> recommendations = List.of();
    private List<MissingEvidence> missingEvidence = List.of();
    private List<String> notes = List.of();
    private Optional<ChartSource> charts = Optional.empty();
    private final List<HtmlSection> sections = new java.util.ArrayList<>();

    private Builder(ApplicationRef application, Verdict verdict, RootCause rootCause) {
      this.application = application;
      this.verdict = verdict;
      this.rootCause = rootCause;
    }

    /** The failure chain, root cause first. */
    public Builder failureChain(List<ChainLink> links) {
      this.failureChain = links;
      return this;
    }

    /** The key events, in time order. */
    public Builder timeline(List<TimelineEvent> events) {
      this.timeline = events;
      return this;
    }

    /** Every finding, ranked: the root cause's first. */
    public Builder findings(List<Finding> ranked) {
      this.findings = ranked;
      return this;
    }

    /** What to do, most important first. */
    public Builder recommendations(List<Recommendation> list) {
      this.recommendations = list;
      return this;
    }

    /** What was missing and would matter. */
    public Builder missingEvidence(List<MissingEvidence> gaps) {
      this.missingEvidence = gaps;
      return this;
    }

    /** Anything else the reader should know about the analysis. */
    public Builder notes(List<String> notes) {
      this.notes = notes;
      return this;
    }

    /** What the HTML report's charts are drawn from (default: no charts). */
    public Builder charts(ChartSource source) {
      this.charts = Optional.of(Objects.requireNonNull(source, "source"));
      return this;
    }

    /** One more part of the HTML report, after those already added. */
    public Builder section(HtmlSection section) {
      this.sections.add(Objects.requireNonNull(section, "section"));
      return this;
    }

    public RcaReport build() {
      return new RcaReport(application, verdict, rootCause, failureChain, timeline, findings, recommendations,
          missingEvidence, notes, charts, sections);
    }
  }
}
