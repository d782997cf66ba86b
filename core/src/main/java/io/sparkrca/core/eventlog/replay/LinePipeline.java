package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.io.LineReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads, decodes and splits a log's lines on a second thread, copying them into batches, while the
 * replay thread parses and applies the batches in order: on two cores, reading, decompression and
 * line splitting overlap with the replay. The replay thread sees the same lines in the same order
 * as from the {@link LineReader} itself, so the result is that of a single-threaded replay.
 *
 * <p>(Parsing on the reading thread too was tried: the parsed events are objects that live across
 * collections, and filling them from another thread cost the garbage collector's write barriers
 * more than the parsing it moved.)
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

  private final LineReader lines;
  private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
  private final BlockingQueue<Batch> ready = new ArrayBlockingQueue<>(BATCHES);
  private final Thread thread;
  private volatile boolean cancelled;

  /** Lines split and possibly parsed by the reading thread. */
  static final class Batch {
    int count;
    byte[] data = new byte[BATCH_BYTES];
    private int used;
    final int[] start = new int[BATCH_LINES];
    final int[] length = new int[BATCH_LINES];
    final long[] number = new long[BATCH_LINES];
    /** For a line longer than the cap (which is not copied), its full length; else -1. */
    final long[] fullLength = new long[BATCH_LINES];
    /** Set on the last batch: the reading thread's failure, after this batch's lines. */
    Throwable failure;
    boolean last;

    private void reset() {
      count = 0;
      used = 0;
      failure = null;
      last = false;
      if (data.length != BATCH_BYTES) {
        data = new byte[BATCH_BYTES]; // drop an array grown for one huge line
      }
    }

    private boolean full() {
      return count == BATCH_LINES;
    }

    /**
     * Adds a copy of the reader's current line. False when it must go to the next batch (no room
     * for its bytes).
     */
    private boolean add(LineReader lines) {
      int k = count;
      number[k] = lines.lineNumber();
      if (lines.lineTruncated()) {
        fullLength[k] = lines.fullLength();
        count++;
        return true;
      }
      fullLength[k] = -1;
      byte[] b = lines.buffer();
      int from = lines.start();
      int n = lines.length();
      if (used + n > data.length) {
        if (count > 0) {
          return false;
        }
        data = new byte[n];
      }
      System.arraycopy(b, from, data, used, n);
      start[k] = used;
      length[k] = n;
      used += n;
      count++;
      return true;
    }
  }

  /** Starts reading {@code lines} on a new thread. */
  LinePipeline(LineReader lines, String name) {
    this.lines = lines;
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
    throw new UncheckedIOException(new IOException(failure));
  }

  private void run() {
    Batch b = null;
    try {
      while (lines.next()) {
        if (b == null) {
          b = takeFree();
          if (b == null) {
            return;
          }
        }
        if (!b.add(lines)) {
          ready.add(b);
          b = takeFree();
          if (b == null) {
            return;
          }
          b.add(lines);
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
