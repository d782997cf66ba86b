package io.sparkrca.historyserver.internal;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Parsed answers of one application by request path, least recently used first out once their
 * answers' bytes pass a budget. A path asked for by several threads at once is fetched once.
 */
public final class AnswerCache {
  private final long budget;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
  private final Map<String, CompletableFuture<Entry>> inFlight = new java.util.HashMap<>();
  private long bytes;

  /** A value and the size of the answer it came from. */
  public record Entry(Object value, long bytes) {}

  public AnswerCache(long budget) {
    this.budget = budget;
  }

  /** The cached value of {@code path}, or the one {@code fetch} yields (then cached). */
  @SuppressWarnings("unchecked")
  public <T> T get(String path, Supplier<Entry> fetch) {
    CompletableFuture<Entry> mine = null;
    CompletableFuture<Entry> theirs;
    synchronized (this) {
      Entry e = entries.get(path);
      if (e != null) {
        return (T) e.value();
      }
      theirs = inFlight.get(path);
      if (theirs == null) {
        mine = new CompletableFuture<>();
        inFlight.put(path, mine);
      }
    }
    if (mine == null) {
      try {
        return (T) theirs.join().value();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
    }
    try {
      Entry e = fetch.get();
      synchronized (this) {
        put(path, e);
        inFlight.remove(path);
      }
      mine.complete(e);
      return (T) e.value();
    } catch (RuntimeException ex) {
      synchronized (this) {
        inFlight.remove(path);
      }
      mine.completeExceptionally(ex);
      throw ex;
    }
  }

  /** Whether {@code path} is cached. */
  public synchronized boolean contains(String path) {
    return entries.containsKey(path);
  }

  /** The cached value, without fetching. */
  @SuppressWarnings("unchecked")
  public synchronized <T> Optional<T> peek(String path) {
    Entry e = entries.get(path);
    return e == null ? Optional.empty() : Optional.ofNullable((T) e.value());
  }

  private void put(String path, Entry e) {
    Entry old = entries.put(path, e);
    if (old != null) {
      bytes -= old.bytes();
    }
    bytes += e.bytes();
    for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); bytes > budget && it.hasNext(); ) {
      Map.Entry<String, Entry> eldest = it.next();
      if (eldest.getKey().equals(path)) {
        continue; // keep what was just asked for, even if it alone passes the budget
      }
      bytes -= eldest.getValue().bytes();
      it.remove();
    }
  }
}
