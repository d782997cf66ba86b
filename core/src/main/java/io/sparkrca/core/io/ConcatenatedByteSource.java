package io.sparkrca.core.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Several objects read as one, in order (the numbered parts of a Dataproc driver output). Part
 * sizes must be known, so that an offset maps to one part and a tail reads only the last parts.
 */
final class ConcatenatedByteSource implements ByteSource {
  private final String name;
  private final List<ByteSource> parts;
  private final long[] starts; // starts[i] = offset of part i; starts[n] = total size

  ConcatenatedByteSource(String name, List<ByteSource> parts, long[] sizes) {
    this.name = Objects.requireNonNull(name, "name");
    this.parts = List.copyOf(parts);
    if (sizes.length != parts.size()) {
      throw new AssertionError("one size per part: " + sizes.length + " sizes for " + parts.size() + " parts");
    }
    starts = new long[sizes.length + 1];
    for (int i = 0; i < sizes.length; i++) {
      starts[i + 1] = starts[i] + sizes[i];
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OptionalLong size() {
    return OptionalLong.of(starts[parts.size()]);
  }

  /** The parts, in order. */
  List<ByteSource> parts() {
    return parts;
  }

  private int partAt(long offset) {
    for (int i = 0; i < parts.size(); i++) {
      if (offset < starts[i + 1]) {
        return i;
      }
    }
    return parts.size();
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    int first = partAt(offset);
    if (first == parts.size()) {
      return InputStream.nullInputStream();
    }
    long local = offset - starts[first];
    List<Integer> rest = new ArrayList<>();
    for (int i = first + 1; i < parts.size(); i++) {
      if (starts[i + 1] > starts[i]) {
        rest.add(i);
      }
    }
    InputStream head = parts.get(first).openStream(local);
    Enumeration<Integer> more = Collections.enumeration(rest);
    // Later parts are opened only when reading reaches them.
    return new SequenceInputStream(
        new Enumeration<InputStream>() {
          boolean headGiven;

          @Override
          public boolean hasMoreElements() {
            return !headGiven || more.hasMoreElements();
          }

          @Override
          public InputStream nextElement() {
            if (!headGiven) {
              headGiven = true;
              return head;
            }
            return new LazyStream(parts.get(more.nextElement()));
          }
        });
  }

  /** Opens its part on the first read, so that errors surface as IOExceptions from read. */
  private static final class LazyStream extends InputStream {
    private final ByteSource part;
    private InputStream in;

    LazyStream(ByteSource part) {
      this.part = part;
    }

    private InputStream in() throws IOException {
      if (in == null) {
        in = part.openStream(0);
      }
      return in;
    }

    @Override
    public int read() throws IOException {
      return in().read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in().read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      if (in != null) {
        in.close();
      }
    }
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(length, 1 << 20));
    long pos = offset;
    long end = Math.min(offset + length, starts[parts.size()]);
    while (pos < end) {
      int i = partAt(pos);
      long local = pos - starts[i];
      int n = (int) Math.min(end - pos, starts[i + 1] - pos);
      byte[] chunk = parts.get(i).read(local, n);
      out.write(chunk);
      if (chunk.length < n) {
        break; // the part is shorter than listed
      }
      pos += n;
    }
    return out.toByteArray();
  }
}
