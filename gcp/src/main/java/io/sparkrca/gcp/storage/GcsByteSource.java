package io.sparkrca.gcp.storage;

import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.gcp.internal.Messages;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One Cloud Storage object read through the google-cloud-storage client with ranged reads. The
 * first access is one ranged request for the first {@value #PROBE_BYTES} bytes, whose answer also
 * gives the object's size and generation; later reads are pinned to that generation, so an object
 * replaced mid-read fails instead of mixing two versions. A {@code tail} of a huge log is thus two
 * requests. Every ranged answer is checked ({@link RangeChecks}).
 */
final class GcsByteSource implements ByteSource {
  static final int PROBE_BYTES = 64;

  private final GcsUri uri;
  private final Storage storage;
  private final String name;
  private volatile boolean probed;
  private volatile long size = -1;
  private volatile byte[] head;
  private volatile Optional<Long> generation = Optional.empty();
  private volatile Instant updated;

  GcsByteSource(GcsUri uri, Storage storage) {
    this.uri = uri;
    this.storage = storage;
    this.name = uri.toString();
    if (uri.object().isEmpty() || uri.object().endsWith("/")) {
      throw new InvalidRequestException(name + " names a bucket or a prefix, not an object; name the object");
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OptionalLong size() throws IOException {
    probe();
    return size >= 0 ? OptionalLong.of(size) : OptionalLong.empty();
  }

  @Override
  public Optional<Instant> lastModified() throws IOException {
    if (updated == null) {
      try {
        Blob b = storage.get(blobId(), Storage.BlobGetOption.fields(Storage.BlobField.UPDATED, Storage.BlobField.SIZE));
        if (b == null) {
          throw notFound();
        }
        if (b.getUpdateTimeOffsetDateTime() != null) {
          updated = b.getUpdateTimeOffsetDateTime().toInstant();
        }
      } catch (StorageException e) {
        throw translate(e);
      }
    }
    return Optional.ofNullable(updated);
  }

  private synchronized void probe() throws IOException {
    if (probed) {
      return;
    }
    RangeChecks.Probe p = new RangeChecks.Probe();
    RangeChecks.PROBE.set(p);
    byte[] bytes;
    try {
      bytes = readRange(BlobId.of(uri.bucket(), uri.object()), 0, PROBE_BYTES);
    } catch (SparkRcaException e) {
      if (e.getCause() instanceof StorageException se && se.getCode() == 416) {
        bytes = new byte[0]; // an empty object: no byte satisfies any range
        p.total = 0;
      } else {
        throw e;
      }
    } finally {
      RangeChecks.PROBE.remove();
    }
    head = bytes;
    generation = p.generation;
    if (p.total >= 0) {
      size = p.total;
    } else if (bytes.length < PROBE_BYTES) {
      size = bytes.length;
    } else {
      try {
        Blob b = storage.get(blobId(), Storage.BlobGetOption.fields(Storage.BlobField.SIZE, Storage.BlobField.UPDATED));
        if (b == null) {
          throw notFound();
        }
        size = b.getSize() == null ? -1 : b.getSize();
      } catch (StorageException e) {
        throw translate(e);
      }
    }
    probed = true;
  }

  private BlobId blobId() {
    return generation.map(g -> BlobId.of(uri.bucket(), uri.object(), g)).orElse(BlobId.of(uri.bucket(), uri.object()));
  }

  @Override
  public InputStream openStream(long offset) throws IOException {
    if (offset < 0) {
      throw new InvalidRequestException("stream of " + name + ": the offset must be 0 or more, was " + offset);
    }
    probe();
    ReadChannel ch = storage.reader(blobId());
    try {
      ch.seek(offset);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw translate(e);
    }
    InputStream in = Channels.newInputStream(ch);
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return in.read(b, off, len);
        } catch (IOException | RuntimeException e) {
          throw translate(e);
        }
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  @Override
  public byte[] read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0) {
      throw new InvalidRequestException(
          "read of " + name + ": offset and length must be 0 or more, were " + offset + " and " + length);
    }
    probe();
    if (length == 0 || (size >= 0 && offset >= size)) {
      return new byte[0];
    }
    byte[] h = head;
    if (h != null && offset + length <= h.length) {
      return Arrays.copyOfRange(h, (int) offset, (int) offset + length);
    }
    int n = size >= 0 ? (int) Math.min(length, size - offset) : length;
    return readRange(blobId(), offset, n);
  }

  /** Reads {@code [offset, offset + length)} with one ranged request, fewer bytes only at the end. */
  private byte[] readRange(BlobId id, long offset, int length) throws IOException {
    try (ReadChannel ch = storage.reader(id)) {
      ch.setChunkSize(0); // no read-ahead past the range
      ch.seek(offset);
      ch.limit(offset + length);
      ByteBuffer buf = ByteBuffer.allocate(length);
      while (buf.hasRemaining()) {
        int r = ch.read(buf);
        if (r < 0) {
          break;
        }
      }
      return buf.position() == length ? buf.array() : Arrays.copyOf(buf.array(), buf.position());
    } catch (IOException | RuntimeException e) {
      throw translate(e);
    }
  }

  private InputNotFoundException notFound() {
    return new InputNotFoundException(name, "check the bucket and object name (gsutil ls / gcloud storage ls)");
  }

  /** The sparkrca exception for a client failure, naming the object and what to do. */
  SparkRcaException translate(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SparkRcaException s) {
        return s;
      }
      if (t instanceof RangeChecks.RangeIgnoredException r) {
        return new UnsupportedInputException(name + ": " + r.getMessage() + "; stopped rather than download it all. "
            + "Check the Cloud Storage endpoint (an emulator or proxy that does not support ranged reads), or copy "
            + "the object and read it locally", r);
      }
      if (t instanceof StorageException se) {
        return translate(se);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return new SparkRcaException("reading " + name + " failed: " + Messages.oneLine(String.valueOf(e.getMessage())), e);
  }

  private SparkRcaException translate(StorageException e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof RangeChecks.RangeIgnoredException) {
        return translate((Throwable) t);
      }
    }
    int code = e.getCode();
    String detail = "HTTP " + code + (e.getReason() == null ? "" : " " + e.getReason()) + ": " + Messages.oneLine(e.getMessage());
    if (code == 404) {
      if (generation.isPresent() && probed) {
        return new InputNotFoundException(name + " (generation " + generation.get() + ")",
            "the object was replaced or deleted while it was read; read it again", e);
      }
      return new InputNotFoundException(name, "check the bucket and object name (" + detail + ")", e);
    }
    if (code == 401 || code == 403) {
      return new AccessDeniedException(name, detail, "grant the identity that reads it roles/storage.objectViewer on "
          + "gs://" + uri.bucket() + " (storage.objects.get), or use credentials that have it", e);
    }
    return new SparkRcaException("reading " + name + " failed (" + detail + ")", e);
  }
}
