package io.sparkrca.testing;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;
import io.sparkrca.testing.internal.StageChecks;
import java.util.Objects;
import java.util.Optional;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on one stage attempt. Reached through {@code assertThat(app).stage(id)} it reads the
 * application's task summary and slowest task; from {@code assertThat(stageData)} alone it has only
 * the attempt's own fields (and its task distributions when it was read with summaries).
 *
 * <pre>{@code
 * assertThat(app).stage(4)
 *     .hasSkewBelow(5.0)
 *     .hasSpillBelow(64L << 20)
 *     .hasGcShareBelow(0.10)
 *     .hasAtMostTasks(200);
 * }</pre>
 */
public class StageDataAssert extends AbstractAssert<StageDataAssert, StageData> {
  private final Optional<SparkApplication> app;

  protected StageDataAssert(StageData actual, Optional<SparkApplication> app) {
    super(actual, StageDataAssert.class);
    this.app = Objects.requireNonNull(app, "app");
  }

  /**
   * Fails when the slowest successful task took {@code ratio} times the median or more. A stage
   * with fewer than two successful tasks, or whose slowest task took under a second, has no skew.
   */
  public StageDataAssert hasSkewBelow(double ratio) {
    return check(StageChecks.skewBelow(ratio));
  }

  /** Fails when the stage spilled {@code bytes} or more to disk. */
  public StageDataAssert hasSpillBelow(long bytes) {
    return check(StageChecks.spillBelow(bytes));
  }

  /** Fails when GC took {@code share} (0 to 1) or more of the stage's executor run time. */
  public StageDataAssert hasGcShareBelow(double share) {
    return check(StageChecks.gcShareBelow(share));
  }

  /** Fails when the stage had more than {@code n} tasks. */
  public StageDataAssert hasAtMostTasks(int n) {
    return check(StageChecks.atMostTasks(n));
  }

  private StageDataAssert check(StageChecks.Check c) {
    isNotNull();
    StageChecks.failure(c, actual, app).ifPresent(m -> failWithMessage("%s", m));
    return myself;
  }
}
