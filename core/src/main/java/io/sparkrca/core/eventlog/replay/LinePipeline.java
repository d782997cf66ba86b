package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.io.LineReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads, decodes and splits a log's lines on a second thread, in batches, and parses about half of
 * them there too, while the replay thread parses the rest and applies all of them in order: on two
 * cores, reading, decompression, splitting and half the parsing overlap with the replay.
 *
 * <p>The reading thread parses with its own {@link TaskEventScanner} and hands events over as
 * {@link EventRecords} (flat longs: filling long-lived event objects from another thread made the
 * garbage collector's write barriers cost more than the parsing moved); lines it does not parse,
 * or whose events records do not carry, are handed over as copies, which the replay thread reads
 * as it always does. Which thread parses a line changes nothing: the events, their order and every
 * state change are those of a single-threaded replay.
 *
 * <p>Bounded: {@link #BATCHES} batches of {@link #BATCH_BYTES} bytes and {@link #BATCH_LINES}
 * lines circulate (a line longer than a batch gets an array of its own, once). A failure of the
 * reading thread reaches the replay thread after the lines read before it; {@link #close} stops
 * the reading thread and waits for it, so the stream can be closed safely afterwards.
 */
final class LinePipeline implements Closeable {
  static final int BATCHES = 4;
  static final int BATCH_BYTES = 1 << 20;
  static final int BATCH_LINES = 2048;
  /** The kind of a line handed over as a copy (parsed ones carry the scanner's kinds). */
  static final byte RAW = 0;
  /** A line longer than the cap: only its length is handed over. */
  static final byte OVERLONG = -1;
  /** Records of a batch, in longs, before the array is kept at its grown size no longer. */
  private static final int RECORDS = 1 << 16;

  private final LineReader lines;
  private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
  private final BlockingQueue<Batch> ready = new ArrayBlockingQueue<>(BATCHES);
  private final Thread thread;
  private final boolean parse;
  /** The strings of the records: written by the reading thread, read by the replay thread. */
  final EventRecords.Strings strings = new EventRecords.Strings();
  private volatile boolean cancelled;

  /** Lines split and possibly parsed by the reading thread. */
  static final class Batch {
    int count;
    byte[] data = new byte[BATCH_BYTES];
    private int used;
    final int[] start = new int[BATCH_LINES];
    final int[] length = new int[BATCH_LINES];
    final long[] number = new long[BATCH_LINES];
    /** For an {@link #OVERLONG} line (which is not copied), its full length. */
    final long[] fullLength = new long[BATCH_LINES];
    /** {@link #RAW}, {@link #OVERLONG}, or the kind of the event recorded at {@link #recordAt}. */
    final byte[] kind = new byte[BATCH_LINES];
    final int[] recordAt = new int[BATCH_LINES];
    long[] records = new long[RECORDS];
    private int recordsUsed;
    /** Set on the last batch: the reading thread's failure, after this batch's lines. */
    Throwable failure;
    boolean last;

    private void reset() {
      count = 0;
      used = 0;
      recordsUsed = 0;
      failure = null;
      last = false;
      if (data.length != BATCH_BYTES) {
        data = new byte[BATCH_BYTES]; // drop an array grown for one huge line
      }
      if (records.length > 16 * RECORDS) {
        records = new long[RECORDS];
      }
    }

    private boolean full() {
      return count == BATCH_LINES;
    }

    /**
     * Adds the reader's current line: as a record when {@code scanner} is given and parses it into
     * {@code scratch}, else as a copy. False when it must go to the next batch (no room for its
     * bytes).
     */
    private boolean add(
        LineReader lines, TaskEventScanner scanner, ParsedEvent scratch, EventRecords.Strings strings) {
      int k = count;
      number[k] = lines.lineNumber();
      if (lines.lineTruncated()) {
        kind[k] = OVERLONG;
        fullLength[k] = lines.fullLength();
        count++;
        return true;
      }
      byte[] b = lines.buffer();
      int from = lines.start();
      int n = lines.length();
      if (scanner != null) {
        int parsed = scanner.scan(b, from, from + n, scratch);
        if (parsed != TaskEventScanner.NOT_HANDLED) {
          int room = EventRecords.maxLength(scratch);
          if (recordsUsed + room > records.length) {
            records = java.util.Arrays.copyOf(records, Math.max(records.length * 2, recordsUsed + room));
          }
          int end = EventRecords.encode(parsed, scratch, strings, records, recordsUsed);
          if (end >= 0) {
            kind[k] = (byte) parsed;
            recordAt[k] = recordsUsed;
            recordsUsed = end;
            count++;
            return true;
          }
        }
      }
      if (used + n > data.length) {
        if (count > 0) {
          return false;
        }
        data = new byte[n];
      }
      System.arraycopy(b, from, data, used, n);
      kind[k] = RAW;
      start[k] = used;
      length[k] = n;
      used += n;
      count++;
      return true;
    }
  }

  /**
   * Starts reading {@code lines} on a new thread.
   *
   * @param parse whether the reading thread parses about half of the lines (else it only splits)
   */
  LinePipeline(LineReader lines, String name, boolean parse) {
    this.lines = lines;
    this.parse = parse;
    for (int i = 0; i < BATCHES; i++) {
      free.add(new Batch());
    }
    thread = new Thread(this::run, "sparkrca-replay-reader " + name);
    thread.setDaemon(true);
    thread.start();
  }

  /** The next batch in order (null after the last one). Hand it back with {@link #recycle}. */
  Batch next() throws IOException {
    try {
      return ready.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while replaying");
    }
  }

  void recycle(Batch b) {
    free.add(b);
  }

  /** Rethrows a reading failure carried by {@code b} as what the reading thread threw. */
  static void rethrow(Throwable failure) throws IOException {
    if (failure instanceof IOException e) {
      throw e;
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    throw new io.sparkrca.core.error.SparkRcaException(
        "replay failed on its reading thread (" + failure + "); read again with "
            + "-Dsparkrca.replay.threads=1 to replay on the calling thread",
        failure);
  }

  private void run() {
    TaskEventScanner scanner = parse ? new TaskEventScanner() : null;
    ParsedEvent scratch = new ParsedEvent();
    Batch b = null;
    // Lines parsed here and lines handed over as copies: batches are parsed here while the first
    // count is not ahead, so each thread parses about half of the lines. (Parsed batches fill up
    // by lines, copied ones by bytes, so alternating batches would not split the work evenly.)
    long parsedHere = 0;
    long copied = 0;
    TaskEventScanner parser = null;
    try {
      while (lines.next()) {
        if (b == null || !b.add(lines, parser, scratch, strings)) {
          if (b != null) {
            ready.add(b);
          }
          b = takeFree();
          if (b == null) {
            return;
          }
          parser = parsedHere <= copied ? scanner : null;
          b.add(lines, parser, scratch, strings);
        }
        if (parser != null) {
          parsedHere++;
        } else {
          copied++;
        }
        if (b.full()) {
          ready.add(b);
          b = null;
        }
      }
      if (b == null) {
        b = takeFree();
        if (b == null) {
          return;
        }
      }
      b.last = true;
      ready.add(b);
    } catch (Throwable t) {
      if (b == null) {
        b = takeFree();
        if (b == null) {
          return;
        }
      }
      b.failure = t;
      b.last = true;
      ready.add(b);
    }
  }

  /** A free batch, reset; null once cancelled. */
  private Batch takeFree() {
    try {
      while (!cancelled) {
        Batch b = free.poll(100, TimeUnit.MILLISECONDS);
        if (b != null) {
          b.reset();
          return b;
        }
      }
    } catch (InterruptedException e) {
      // cancelled
    }
    return null;
  }

  /**
   * Stops the reading thread (if still running) and waits for it, so that the stream can be closed
   * next. (A read that never returns is given up on after a while; closing the stream then ends
   * it.)
   */
  @Override
  public void close() {
    cancelled = true;
    if (!thread.isAlive()) {
      return;
    }
    thread.interrupt();
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (thread.isAlive() && System.nanoTime() < deadline) {
      try {
        thread.join(1000);
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
