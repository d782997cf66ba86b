package io.sparkrca.inspector.internal;

import io.sparkrca.core.io.ByteSource;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link ByteSource} that remembers its ranged reads, within a byte budget, for one code
 * inspection. The provider asks {@link io.sparkrca.inspector.ClassInspector} several questions
 * about the same archive (overview, findings scan, one class per stack frame), and each question
 * reads the end record and the central directory again: over HTTP or Cloud Storage that would be
 * one more set of requests per frame. Served from here, they cost nothing after the first time.
 *
 * <p>Streams are not cached (they are used for whole plain files, read once). Reads are copied in
 * and out, so no caller can change what another one sees.
 */
final class CachingByteSource implements ByteSource {
  /** Reads larger than this are passed through: they are entry data, not directory windows. */
  private static final int MAX_CACHED_READ = 4 << 20;
  private static final int MAX_BLOCKS = 512;

  private final ByteSource delegate;
  private final long budget;
  private final Map<Long, byte[]> blocks = new LinkedHashMap<>(16, 0.75f, true);
  private long held;
  private OptionalLong size;

  CachingByteSource(ByteSource delegate, long budget) {
    this.delegate = delegate;
    this.budget = budget;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public String fileName() {
    return delegate.fileName();
  }

  @Override
  public synchronized OptionalLong size() throws IOException {
    if (size == null) {
      size = delegate.size();
    }
    return size;
  }

  @Override
  public Optional<Instant> lastModified() throws IOException {
    return delegate.lastModified();
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    return delegate.openStream(offset);
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    if (length <= 0 || offset < 0) {
      return delegate.read(offset, length);
    }
    synchronized (this) {
      byte[] hit = lookup(offset, length);
      if (hit != null) {
        return hit;
      }
    }
    byte[] bytes = delegate.read(offset, length);
    if (bytes.length <= MAX_CACHED_READ && bytes.length > 0) {
      synchronized (this) {
        store(offset, bytes.clone());
      }
    }
    return bytes;
  }

  /** A copy of {@code [offset, offset + length)} when a block holds it (or holds the object's end). */
  private byte[] lookup(long offset, int length) {
    Long found = null;
    for (Map.Entry<Long, byte[]> b : blocks.entrySet()) {
      long start = b.getKey();
      long end = start + b.getValue().length;
      // A block that ends where the object ends also answers a longer read past the end.
      boolean endsObject = size != null && size.isPresent() && end == size.getAsLong();
      if (offset >= start && offset <= end && (offset + length <= end || endsObject)) {
        found = start;
        break;
      }
    }
    if (found == null) {
      return null;
    }
    byte[] data = blocks.get(found); // after the loop: a get reorders an access-ordered map
    int from = (int) (offset - found);
    int to = (int) Math.min(data.length, (long) from + length);
    return Arrays.copyOfRange(data, from, to);
  }

  private void store(long offset, byte[] data) {
    byte[] old = blocks.remove(offset);
    if (old != null) {
      held -= old.length;
    }
    if (data.length > budget) {
      return;
    }
    Iterator<Map.Entry<Long, byte[]>> eldest = blocks.entrySet().iterator();
    while ((held + data.length > budget || blocks.size() >= MAX_BLOCKS) && eldest.hasNext()) {
      held -= eldest.next().getValue().length;
      eldest.remove();
    }
    blocks.put(offset, data);
    held += data.length;
  }
}
