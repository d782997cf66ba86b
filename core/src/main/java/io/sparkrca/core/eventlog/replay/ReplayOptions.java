package io.sparkrca.core.eventlog.replay;

/**
 * Knobs of a replay.
 *
 * @param strict whether a bad line is fatal instead of skipped and reported
 * @param maxLineBytes the longest line read; longer ones are skipped and reported
 * @param maxTaskRowsPerStage task rows kept per stage attempt (aggregates stay exact)
 */
public record ReplayOptions(boolean strict, int maxLineBytes, int maxTaskRowsPerStage) {
  /** Lenient, 64 MiB lines (plans of huge SQL queries fit), every task kept. */
  public static final ReplayOptions DEFAULTS = new ReplayOptions(false, 64 << 20, Integer.MAX_VALUE);

  public ReplayOptions {
    if (maxLineBytes < 1024) {
      throw new IllegalArgumentException("maxLineBytes must be at least 1024");
    }
    if (maxTaskRowsPerStage < 0) {
      throw new IllegalArgumentException("maxTaskRowsPerStage must be >= 0");
    }
  }
}
