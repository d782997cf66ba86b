package io.sparkrca.cli;

import io.sparkrca.core.format.Formats;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on standard error for long commands: items done of the total,
 * bytes, rate and the time left, redrawn in place ({@code \r}) at most a few times a second, and
 * shown only when standard error is a terminal (a redirected or captured stream gets none of it, so
 * logs and pipes stay clean). Thread-safe: workers report as they finish.
 *
 * <pre>{@code
 * try (ProgressLine p = ProgressLine.create(err, ProgressLine.stderrIsTerminal(), "logs")) {
 *   p.start(total, totalBytes);
 *   p.advance(1, bytes);   // from any thread
 * }
 * }</pre>
 */
final class ProgressLine implements AutoCloseable {
  /** The least time between two redraws. */
  static final long REDRAW_NANOS = 250_000_000L;

  private final PrintWriter err;
  private final boolean enabled;
  private final String unit;
  private final LongSupplier clock;
  private long total;
  private long totalBytes;
  private long done;
  private long bytes;
  private long started;
  private long lastDraw = Long.MIN_VALUE;
  private long showAfterNanos;
  private int lastLength;
  private boolean ended;

  ProgressLine(PrintWriter err, boolean enabled, String unit, LongSupplier nanoClock) {
    this.err = err;
    this.enabled = enabled;
    this.unit = unit;
    this.clock = nanoClock;
  }

  /** A progress line counting {@code unit} (plural, e.g. {@code "logs"}), drawn only when {@code enabled}. */
  static ProgressLine create(PrintWriter err, boolean enabled, String unit) {
    return new ProgressLine(err, enabled, unit, System::nanoTime);
  }

  /**
   * Whether this process's standard error is a terminal. Java tells only whether the console as a
   * whole is one; on Linux the descriptor's link in {@code /proc/self/fd} says where stderr itself
   * goes, so that {@code sparkrca scan DIR > rows.jsonl} still shows progress.
   */
  static boolean stderrIsTerminal() {
    String term = System.getenv("TERM");
    if ("dumb".equals(term)) {
      return false;
    }
    return isTerminal(Path.of("/proc/self/fd/2")).orElseGet(() -> System.console() != null);
  }

  /** Whether the descriptor link {@code fd} points at a terminal device, when the system tells. */
  static java.util.Optional<Boolean> isTerminal(Path fd) {
    try {
      String target = Files.readSymbolicLink(fd).toString();
      return java.util.Optional.of(target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")
          || target.equals("/dev/console"));
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return java.util.Optional.empty();
    }
  }

  /**
   * Draws nothing until {@code nanos} after {@link #start}: work that ends sooner shows no
   * progress at all (no flash of a line on a quick command).
   */
  ProgressLine showAfter(long nanos) {
    this.showAfterNanos = nanos;
    return this;
  }

  /** Whether anything is drawn. */
  boolean enabled() {
    return enabled;
  }

  /** Starts counting towards {@code total} items of {@code totalBytes} bytes. */
  synchronized void start(long total, long totalBytes) {
    this.total = total;
    this.totalBytes = totalBytes;
    this.started = clock.getAsLong();
    draw(true);
  }

  /** Adds {@code items} and {@code bytes} to the totals, for work found as it goes (the files of a rolling log). */
  synchronized void grow(long items, long bytes) {
    this.total += items;
    this.totalBytes += bytes;
    draw(false);
  }

  /** Counts {@code items} more done, of {@code bytes} bytes. */
  synchronized void advance(long items, long bytes) {
    this.done += items;
    this.bytes += bytes;
    draw(items > 0 && done >= total);
  }

  /** The line as it reads now. */
  synchronized String line() {
    double seconds = Math.max(1e-3, (clock.getAsLong() - started) / 1e9);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%,d/%,d %s", done, total, unit));
    // A total the reads outgrew (a stream that decodes to more than its file's size, one opened with
    // no size) is no total: the bytes alone, and no time left by bytes.
    boolean sized = totalBytes > 0 && bytes <= totalBytes;
    if (sized) {
      sb.append(" · ").append(Formats.humanBytes(bytes)).append(" of ").append(Formats.humanBytes(totalBytes));
    } else if (bytes > 0) {
      sb.append(" · ").append(Formats.humanBytes(bytes));
    }
    if (bytes > 0) {
      sb.append(" · ").append(Formats.humanBytes(bytes / seconds)).append("/s");
    }
    if (done > 0) {
      sb.append(" · ").append(String.format(Locale.ROOT, "%.1f %s/s", done / seconds, unit));
    }
    // The time left by bytes when the sizes are known (the better measure), else by items.
    double left = sized && bytes > 0 ? (totalBytes - bytes) / (bytes / seconds)
        : done > 0 ? (total - done) / (done / seconds) : Double.NaN;
    if (!Double.isNaN(left) && (done < total || (sized && bytes < totalBytes))) {
      sb.append(" · ETA ").append(Formats.humanMillis(Math.max(0, left) * 1000));
    }
    return sb.toString();
  }

  private void draw(boolean force) {
    if (!enabled || ended) {
      return;
    }
    long now = clock.getAsLong();
    if (now - started < showAfterNanos) {
      return;
    }
    if (!force && lastDraw != Long.MIN_VALUE && now - lastDraw < REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    String l = line();
    // Pad over the end of a longer previous line.
    err.print("\r" + l + " ".repeat(Math.max(0, lastLength - l.length())));
    err.flush();
    lastLength = l.length();
  }

  /** Ends the line, so that what follows starts on its own. */
  @Override
  public synchronized void close() {
    if (enabled && !ended && lastDraw != Long.MIN_VALUE) {
      draw(true);
      err.println();
      err.flush();
    }
    ended = true;
  }

  /**
   * Erases the line, leaving the cursor where it began, and draws nothing more: what the command
   * prints next (a report) starts on a clean line, and no progress of finished reads is left behind.
   */
  synchronized void clear() {
    if (enabled && !ended && lastDraw != Long.MIN_VALUE && lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      err.flush();
    }
    ended = true;
  }
}
