package io.sparkrca.testing;

import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.testing.internal.Describe;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a root-cause analysis. A failure quotes the root cause the engine found, its
 * explanation and its recommendations, so the test log says what to do.
 *
 * <pre>{@code
 * RcaReport report = RcaEngine.standard().analyze(evidence);
 * assertThat(report).hasRootCause(RootCauseKind.DATA_SKEW);
 * assertThat(RcaEngine.standard().analyze(healthyApp)).isHealthy();
 * }</pre>
 */
public class RcaReportAssert extends AbstractAssert<RcaReportAssert, RcaReport> {
  protected RcaReportAssert(RcaReport actual) {
    super(actual, RcaReportAssert.class);
  }

  /** Fails unless the verdict is {@link Verdict#HEALTHY}. */
  public RcaReportAssert isHealthy() {
    isNotNull();
    if (actual.verdict() != Verdict.HEALTHY) {
      fail("Expecting the RCA of " + app() + " to find it HEALTHY but it found " + found());
    }
    return myself;
  }

  /** Fails unless the root cause is of {@code kind}. */
  public RcaReportAssert hasRootCause(RootCauseKind kind) {
    isNotNull();
    Objects.requireNonNull(kind, "kind");
    if (actual.rootCause().kind() != kind) {
      fail("Expecting the root cause of " + app() + " to be " + kind + " (" + kind.title() + ") but it was " + found());
    }
    return myself;
  }

  /** Fails unless the verdict is {@code verdict}. */
  public RcaReportAssert hasVerdict(Verdict verdict) {
    isNotNull();
    Objects.requireNonNull(verdict, "verdict");
    if (actual.verdict() != verdict) {
      fail("Expecting the RCA verdict on " + app() + " to be " + verdict + " but it was " + actual.verdict() + ": " + found());
    }
    return myself;
  }

  /** Fails when any finding (root cause or not) is of {@code kind}. */
  public RcaReportAssert hasNoFindingOf(RootCauseKind kind) {
    isNotNull();
    List<Finding> hits = actual.findings().stream().filter(f -> f.kind() == kind).toList();
    if (!hits.isEmpty()) {
      fail("Expecting the RCA of " + app() + " to have no " + kind + " finding but it has "
          + Describe.count(hits.size(), "finding", "findings") + ":" + Describe.lines(hits.stream()
              .map(f -> f.id() + " " + f.severity() + ": " + f.title() + ": " + f.summary()).toList()));
    }
    return myself;
  }

  private String app() {
    return "application " + actual.application().id();
  }

  /** The root cause as the message quotes it: kind, confidence, title, explanation, what to do. */
  private String found() {
    RootCause rc = actual.rootCause();
    StringBuilder sb = new StringBuilder();
    sb.append(rc.kind()).append(" (").append(rc.confidence()).append("): ").append(rc.title()).append("\n  ")
        .append(rc.explanation());
    rc.toConfirm().ifPresent(c -> sb.append("\nTo confirm: ").append(c));
    if (!actual.recommendations().isEmpty()) {
      sb.append("\nRecommendations:").append(Describe.lines(actual.recommendations().stream()
          .map(RcaReportAssert::recommendation).toList()));
    }
    return sb.toString();
  }

  private static String recommendation(Recommendation r) {
    return r.priority() + ": " + r.action() + (r.properties().isEmpty() ? "" : " (" + r.properties().stream()
        .map(RcaReportAssert::property).collect(Collectors.joining(", ")) + ")");
  }

  private static String property(PropertyChange p) {
    return p.property() + "=" + p.recommended() + p.current().map(c -> " (now " + c + ")").orElse("");
  }

  private void fail(String message) {
    failWithMessage("%s", message);
  }
}
