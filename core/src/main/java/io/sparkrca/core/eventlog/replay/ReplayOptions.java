package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.error.InvalidRequestException;

/**
 * Knobs of a replay.
 *
 * <p>Memory: per task, a replay keeps about 60 to 110 bytes in packed columns (a 1,001,958-task
 * log retains 121 MiB in all, against 525 MiB for the History Server's in-memory store; see
 * {@code benchmarks/RESULTS.md}); {@code maxTaskRowsPerStage} bounds that part.
 *
 * <pre>{@code
 * ReplayOptions lean = new ReplayOptions(false, 1 << 20, 10_000); // 1 MiB lines, 10k tasks/stage
 * }</pre>
 *
 * @param strict whether a bad line is fatal instead of skipped and reported
 * @param maxLineBytes the longest line read; longer ones are skipped and reported
 * @param maxTaskRowsPerStage task rows kept per stage attempt (stage and executor totals stay
 *     exact; task lists and task quantiles cover the kept rows, and the report says how many were
 *     dropped)
 */
public record ReplayOptions(boolean strict, int maxLineBytes, int maxTaskRowsPerStage) {
  /** Lenient, 64 MiB lines (plans of huge SQL queries fit), every task kept. */
  public static final ReplayOptions DEFAULTS = new ReplayOptions(false, 64 << 20, Integer.MAX_VALUE);

  public ReplayOptions {
    if (maxLineBytes < 1024) {
      throw new InvalidRequestException(
          "Invalid event log reader settings: maxLineBytes must be at least 1024, was " + maxLineBytes);
    }
    if (maxTaskRowsPerStage < 0) {
      throw new InvalidRequestException(
          "Invalid event log reader settings: maxTaskRowsPerStage must be 0 or more (0 keeps no "
              + "task rows), was " + maxTaskRowsPerStage);
    }
  }
}
