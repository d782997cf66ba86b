package io.sparkrca.cli;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.ReadListener;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The progress of a command's reads (a large event log, a remote download, many executor logs):
 * files done of those opened, bytes, rate and time left, on one line of standard error, only when
 * standard error is a terminal and {@code --quiet} is not given, and only for reads that last more
 * than half a second ({@code SPARKRCA_PROGRESS_AFTER_MS} sets that delay). Standard output never
 * sees it.
 *
 * <pre>{@code
 * ByteSources sources = ReadProgress.track(http.sources(), spec);   // in a command
 * ...
 * ReadProgress.finish();   // SparkRcaCommand, once the command has returned
 * }</pre>
 */
final class ReadProgress implements ReadListener {
  /** Reads shorter than this show no progress; {@code SPARKRCA_PROGRESS_AFTER_MS} changes it. */
  private static final long SHOW_AFTER_NANOS = showAfterNanos(System.getenv("SPARKRCA_PROGRESS_AFTER_MS"));
  private static final AtomicReference<ReadProgress> CURRENT = new AtomicReference<>();

  private final ProgressLine line;

  private ReadProgress(ProgressLine line) {
    this.line = line;
    line.start(0, 0);
  }

  static long showAfterNanos(String millis) {
    try {
      return millis == null ? 500_000_000L : Math.max(0, Long.parseLong(millis.trim())) * 1_000_000L;
    } catch (NumberFormatException e) {
      return 500_000_000L;
    }
  }

  /** {@code sources}, reporting to the command's progress line when one is shown. */
  static ByteSources track(ByteSources sources, CommandSpec spec) {
    if (CliContract.quiet(spec) || !ProgressLine.stderrIsTerminal()) {
      return sources;
    }
    ReadProgress progress = CURRENT.updateAndGet(p -> p != null ? p
        : new ReadProgress(ProgressLine.create(spec.commandLine().getErr(), true, "files").showAfter(SHOW_AFTER_NANOS)));
    return sources.observed(progress);
  }

  /**
   * Erases the progress line, if one was shown, so that what the command prints next (its report,
   * its error) starts on a clean line and no line of finished reads is left on the terminal.
   */
  static void finish() {
    ReadProgress p = CURRENT.getAndSet(null);
    if (p != null) {
      p.line.clear();
    }
  }

  @Override
  public void streamOpened(String name, OptionalLong remaining) {
    line.grow(1, remaining.orElse(0));
  }

  @Override
  public void streamClosed(String name) {
    line.advance(1, 0);
  }

  @Override
  public void bytesRead(long bytes) {
    line.advance(0, bytes);
  }
}
