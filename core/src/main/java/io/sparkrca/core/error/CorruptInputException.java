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
}
