package io.sparkrca.core.io;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ByteSource} over another one that counts the bytes it serves and the reads it starts
 * (each {@link #openStream(long)} and each ranged {@link #read(long, int)}): a way to see what a
 * reader really fetches from a remote object, for budgets, tests and benchmarks.
 *
 * <pre>{@code
 * CountingByteSource counted = new CountingByteSource(source);
 * DecodedStream.detect(counted); // reads the magic bytes only
 * log.info("read {} bytes in {} requests", counted.bytesRead(), counted.requests());
 * }</pre>
 *
 * <p>Thread-safe; the counts only grow. A {@link ReadListener}, when given, is told of each
 * stream opened and each read as it happens.
 */
public final class CountingByteSource implements ByteSource {
  private static final ReadListener NONE = bytes -> {};

  private final ByteSource inner;
  private final ReadListener listener;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();

  /** Counts what {@code inner} serves from now on. */
  public CountingByteSource(ByteSource inner) {
    this(inner, NONE);
  }

  /** Counts what {@code inner} serves from now on, and tells {@code listener} as it goes. */
  public CountingByteSource(ByteSource inner, ReadListener listener) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  private void served(long n) {
    bytes.addAndGet(n);
    listener.bytesRead(n);
  }

  /** The bytes served so far, through streams and ranged reads. */
  public long bytesRead() {
    return bytes.get();
  }

  /** The streams opened and ranged reads made so far. */
  public long requests() {
    return requests.get();
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public String fileName() {
    return inner.fileName();
  }

  @Override
  public OptionalLong size() throws IOException {
    return inner.size();
  }

  @Override
  public Optional<Instant> lastModified() throws IOException {
    return inner.lastModified();
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    requests.incrementAndGet();
    InputStream stream = inner.openStream(offset);
    if (listener != NONE) {
      // Asked only when someone listens: a remote source may need a request to know its size.
      OptionalLong size = inner.size();
      listener.streamOpened(name(), size.isPresent() ? OptionalLong.of(Math.max(0, size.getAsLong() - offset)) : size);
    }
    return new FilterInputStream(stream) {
      private boolean closed;

      @Override
      public int read() throws IOException {
        int c = super.read();
        if (c >= 0) {
          served(1);
        }
        return c;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          served(n);
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          if (!closed) {
            closed = true;
            listener.streamClosed(name());
          }
        }
      }

      @Override
      public long skip(long n) throws IOException {
        // Skipped bytes may be fetched or not depending on the source; count them as read so a
        // budget never under-reports.
        long skipped = super.skip(n);
        if (skipped > 0) {
          served(skipped);
        }
        return skipped;
      }
    };
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    requests.incrementAndGet();
    byte[] b = inner.read(offset, length);
    served(b.length);
    return b;
  }
}
