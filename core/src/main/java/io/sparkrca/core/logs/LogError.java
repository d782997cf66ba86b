package io.sparkrca.core.logs;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import java.util.Objects;
import java.util.function.Function;

/**
 * A log of a {@link LogSet} request that could not be read, or a name that gave no log (a glob
 * that matched nothing, an empty directory). It does not stop the other logs.
 *
 * <pre>{@code
 * for (LogError e : result.errors()) {
 *   System.err.println(e.source() + ": " + e.message(Remedy::words));
 *   e.exception().remedy().ifPresent(r -> System.err.println("remedy: " + r.id()));
 * }
 * }</pre>
 *
 * @param source the log or name, as given
 * @param message what went wrong, in the library's words: the exception's message for a log that
 *     could not be read; for a name that gave no log, the listing's shorter words ("no file matches")
 * @param exception the failure, with its remedy; a caller that fails the whole request on it throws this
 */
public record LogError(String source, String message, SparkRcaException exception) {
  public LogError {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(exception, "exception");
  }

  /** A log that could not be read. */
  static LogError of(String source, SparkRcaException e) {
    return new LogError(source, String.valueOf(e.getMessage()), e);
  }

  /** {@link #message()} with the exception's remedy, where the message says it, in {@code words}' words. */
  public String message(Function<? super Remedy, String> words) {
    return exception.remedy().map(r -> r.in(message, words)).orElse(message);
  }
}
