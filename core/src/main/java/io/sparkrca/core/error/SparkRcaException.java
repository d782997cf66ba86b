package io.sparkrca.core.error;

/**
 * The root of sparkrca's exceptions. Every message says what went wrong, names the input it
 * concerns, and says what to do next, so a command line can print {@link #getMessage()} as is.
 *
 * <pre>{@code
 * try {
 *   SparkApplication app = EventLogs.replay(Path.of("/logs/app-1"));
 * } catch (SparkRcaException e) {
 *   System.err.println(e.getMessage()); // "Event log /logs/app-1 is empty: ..."
 * }
 * }</pre>
 */
public class SparkRcaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SparkRcaException(String message) {
    super(message);
  }

  public SparkRcaException(String message, Throwable cause) {
    super(message, cause);
  }
}
