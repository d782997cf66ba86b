package io.sparkrca.core.io;

import java.util.OptionalLong;

/**
 * Told what a reader fetches while it reads: a way to show progress on long reads (a large event
 * log, a remote download) without the reader knowing who watches. Attach one to every source a
 * registry opens with {@link ByteSources#observed(ReadListener)}.
 *
 * <pre>{@code
 * AtomicLong done = new AtomicLong();
 * ByteSources sources = ByteSources.defaults().observed(new ReadListener() {
 *   public void bytesRead(long n) { done.addAndGet(n); }
 * });
 * EventLogs.reader().sources(sources).build().replay("/tmp/spark-events/app-1");
 * }</pre>
 *
 * <p>Called from the reading threads, possibly several at once; implementations must be
 * thread-safe and cheap (a call per buffer read).
 */
public interface ReadListener {
  /**
   * A stream was opened on {@code name} at some offset; {@code remaining} is how many bytes it
   * will serve when read to the end, when the source can tell.
   */
  default void streamOpened(String name, OptionalLong remaining) {}

  /** A stream opened on {@code name} was closed (read to its end or not). */
  default void streamClosed(String name) {}

  /** {@code bytes} more bytes were served (from a stream or a ranged read). */
  void bytesRead(long bytes);
}
