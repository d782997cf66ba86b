package io.sparkrca.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.testing.internal.BaselineComparison;
import io.sparkrca.testing.internal.Describe;
import java.util.Objects;
import org.assertj.core.api.AbstractAssert;

/**
 * A run compared with a healthy baseline run of the same job. The measure is the ratio of the two
 * applications' wall times; a failure adds what the RCA engine's comparison with the baseline says
 * (a configuration change that explains the slowdown, or input growth that does).
 *
 * <pre>{@code
 * assertThat(todaysRun).comparedTo(lastGoodRun).isNotSlowerThan(1.5);
 * }</pre>
 */
public class ComparisonAssert extends AbstractAssert<ComparisonAssert, SparkApplication> {
  private final SparkApplication baseline;
  private final BaselineComparison comparison;

  protected ComparisonAssert(SparkApplication actual, SparkApplication baseline) {
    this(actual, baseline, BaselineComparison.standard());
  }

  ComparisonAssert(SparkApplication actual, SparkApplication baseline, BaselineComparison comparison) {
    super(actual, ComparisonAssert.class);
    this.baseline = Objects.requireNonNull(baseline, "baseline");
    this.comparison = Objects.requireNonNull(comparison, "comparison");
  }

  /** Fails when the run took more than {@code factor} times the baseline's wall time. */
  public ComparisonAssert isNotSlowerThan(double factor) {
    isNotNull();
    if (!(factor > 0)) {
      throw new IllegalArgumentException("the factor must be positive, not " + factor);
    }
    BaselineComparison.Result r = comparison.compare(actual, baseline);
    if (r.ratio() <= factor) {
      return myself;
    }
    failWithMessage("%s", "Expecting " + Describe.app(actual) + " to take at most " + Describe.ratio(factor)
        + " times the wall time of its baseline " + Describe.app(baseline) + " but it took " + Describe.ms(r.candidateMs())
        + " against " + Describe.ms(r.baselineMs()) + " (" + Describe.ratio(r.ratio()) + " times)."
        // Explained only on failure: it analyses both runs.
        + comparison.explain(actual, baseline).map(v -> "\nThe RCA engine's comparison with the baseline: " + v).orElse(""));
    return myself;
  }
}
