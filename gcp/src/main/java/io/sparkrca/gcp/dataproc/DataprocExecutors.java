package io.sparkrca.gcp.dataproc;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads for the provider's concurrent fetches; never block the JVM's exit. */
final class DataprocExecutors {
  private static final ExecutorService FETCH = Executors.newCachedThreadPool(named("sparkrca-dataproc-fetch"));

  private DataprocExecutors() {}

  /** For fan-out fetches; callers bound how many run at once. */
  static ExecutorService fetch() {
    return FETCH;
  }

  private static ThreadFactory named(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
