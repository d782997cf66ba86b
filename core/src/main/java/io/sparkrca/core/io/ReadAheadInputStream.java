package io.sparkrca.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads another stream ahead on a background thread, into a few reused buffers, so that producing
 * the bytes (decompressing zstd, gzip, ...) and consuming them (splitting and searching lines) run
 * on two cores at once, the way {@code zstdcat | grep} does. Memory is bounded by the buffers.
 * Failures of the underlying stream are rethrown by {@link #read}; {@link #close()} stops the
 * thread and closes the underlying stream.
 *
 * <pre>{@code
 * try (InputStream in = new ReadAheadInputStream(DecodedStream.open(source, true), 256 * 1024, 4)) {
 *   ... read as usual ...
 * }
 * }</pre>
 */
public final class ReadAheadInputStream extends InputStream {
  private static final Chunk END = new Chunk(new byte[0]);

  private static final class Chunk {
    final byte[] data;
    int length;
    Throwable error;

    Chunk(byte[] data) {
      this.data = data;
    }
  }

  private final InputStream in;
  private final BlockingQueue<Chunk> full;
  private final BlockingQueue<Chunk> free;
  private final Thread worker;
  private Chunk current;
  private int pos;
  private boolean ended;
  private volatile boolean closed;

  /**
   * @param in the stream to read ahead; owned (closed) by this one
   * @param bufferBytes the size of each buffer
   * @param buffers how many buffers (at least 2)
   */
  public ReadAheadInputStream(InputStream in, int bufferBytes, int buffers) {
    this.in = Objects.requireNonNull(in, "in");
    if (bufferBytes < 1 || buffers < 2) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "read-ahead: bufferBytes must be at least 1 and buffers at least 2, were " + bufferBytes
              + " and " + buffers);
    }
    this.full = new ArrayBlockingQueue<>(buffers + 1);
    this.free = new ArrayBlockingQueue<>(buffers);
    for (int i = 0; i < buffers; i++) {
      free.add(new Chunk(new byte[bufferBytes]));
    }
    this.worker = new Thread(this::fill, "sparkrca-read-ahead");
    worker.setDaemon(true);
    worker.start();
  }

  private void fill() {
    try {
      while (!closed) {
        Chunk c = free.take();
        int n;
        try {
          n = in.readNBytes(c.data, 0, c.data.length);
        } catch (IOException | RuntimeException | Error e) {
          c.error = e; // rethrown as is by read(), so callers see the original type
          c.length = 0;
          full.put(c);
          return;
        }
        if (n > 0) {
          c.length = n;
          full.put(c);
        }
        if (n < c.data.length) {
          full.put(END);
          return;
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  @Override
  public int read() throws IOException {
    return SingleByteRead.from(this);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (closed) {
      throw new IOException("stream closed");
    }
    if (len == 0) {
      return 0;
    }
    if (current == null || pos == current.length) {
      if (!next()) {
        return -1;
      }
    }
    int n = Math.min(len, current.length - pos);
    System.arraycopy(current.data, pos, b, off, n);
    pos += n;
    return n;
  }

  private boolean next() throws IOException {
    if (ended) {
      return false;
    }
    if (current != null && current != END) {
      free.offer(current);
      current = null;
    }
    Chunk c;
    try {
      c = full.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading ahead");
    }
    if (c == END) {
      ended = true;
      return false;
    }
    if (c.error != null) {
      ended = true;
      if (c.error instanceof IOException io) {
        throw io;
      }
      if (c.error instanceof RuntimeException re) {
        throw re;
      }
      throw (Error) c.error;
    }
    current = c;
    pos = 0;
    return true;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    worker.interrupt();
    in.close();
  }
}
