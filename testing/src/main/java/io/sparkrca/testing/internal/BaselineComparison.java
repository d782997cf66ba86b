package io.sparkrca.testing.internal;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.analysis.rca.RcaRunner;
import java.util.Optional;

/**
 * The seam between {@code comparedTo(baseline)} and whatever compares two runs. Today: the ratio
 * of the two applications' wall times, and the RCA engine's verdict on the candidate analysed with
 * the baseline (its {@code CONFIG_REGRESSION} / {@code NO_REGRESSION_INPUT_GROWTH} analysis). When
 * the full comparison (aligned stages, input-normalised time, the first divergent stage) lands in
 * the analysis module, {@link #standard()} is rewired to it and the assertion keeps its shape.
 */
public interface BaselineComparison {

  /** How long each run took. */
  record Result(long candidateMs, long baselineMs) {
    /** candidate / baseline wall time; infinite when the baseline took no time. */
    public double ratio() {
      return baselineMs > 0 ? candidateMs / (double) baselineMs : Double.POSITIVE_INFINITY;
    }
  }

  /** The two runs' times (cheap: no analysis). */
  Result compare(SparkApplication candidate, SparkApplication baseline);

  /** What explains the difference, for a failure message (may analyse both runs). */
  Optional<String> explain(SparkApplication candidate, SparkApplication baseline);

  /** An application's wall time: its attempt's duration; for a run still going, its start to its last update. */
  static long wallMs(SparkApplication app) {
    var a = app.info().latestAttempt();
    if (a.duration() > 0) {
      return a.duration();
    }
    return Math.max(0, a.lastUpdated().toEpochMilli() - a.startTime().toEpochMilli());
  }

  /** The comparison the assertions use. */
  static BaselineComparison standard() {
    return EngineComparison.INSTANCE;
  }

  /** Wall time from the applications' attempts; the verdict from the RCA engine's baseline analysis. */
  final class EngineComparison implements BaselineComparison {
    static final EngineComparison INSTANCE = new EngineComparison();

    private EngineComparison() {}

    @Override
    public Result compare(SparkApplication candidate, SparkApplication baseline) {
      return new Result(BaselineComparison.wallMs(candidate), BaselineComparison.wallMs(baseline));
    }

    @Override
    public Optional<String> explain(SparkApplication candidate, SparkApplication baseline) {
      RcaReport report;
      try {
        report = RcaRunner.standard().run(EvidenceCollector.builder().application(candidate).baseline(baseline)
            .loadServiceProviders(false).build().collect());
      } catch (RuntimeException e) {
        return Optional.of("the RCA engine could not compare the runs (" + e.getMessage() + ")");
      }
      RootCauseKind kind = report.rootCause().kind();
      if (kind.category() == RootCauseKind.Category.COMPARISON) {
        return Optional.of(kind + " (" + report.rootCause().confidence() + "): " + report.rootCause().explanation());
      }
      return Optional.of("it names no regression and no input growth (its root cause: " + kind + ", "
          + report.rootCause().title() + ")");
    }
  }
}
