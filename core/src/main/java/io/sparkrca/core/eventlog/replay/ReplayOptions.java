package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.error.InvalidRequestException;

/**
 * Knobs of a replay.
 *
 * <p>Memory: per task, a replay keeps about 60 to 110 bytes in packed columns (a 1,001,958-task
 * log retains 121 MiB in all, against 525 MiB for the History Server's in-memory store; see
 * {@code benchmarks/RESULTS.md}); {@code maxTaskRowsPerStage} bounds that part.
 *
 * <p>Threads: with {@code threads} 2 (the default on a machine with two or more processors) a replay
 * reads, decodes and splits its file on a second thread while the calling thread parses; with 1 it
 * runs on the calling thread alone. A caller that runs replays side by side, one per core (a fleet
 * scan), gives 1: each replay then uses one core, and two of them finish sooner than two replays
 * of two threads each on the same cores. {@code -Dsparkrca.replay.threads=1} makes 1 the default.
 *
 * <pre>{@code
 * ReplayOptions lean = new ReplayOptions(false, 1 << 20, 10_000); // 1 MiB lines, 10k tasks/stage
 * ReplayOptions oneThread = lean.withThreads(1);
 * }</pre>
 *
 * @param strict whether a bad line is fatal instead of skipped and reported
 * @param maxLineBytes the longest line read; longer ones are skipped and reported
 * @param maxTaskRowsPerStage task rows kept per stage attempt (stage and executor totals stay
 *     exact; task lists and task quantiles cover the kept rows, and the report says how many were
 *     dropped)
 * @param threads threads one replay may use, 1 or 2 (see above)
 */
public record ReplayOptions(boolean strict, int maxLineBytes, int maxTaskRowsPerStage, int threads) {
  /**
   * The default of {@link #threads}: 2 where there are two processors or more, unless {@code
   * -Dsparkrca.replay.threads=1} (the sources' default, {@link
   * io.sparkrca.core.source.SourceSettings#DEFAULT_READ_THREADS}).
   */
  public static final int DEFAULT_THREADS = io.sparkrca.core.source.SourceSettings.DEFAULT_READ_THREADS;

  /** Lenient, 64 MiB lines (plans of huge SQL queries fit), every task kept, default threads. */
  public static final ReplayOptions DEFAULTS = new ReplayOptions(false, 64 << 20, Integer.MAX_VALUE);

  /** Options with the {@linkplain #DEFAULT_THREADS default threads}. */
  public ReplayOptions(boolean strict, int maxLineBytes, int maxTaskRowsPerStage) {
    this(strict, maxLineBytes, maxTaskRowsPerStage, DEFAULT_THREADS);
  }

  public ReplayOptions {
    if (threads < 1 || threads > 2) {
      throw new InvalidRequestException(
          "Invalid event log reader settings: threads must be 1 (the calling thread alone) or 2 (reading "
              + "and decoding on a second thread), was " + threads);
    }
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

  /** These options with {@code threads} threads. */
  public ReplayOptions withThreads(int threads) {
    return new ReplayOptions(strict, maxLineBytes, maxTaskRowsPerStage, threads);
  }
}
