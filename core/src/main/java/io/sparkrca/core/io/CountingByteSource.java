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
 * inspector.inspect(counted, Optional.empty());
 * log.info("read {} bytes in {} requests", counted.bytesRead(), counted.requests());
 * }</pre>
 *
 * <p>Thread-safe; the counts only grow.
 */
public final class CountingByteSource implements ByteSource {
  private final ByteSource inner;
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();

  /** Counts what {@code inner} serves from now on. */
  public CountingByteSource(ByteSource inner) {
    this.inner = Objects.requireNonNull(inner, "inner");
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
    return new FilterInputStream(inner.openStream(offset)) {
      @Override
      public int read() throws IOException {
        int c = super.read();
        if (c >= 0) {
          bytes.incrementAndGet();
        }
        return c;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          bytes.addAndGet(n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        // Skipped bytes may be fetched or not depending on the source; count them as read so a
        // budget never under-reports.
        long skipped = super.skip(n);
        bytes.addAndGet(Math.max(0, skipped));
        return skipped;
      }
    };
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    requests.incrementAndGet();
    byte[] b = inner.read(offset, length);
    bytes.addAndGet(b.length);
    return b;
  }
}
