package io.sparkrca.fleet;

import io.sparkrca.core.error.InvalidRequestException;

/**
 * The options every fleet analysis takes, whether it runs in one JVM ({@link FleetScan}) or as a
 * Spark job (sparkrca-spark's {@code FleetJob}): how deep below the root logs are searched, whether
 * logs of running applications are left out, and whether the index is ignored. The builders of
 * both extend it, so the options mean the same and are checked the same in both.
 *
 * <pre>{@code
 * FleetScan scan = FleetScan.builder().maxDepth(3).skipInProgress(true).reanalyze(false).build();
 * }</pre>
 *
 * @param <B> the builder that extends it, returned by each setter
 */
public abstract class FleetOptions<B extends FleetOptions<B>> {
  private int maxDepth = FleetLogs.DEFAULT_MAX_DEPTH;
  private boolean skipInProgress;
  private boolean reanalyze;

  /** For the builders of this package and of sparkrca-spark. */
  protected FleetOptions() {}

  /**
   * How many directory levels below the root are searched (default {@value FleetLogs#DEFAULT_MAX_DEPTH}).
   *
   * @throws InvalidRequestException when {@code depth} is negative
   */
  public B maxDepth(int depth) {
    if (depth < 0) {
      throw new InvalidRequestException("the search depth must be 0 or more, not " + depth);
    }
    this.maxDepth = depth;
    return self();
  }

  /** Whether logs of applications still running are left out (default: analysed and marked in progress). */
  public B skipInProgress(boolean skip) {
    this.skipInProgress = skip;
    return self();
  }

  /** Whether every log is analysed again, whatever the index says (default false). */
  public B reanalyze(boolean reanalyze) {
    this.reanalyze = reanalyze;
    return self();
  }

  /** The options as set, for the object the builder builds. */
  protected final Chosen chosen() {
    return new Chosen(maxDepth, skipInProgress, reanalyze);
  }

  /** This builder, as its own type. */
  protected abstract B self();

  /**
   * The options as set.
   *
   * @param maxDepth directory levels searched below the root
   * @param skipInProgress whether logs of running applications are left out
   * @param reanalyze whether the index is ignored
   */
  public record Chosen(int maxDepth, boolean skipInProgress, boolean reanalyze) {
    /** Whether {@code log} is left out of the analysis. */
    public boolean leavesOut(FleetLog log) {
      return skipInProgress && log.inProgress();
    }
  }
}
