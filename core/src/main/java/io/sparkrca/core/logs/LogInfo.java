package io.sparkrca.core.logs;

import io.sparkrca.core.io.Compression;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What {@link LogStream#info()} learns about a log without reading it: its size, its codec (from
 * the extension and the magic bytes), whether it is large, and what to do next.
 *
 * <pre>{@code
 * LogInfo info = LogStream.open("gs://bucket/app-1.zstd").info();
 * if (info.large()) { ... use tail or search, never read it whole ... }
 * }</pre>
 *
 * @param source the source's name
 * @param size the stored size in bytes (compressed size for a compressed log), when known
 * @param compression the detected codec
 * @param large whether the size is over {@link LogStream#LARGE_FILE_BYTES} (20 MiB)
 * @param recommendation the recommended next action, in one sentence or two
 * @param notes observations, e.g. an extension that disagrees with the content
 */
public record LogInfo(
    String source,
    OptionalLong size,
    Compression compression,
    boolean large,
    String recommendation,
    List<String> notes) {
  public LogInfo {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(size, "size");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(recommendation, "recommendation");
    notes = List.copyOf(notes);
  }

  /** Whether the content is compressed. */
  public boolean compressed() {
    return compression.isCompressed();
  }
}
