package io.sparkrca.inspector;

import io.sparkrca.core.io.ByteSource;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;

/** A window of another {@link ByteSource}: a stored nested jar read in place by ranged reads. */
final class SliceSource implements ByteSource {
  private final ByteSource outer;
  private final String name;
  private final long start;
  private final long length;

  SliceSource(ByteSource outer, String name, long start, long length) {
    this.outer = outer;
    this.name = name;
    this.start = start;
    this.length = length;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OptionalLong size() {
    return OptionalLong.of(length);
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    long from = Math.min(Math.max(0, offset), length);
    InputStream in = outer.openStream(start + from);
    return new FilterInputStream(in) {
      private long left = length - from;

      @Override
      public int read() throws IOException {
        if (left <= 0) {
          return -1;
        }
        int c = super.read();
        if (c >= 0) {
          left--;
        }
        return c;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (left <= 0) {
          return -1;
        }
        int n = super.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
          left -= n;
        }
        return n;
      }
    };
  }

  @Override
  public byte[] read(long offset, int len) throws IOException {
    if (offset < 0 || len < 0) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "read of " + name() + ": offset and length must be 0 or more, were " + offset + " and " + len);
    }
    if (offset >= length) {
      return new byte[0];
    }
    return outer.read(start + offset, (int) Math.min(len, length - offset));
  }

  @Override
  public String fileName() {
    int slash = name.lastIndexOf('/');
    return slash >= 0 ? name.substring(slash + 1) : name;
  }
}
