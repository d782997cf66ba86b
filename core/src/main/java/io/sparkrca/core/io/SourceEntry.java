package io.sparkrca.core.io;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One entry of a directory or object-store prefix listing.
 *
 * <pre>{@code
 * for (SourceEntry e : ByteSources.defaults().list("/tmp/spark-events")) {
 *   System.out.println(e.name() + (e.directory() ? "/" : " " + e.size().orElse(-1)));
 * }
 * }</pre>
 *
 * @param uri the entry's full URI or path, usable with {@link ByteSources#open(String)}
 * @param name the last path segment
 * @param directory whether the entry is itself a directory or prefix
 * @param size the object size when known
 */
public record SourceEntry(String uri, String name, boolean directory, OptionalLong size) {
  public SourceEntry {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(size, "size");
  }
}
