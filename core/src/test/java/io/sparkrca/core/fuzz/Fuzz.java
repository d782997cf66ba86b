package io.sparkrca.core.fuzz;

import static org.assertj.core.api.Assertions.fail;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What every fuzz target shares: the real fixtures it mutates, and the contract a try is held to
 * (the library's own {@link SparkRcaException} or an answer, within a time bound; anything else, or
 * no answer in time, fails the try with its input's seed).
 *
 * <p>The number of tries per target is jqwik's {@code jqwik.tries.default}: 200 in {@code mvn
 * verify} (core/src/test/resources/junit-platform.properties), and what {@code
 * -Dsparkrca.fuzz.tries=N} says for a long run (core/pom.xml passes it through).
 */
final class Fuzz {
  /** How long one try may take before it counts as a hang. */
  static final long TRY_SECONDS = Long.getLong("sparkrca.fuzz.trySeconds", 20);

  private static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fuzz-try");
    t.setDaemon(true);
    return t;
  });

  private Fuzz() {}

  /** A real fixture's file, read whole. */
  static byte[] fixture(String scenario, String file) {
    Path p = fixturePath(scenario, file);
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@code t} was thrown with a frame of a class whose name starts with {@code prefix} (and {@code method}, if not empty). */
  static boolean thrownIn(Throwable t, String prefix, String method) {
    for (StackTraceElement f : t.getStackTrace()) {
      if (f.getClassName().startsWith(prefix) && (method.isEmpty() || f.getMethodName().equals(method))) {
        return true;
      }
    }
    return false;
  }

  static Path fixturePath(String scenario, String file) {
    Path root = TestkitFixtures.root().orElseThrow(() -> new IllegalStateException("testkit/fixtures not found"));
    return root.resolve("spark-3.5.9").resolve(scenario).resolve(file);
  }

  /**
   * Runs {@code work} under the contract: it returns, or throws a {@link SparkRcaException}, within
   * {@link #TRY_SECONDS}. Returns what it returned, or the exception it threw.
   */
  static Object holdsContract(String input, Callable<?> work) {
    return holdsContract(input, work, t -> false);
  }

  /**
   * As above, except that a failure {@code known} recognises (a violation listed in docs/hardening.md
   * that is still open) is returned instead of failing the try.
   */
  static Object holdsContract(String input, Callable<?> work, java.util.function.Predicate<Throwable> known) {
    Future<?> f = RUNNER.submit(work);
    try {
      return f.get(TRY_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      return fail("no answer within %d s (a hang) on %s", TRY_SECONDS, input);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SparkRcaException) {
        if (cause.getMessage() == null || cause.getMessage().isBlank()) {
          fail("a SparkRcaException without a message on %s", input);
        }
        return cause;
      }
      if (known.test(cause)) {
        return cause;
      }
      throw new AssertionError("not the library's exception (" + cause + ") on " + input, cause);
    }
  }
}
