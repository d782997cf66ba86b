package io.sparkrca.core.error;

/**
 * An input is unreadable as what it claims to be: a truncated or wrong-codec compressed stream,
 * an empty event log, a malformed class file, a binary file where text was expected.
 *
 * <pre>{@code
 * throw new CorruptInputException("app-1.zstd: the zstd stream ends early (truncated); "
 *     + "copy the log again, or read it as in progress");
 * }</pre>
 */
public class CorruptInputException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public CorruptInputException(String message) {
    super(message);
  }

  public CorruptInputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@code problem} followed by the words of {@code remedy}, what to do about it. */
  public CorruptInputException(String problem, Remedy remedy) {
    super(problem, remedy);
  }

  /** As above, keeping the failure that revealed it. */
  public CorruptInputException(String problem, Remedy remedy, Throwable cause) {
    super(problem, remedy, cause);
  }

  /** The words of {@code remedy} between {@code before} and {@code after}: {@code "x (" + words + ")"}. */
  public CorruptInputException(String before, Remedy remedy, String after) {
    super(before, remedy, after);
  }
}
