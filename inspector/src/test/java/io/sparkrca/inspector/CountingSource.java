package io.sparkrca.inspector;

import io.sparkrca.core.io.ByteSource;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A ranged {@link ByteSource} over another one that counts the bytes and requests it serves: the
 * stand-in for a remote object store in tests of what the inspector actually reads.
 */
final class CountingSource implements ByteSource {
  private final ByteSource inner;
  final AtomicLong bytes = new AtomicLong();
  final AtomicLong requests = new AtomicLong();

  CountingSource(ByteSource inner) {
    this.inner = inner;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public OptionalLong size() throws IOException {
    return inner.size();
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
    };
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    requests.incrementAndGet();
    byte[] b = inner.read(offset, length);
    bytes.addAndGet(b.length);
    return b;
  }

  @Override
  public String fileName() {
    return inner.fileName();
  }
}
