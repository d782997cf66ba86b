package io.sparkrca.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;
import io.sparkrca.testing.internal.Describe;
import io.sparkrca.testing.internal.StageChecks;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/**
 * The same checks as {@link StageDataAssert}, on every stage attempt that ran: one failure lists
 * every attempt that does not pass.
 *
 * <pre>{@code
 * assertThat(app).stages().hasSkewBelow(5.0).hasGcShareBelow(0.2);
 * }</pre>
 */
public class StagesAssert extends AbstractAssert<StagesAssert, List<StageData>> {
  private final SparkApplication app;

  protected StagesAssert(List<StageData> actual, SparkApplication app) {
    super(List.copyOf(actual), StagesAssert.class);
    this.app = app;
  }

  /**
   * Fails when a stage's slowest successful task took {@code ratio} times its median or more (stages
   * whose slowest task took under a second have no skew).
   */
  public StagesAssert hasSkewBelow(double ratio) {
    return check(StageChecks.skewBelow(ratio));
  }

  /** Fails when a stage spilled {@code bytes} or more to disk. */
  public StagesAssert hasSpillBelow(long bytes) {
    return check(StageChecks.spillBelow(bytes));
  }

  /** Fails when GC took {@code share} (0 to 1) or more of a stage's executor run time. */
  public StagesAssert hasGcShareBelow(double share) {
    return check(StageChecks.gcShareBelow(share));
  }

  /** Fails when a stage had more than {@code n} tasks. */
  public StagesAssert hasAtMostTasks(int n) {
    return check(StageChecks.atMostTasks(n));
  }

  private StagesAssert check(StageChecks.Check c) {
    isNotNull();
    StageChecks.failure(c, actual, Optional.of(app), Describe.app(app)).ifPresent(m -> failWithMessage("%s", m));
    return myself;
  }
}
