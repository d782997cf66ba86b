package io.sparkrca.core.error;

/**
 * An input in a format, codec or scheme that sparkrca does not read, or a request it does not
 * support (an unknown REST path, an unsupported sort order).
 *
 * <pre>{@code
 * throw new UnsupportedInputException("app-1.bz2: codec 'bz2' is not one Spark writes; "
 *     + "decompress it first");
 * }</pre>
 */
public class UnsupportedInputException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public UnsupportedInputException(String message) {
    super(message);
  }

  /** As above, keeping the failure that revealed it. */
  public UnsupportedInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@code problem} followed by the words of {@code remedy}, what to do about it. */
  public UnsupportedInputException(String problem, Remedy remedy) {
    super(problem, remedy);
  }
}
