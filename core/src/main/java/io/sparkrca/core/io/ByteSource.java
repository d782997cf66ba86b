package io.sparkrca.core.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Read-only access to the bytes of one object: a local file, an HTTP resource, a Cloud Storage
 * object. Everything in sparkrca reads through this interface, so nothing assumes a local disk.
 *
 * <p>Implementations are cheap to create and hold no open resources between calls; every stream
 * they return must be closed by the caller. Ranged reads let a reader fetch a ZIP central
 * directory or the tail of a huge log without transferring the rest.
 *
 * <pre>{@code
 * ByteSource log = ByteSource.of(Path.of("/tmp/spark-events/app-1.zstd"));
 * byte[] head = log.read(0, 4);                  // magic bytes
 * try (InputStream in = log.openStream()) { ... } // the whole object
 * }</pre>
 */
public interface ByteSource {

  /** A local file. */
  static ByteSource of(Path path) {
    return new LocalByteSource(path);
  }

  /** Bytes held in memory; {@code name} appears in messages. */
  static ByteSource of(String name, byte[] bytes) {
    return new ByteArraySource(name, bytes);
  }

  /** How this source is named in messages and reports: a path or a URI without credentials. */
  String name();

  /** The size in bytes, or empty when the source cannot tell without reading it all. */
  OptionalLong size() throws IOException;

  /** When the object was last modified, when the source can tell. */
  default java.util.Optional<java.time.Instant> lastModified() throws IOException {
    return java.util.Optional.empty();
  }

  /**
   * Whether the bytes are on this machine (a local file, bytes in memory), so that streams opened
   * at several offsets at once cost no requests and no transfer: a reader may then split its work
   * into byte ranges read concurrently (as {@code LogStream}'s counts do). False by default, as for
   * a remote object, where each stream is a request.
   */
  default boolean isLocal() {
    return false;
  }

  /** Streams the whole object from its first byte. */
  default InputStream openStream() throws IOException {
    return openStream(0);
  }

  /**
   * Streams the object from {@code offset} to its end. Remote sources issue one ranged request
   * and fail rather than read from the wrong place if the server ignores the range.
   */
  InputStream openStream(long offset) throws IOException;

  /**
   * Reads up to {@code length} bytes starting at {@code offset}. Fewer bytes come back only when
   * the object ends first; an offset at or past the end gives an empty array.
   */
  byte[] read(long offset, int length) throws IOException;

  /**
   * The last path segment of {@link #name()}, e.g. {@code events_1_app-1.zstd}; used to detect a
   * codec from the extension.
   */
  default String fileName() {
    String n = name();
    int q = n.indexOf('?');
    if (q >= 0) {
      n = n.substring(0, q);
    }
    while (n.endsWith("/")) {
      n = n.substring(0, n.length() - 1);
    }
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    return slash >= 0 ? n.substring(slash + 1) : n;
  }
}
