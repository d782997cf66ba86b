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
}
