package io.sparkrca.core.report;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One thing an analyzer found, with what it concerns, the numbers, how much wall time it
 * explains, and the evidence it rests on. A report ranks its findings; the first that is not
 * fallout is the root cause.
 *
 * <pre>{@code
 * for (Finding f : report.findings()) {
 *   System.out.println(f.severity() + " " + f.kind() + ": " + f.summary() + " (" + f.culprit().describe() + ")");
 * }
 * }</pre>
 *
 * <p>Built with {@link #builder}; only what differs from the defaults (no metrics, no cost, not
 * fallout, no evidence) needs naming:
 *
 * <pre>{@code
 * Finding f = Finding.builder(RootCauseKind.DATA_SKEW, Severity.HIGH, "DataSkewAnalyzer")
 *     .id("F1")
 *     .title("Data skew in stage 4")
 *     .summary("The longest task ran 12x the median.")
 *     .culprit(Culprit.stages(List.of(4)))
 *     .cost(42_000, 0.35)
 *     .build();
 * }</pre>
 *
 * @param id unique within the report, e.g. {@code F3}
 * @param kind what it is
 * @param severity how much it matters
 * @param title a short title, e.g. {@code "Data skew in stage 4"}
 * @param summary one sentence with the measured numbers
 * @param culprit what it concerns
 * @param metrics the numbers it rests on
 * @param estimatedCostMs the wall time it explains (for performance findings; 0 when not estimated)
 * @param costShare that time as a share (0-1) of the application's run time
 * @param fallout whether it is a consequence of another finding rather than a cause
 * @param causedBy the finding it is fallout of
 * @param evidence where it is supported
 * @param analyzer which analyzer found it
 */
public record Finding(
    String id,
    RootCauseKind kind,
    Severity severity,
    String title,
    String summary,
    Culprit culprit,
    List<Metric> metrics,
    long estimatedCostMs,
    double costShare,
    boolean fallout,
    Optional<String> causedBy,
    List<EvidenceRef> evidence,
    String analyzer) {
  public Finding {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(culprit, "culprit");
    metrics = List.copyOf(metrics);
    Objects.requireNonNull(causedBy, "causedBy");
    evidence = List.copyOf(evidence);
    Objects.requireNonNull(analyzer, "analyzer");
  }

  /** A builder of a finding of {@code kind} and {@code severity} found by {@code analyzer}. */
  public static Builder builder(RootCauseKind kind, Severity severity, String analyzer) {
    return new Builder(kind, severity, analyzer);
  }

  /** A builder holding this finding's fields, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder(kind, severity, analyzer).id(id).title(title).summary(summary).culprit(culprit)
        .metrics(metrics).cost(estimatedCostMs, costShare).evidence(evidence);
    b.fallout = fallout;
    b.causedBy = causedBy;
    return b;
  }

  /** The metric named {@code name}. */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  /** Builds a {@link Finding}; title, summary and culprit are required. Not thread-safe. */
  public static final class Builder {
    private final RootCauseKind kind;
    private final Severity severity;
    private final String analyzer;
    private String id = "";
    private String title;
    private String summary;
    private Culprit culprit;
    private List<Metric> metrics = List.of();
    private long estimatedCostMs;
    private double costShare;
    private boolean fallout;
    private Optional<String> causedBy = Optional.empty();
    private List<EvidenceRef> evidence = List.of();

    private Builder(RootCauseKind kind, Severity severity, String analyzer) {
      this.kind = kind;
      this.severity = severity;
      this.analyzer = analyzer;
    }

    /** Unique within the report (default empty: the engine assigns it). */
    public Builder id(String id) {
      this.id = id;
      return this;
    }

    /** A short title. */
    public Builder title(String title) {
      this.title = title;
      return this;
    }

    /** One sentence with the measured numbers. */
    public Builder summary(String summary) {
      this.summary = summary;
      return this;
    }

    /** What it concerns. */
    public Builder culprit(Culprit culprit) {
      this.culprit = culprit;
      return this;
    }

    /** The numbers it rests on (default none). */
    public Builder metrics(List<Metric> metrics) {
      this.metrics = metrics;
      return this;
    }

    /** The wall time it explains and that time's share (0-1) of the run time (default 0 and 0). */
    public Builder cost(long estimatedCostMs, double costShare) {
      this.estimatedCostMs = estimatedCostMs;
      this.costShare = costShare;
      return this;
    }

    /** Marks it as fallout of the finding {@code causeId} (default: not fallout). */
    public Builder falloutOf(String causeId) {
      this.fallout = true;
      this.causedBy = Optional.of(causeId);
      return this;
    }

    /** Where it is supported (default nowhere). */
    public Builder evidence(List<EvidenceRef> evidence) {
      this.evidence = evidence;
      return this;
    }

    /** @throws NullPointerException naming the first required field not given */
    public Finding build() {
      return new Finding(id, kind, severity, title, summary, culprit, metrics, estimatedCostMs, costShare, fallout,
          causedBy, evidence, analyzer);
    }
  }
}
