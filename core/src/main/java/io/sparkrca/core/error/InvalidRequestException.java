package io.sparkrca.core.error;

/**
 * A request's parameters are invalid: a start line after the end line, a bad date, a negative
 * limit, an invalid regular expression.
 *
 * <pre>{@code
 * throw new InvalidRequestException("range: start 50 is after end 10; swap them");
 * }</pre>
 */
public class InvalidRequestException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(String message) {
    super(message);
  }

  /** As above, keeping the failure that revealed it. */
  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@code problem} followed by the words of {@code remedy}, what to do about it. */
  public InvalidRequestException(String problem, Remedy remedy) {
    super(problem, remedy);
  }
}
