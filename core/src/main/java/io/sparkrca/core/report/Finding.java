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

  /** The metric named {@code name}. */
  public Optional<Metric> metric(String name) {
    return metrics.stream().filter(m -> m.name().equals(name)).findFirst();
  }
}
