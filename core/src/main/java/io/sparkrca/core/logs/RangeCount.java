package io.sparkrca.core.logs;

import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.LineReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts the lines, and the lines matching a query, of a local uncompressed log on several threads:
 * the file is cut into byte ranges that each start at a line start, every range is read by its own
 * {@link LineReader} (with its own matcher, which is not thread-safe), and the tallies are added up.
 * A line belongs to the range its first byte is in, and since every range but the last ends just
 * after a line terminator, each range splits into exactly the lines the whole file has there: line
 * ends ({@code \n}, {@code \r\n}, lone {@code \r}), cut-off over-long lines and an unterminated last
 * line count as they do in one pass. Strict reading is never split (its errors name line numbers).
 */
final class RangeCount {
  /** Below this size one thread is as fast: a second thread and matcher cost more than they save. */
  static final long MIN_BYTES = 16L << 20;
  /** The smallest range worth a thread of its own. */
  static final long MIN_RANGE_BYTES = 8L << 20;
  /** The most ranges: more threads than this gain nothing on memory bandwidth. */
  static final int MAX_PARTS = 4;

  private static final int PROBE = 64 * 1024;

  private RangeCount() {}

  /** What one range held. */
  record Tally(long lines, long matching) {
    Tally plus(Tally o) {
      return new Tally(lines + o.lines, matching + o.matching);
    }
  }

  /** Counts one range: a fresh reader, and a matcher of its own from {@code newMatcher}. */
  interface RangeCounter {
    Tally count(InputStream range, AtomicBoolean stop) throws IOException;
  }

  /** The default most ranges: one per core, at most {@value #MAX_PARTS}. */
  static int defaultParts() {
    return Math.min(MAX_PARTS, Runtime.getRuntime().availableProcessors());
  }

  /**
   * How many ranges a file of {@code size} bytes is cut into: none below {@code minBytes}, else as
   * many as {@code maxParts} allows with ranges of at least {@value #MIN_RANGE_BYTES} bytes (or
   * {@code minBytes}, when that is smaller).
   */
  static int parts(long size, int maxParts, long minBytes) {
    if (size < minBytes) {
      return 1;
    }
    long bySize = Math.max(1, size / Math.max(1, Math.min(MIN_RANGE_BYTES, minBytes)));
    return (int) Math.max(1, Math.min(maxParts, bySize));
  }

  /**
   * The range starts: 0, then the first line start at or after each of the evenly spaced split
   * points (a point inside a line moves to the start of the next line; a point inside a line that
   * runs past the next point is dropped), and {@code size} last.
   */
  static long[] boundaries(ByteSource source, long size, int parts) throws IOException {
    long[] points = new long[Math.max(0, parts - 1)];
    for (int i = 1; i < parts; i++) {
      points[i - 1] = size * i / parts;
    }
    return boundaries(source, size, points);
  }

  /** As above, with the split points given (ascending, each in 1 to size - 1). */
  static long[] boundaries(ByteSource source, long size, long[] points) throws IOException {
    List<Long> starts = new ArrayList<>();
    starts.add(0L);
    for (int i = 0; i < points.length; i++) {
      long prev = starts.get(starts.size() - 1);
      long p = points[i];
      if (p <= prev) {
        continue;
      }
      long limit = i + 1 < points.length ? points[i + 1] : size;
      long start = lineStartAtOrAfter(source, p, Math.max(limit, p + 1), size);
      if (start > prev && start < size) {
        starts.add(start);
      }
    }
    long[] r = new long[starts.size() + 1];
    for (int i = 0; i < starts.size(); i++) {
      r[i] = starts.get(i);
    }
    r[starts.size()] = size;
    return r;
  }

  /**
   * The first line start {@code q} with {@code from <= q < limit} ({@code from >= 1}), or -1. A line
   * starts where the byte before it ends a terminator: an LF, or a CR not followed by an LF.
   */
  static long lineStartAtOrAfter(ByteSource source, long from, long limit, long size) throws IOException {
    long pos = from - 1;
    while (pos < limit && pos < size) {
      byte[] b = source.read(pos, (int) Math.min(PROBE, size - pos));
      if (b.length == 0) {
        return -1;
      }
      for (int k = 0; k < b.length; k++) {
        long at = pos + k;
        if (at + 1 >= limit) {
          return -1;
        }
        byte c = b[k];
        if (c == '\n') {
          return at + 1;
        }
        if (c == '\r') {
          int next;
          if (k + 1 < b.length) {
            next = b[k + 1];
          } else {
            byte[] one = at + 1 < size ? source.read(at + 1, 1) : new byte[0];
            next = one.length == 0 ? -1 : one[0];
          }
          long start = next == '\n' ? at + 2 : at + 1;
          return start < limit ? start : -1;
        }
      }
      pos += b.length;
    }
    return -1;
  }

  /**
   * Counts {@code [starts[i], starts[i+1])} for every i, the first range on the calling thread and
   * each other one on a thread of its own, and adds the tallies up. The first failure is thrown
   * (the other ranges are told to stop).
   */
  static Tally count(ByteSource source, long[] starts, RangeCounter counter) throws IOException {
    AtomicBoolean stop = new AtomicBoolean();
    List<FutureTask<Tally>> others = new ArrayList<>();
    for (int i = 1; i + 1 < starts.length; i++) {
      long from = starts[i];
      long to = starts[i + 1];
      FutureTask<Tally> task = new FutureTask<>(() -> countRange(source, from, to, counter, stop));
      Thread t = new Thread(task, "sparkrca-count-" + i);
      t.setDaemon(true);
      others.add(task);
      t.start();
    }
    Tally total;
    try {
      total = countRange(source, starts[0], starts[1], counter, stop);
    } catch (IOException | RuntimeException | Error e) {
      stop.set(true);
      throw e;
    }
    try {
      for (FutureTask<Tally> task : others) {
        total = total.plus(task.get());
      }
    } catch (InterruptedException e) {
      stop.set(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while counting " + source.name());
    } catch (ExecutionException e) {
      stop.set(true);
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      // A range counter throws only IOException: nothing else checked can get here.
      throw new AssertionError("counting a range of " + source.name() + " failed", cause);
    }
    return total;
  }

  private static Tally countRange(ByteSource source, long from, long to, RangeCounter counter, AtomicBoolean stop)
      throws IOException {
    try (InputStream in = new Limited(source.openStream(from), to - from)) {
      return counter.count(in, stop);
    }
  }

  /** The first {@code remaining} bytes of a stream. */
  private static final class Limited extends FilterInputStream {
    private long remaining;

    Limited(InputStream in, long length) {
      super(in);
      this.remaining = length;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int c = in.read();
      if (c >= 0) {
        remaining--;
      }
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return len == 0 ? 0 : -1;
      }
      int n = in.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = in.skip(Math.min(n, remaining));
      remaining -= Math.max(0, s);
      return s;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(in.available(), remaining);
    }
  }
}
