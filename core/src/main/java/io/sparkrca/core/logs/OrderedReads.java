package io.sparkrca.core.logs;

import io.sparkrca.core.error.SparkRcaException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Reads logs with a few in flight and takes their results in the order given, so that memory holds
 * a bounded window rather than every log's result at once; stops starting logs once the results
 * taken hold the match cap. One thread reads on the caller's thread, one log at a time.
 */
final class OrderedReads {
  private OrderedReads() {}

  /** One log's result or error. */
  record Outcome<T>(String uri, Optional<T> result, Optional<SparkRcaException> error) {}

  /**
   * The outcomes, in order.
   *
   * @param skipped how many logs were not read because the match cap was reached
   */
  record Done<T>(List<Outcome<T>> outcomes, int skipped) {}

  /**
   * Reads {@code files} with {@code read}, at most {@code threads} at once; {@code kept} tells how
   * many matches a result holds, and no log is started once {@code cap} are held.
   */
  static <T> Done<T> read(List<String> files, int threads, long cap, Function<String, T> read, ToLongFunction<T> kept) {
    int n = Math.max(1, Math.min(files.size(), threads));
    ExecutorService pool = n == 1 ? null : Executors.newFixedThreadPool(n, r -> {
      Thread t = new Thread(r, "sparkrca-logs");
      t.setDaemon(true);
      return t;
    });
    try {
      return readInOrder(files, n == 1 ? 1 : n * 2, cap, pool, read, kept);
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
  }

  private static <T> Done<T> readInOrder(List<String> files, int window, long cap, ExecutorService pool,
      Function<String, T> read, ToLongFunction<T> kept) {
    List<Outcome<T>> outcomes = new ArrayList<>();
    Deque<Future<Outcome<T>>> inFlight = new ArrayDeque<>();
    long held = 0;
    int next = 0;
    while (next < files.size() || !inFlight.isEmpty()) {
      while (next < files.size() && inFlight.size() < window && held < cap) {
        inFlight.add(start(pool, outcome(files.get(next++), read)));
      }
      if (inFlight.isEmpty()) {
        return new Done<>(outcomes, files.size() - next);
      }
      Outcome<T> o = take(inFlight.removeFirst());
      outcomes.add(o);
      held += o.result().map(kept::applyAsLong).orElse(0L);
    }
    return new Done<>(outcomes, 0);
  }

  private static <T> Callable<Outcome<T>> outcome(String uri, Function<String, T> read) {
    return () -> {
      try {
        return new Outcome<>(uri, Optional.of(read.apply(uri)), Optional.empty());
      } catch (SparkRcaException e) {
        return new Outcome<>(uri, Optional.empty(), Optional.of(e));
      }
    };
  }

  /** Runs {@code task} on the pool, or at once on this thread when there is none. */
  private static <T> Future<T> start(ExecutorService pool, Callable<T> task) {
    FutureTask<T> f = new FutureTask<>(task);
    if (pool == null) {
      f.run();
    } else {
      pool.execute(f);
    }
    return f;
  }

  private static <T> Outcome<T> take(Future<Outcome<T>> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("interrupted while reading the logs");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new SparkRcaException(String.valueOf(e.getCause()), e.getCause());
    }
  }
}
