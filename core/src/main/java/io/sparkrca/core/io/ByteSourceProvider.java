package io.sparkrca.core.io;

import java.io.IOException;
import java.util.List;

/**
 * A plug-in that reads one family of URIs ({@code gs://}, {@code https://}, ...). Providers are
 * found with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/io.sparkrca.core.io.ByteSourceProvider}) or registered explicitly with
 * {@link ByteSources.Builder#add(ByteSourceProvider)}.
 *
 * <pre>{@code
 * public final class MemoryProvider implements ByteSourceProvider {
 *   public boolean supports(String uri) { return uri.startsWith("mem:"); }
 *   public ByteSource open(String uri) { return ByteSource.of(uri, store.get(uri)); }
 *   public List<SourceEntry> list(String uri) { return List.of(); }
 *   public boolean isDirectory(String uri) { return false; }
 * }
 * }</pre>
 */
public interface ByteSourceProvider {

  /** Whether this provider reads {@code uri}; usually decided by the scheme alone. */
  boolean supports(String uri);

  /** A source for the object at {@code uri}. Opening is lazy: nothing need be fetched yet. */
  ByteSource open(String uri) throws IOException;

  /**
   * The entries directly under {@code uri} when it names a directory or prefix, sorted by name;
   * an empty list when it names a single object.
   *
   * @throws io.sparkrca.core.error.InputNotFoundException when nothing exists at {@code uri}
   */
  List<SourceEntry> list(String uri) throws IOException;

  /** Whether {@code uri} names a directory or prefix rather than one object. */
  boolean isDirectory(String uri) throws IOException;

  /**
   * The objects whose full URI starts with {@code uriPrefix} (not only a directory's children:
   * {@code gs://b/out/driveroutput} lists {@code driveroutput.000000000} and so on), sorted by
   * name; empty when there are none or the provider cannot list. Used to resolve Dataproc
   * {@code driveroutput} prefixes (see {@link DriverOutput}).
   *
   * <p>The default lists the parent directory with {@link #list(String)} and keeps the entries
   * whose name starts with the last segment of the prefix. Object stores should override it with
   * a native prefix listing.
   */
  default List<SourceEntry> listPrefix(String uriPrefix) throws IOException {
    int slash = Math.max(uriPrefix.lastIndexOf('/'), uriPrefix.lastIndexOf('\\'));
    String parent = slash >= 0 ? uriPrefix.substring(0, slash + 1) : ".";
    String stem = uriPrefix.substring(slash + 1);
    List<SourceEntry> children;
    try {
      children = list(parent);
    } catch (io.sparkrca.core.error.InputNotFoundException e) {
      return List.of();
    }
    List<SourceEntry> matching = new java.util.ArrayList<>();
    for (SourceEntry e : children) {
      if (!e.directory() && e.name().startsWith(stem)) {
        matching.add(e);
      }
    }
    matching.sort(java.util.Comparator.comparing(SourceEntry::name));
    return List.copyOf(matching);
  }
}
