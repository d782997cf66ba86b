package io.sparkrca.core.error;

import java.util.Optional;
import java.util.function.Function;

/**
 * The root of sparkrca's exceptions. Every message says what went wrong, names the input it
 * concerns, and says what to do next, so a command line can print {@link #getMessage()} as is.
 * Where what to do has words of the caller's own (a command line's flags), the exception carries
 * it as a {@link Remedy} too, and {@link #message(Function)} says it in those words.
 *
 * <pre>{@code
 * try {
 *   SparkApplication app = EventLogs.replay(Path.of("/logs/app-1"));
 * } catch (SparkRcaException e) {
 *   System.err.println(e.getMessage()); // "Event log /logs/app-1 is empty: ..."
 *   e.remedy().ifPresent(r -> System.err.println("remedy: " + r.id()));
 * }
 * }</pre>
 */
public class SparkRcaException extends RuntimeException {
  private static final long serialVersionUID = 2L;

  /** What to do, as data; null when the message says it in words only. */
  private final Remedy remedy;

  public SparkRcaException(String message) {
    super(message);
    this.remedy = null;
  }

  public SparkRcaException(String message, Throwable cause) {
    super(message, cause);
    this.remedy = null;
  }

  /** A message of {@code problem} followed by the words of {@code remedy}. */
  public SparkRcaException(String problem, Remedy remedy) {
    this(problem, remedy, "");
  }

  /** As above, keeping the failure that revealed it. */
  public SparkRcaException(String problem, Remedy remedy, Throwable cause) {
    super(problem + remedy.words(), cause);
    this.remedy = remedy;
  }

  /** A message with the words of {@code remedy} between {@code before} and {@code after}: {@code "x (" + words + ")"}. */
  public SparkRcaException(String before, Remedy remedy, String after) {
    super(before + remedy.words() + after);
    this.remedy = remedy;
  }

  /**
   * A message that already says {@code remedy}'s words (for a wrapper or a subclass that builds the
   * text itself), with the remedy as data.
   */
  protected SparkRcaException(String message, Optional<Remedy> remedy, Throwable cause) {
    super(message, cause);
    this.remedy = remedy.orElse(null);
  }

  /**
   * {@code failure} in a larger context: {@code context} followed by its message, keeping its
   * remedy and the failure as the cause. {@code "the baseline app-1: " + ...}
   */
  public static SparkRcaException within(String context, SparkRcaException failure) {
    return new SparkRcaException(context + failure.getMessage(), failure.remedy(), failure);
  }

  /** What to do, as data, when the message says it in words a caller may have its own for. */
  public Optional<Remedy> remedy() {
    return Optional.ofNullable(remedy);
  }

  /** The message, with its remedy (if any) in {@code words}' words instead of the library's. */
  public String message(Function<? super Remedy, String> words) {
    String m = String.valueOf(getMessage());
    return remedy == null ? m : remedy.in(m, words);
  }
}
