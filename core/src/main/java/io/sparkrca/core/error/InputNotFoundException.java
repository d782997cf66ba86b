package io.sparkrca.core.error;

/**
 * An input (file, object, URL, application) does not exist.
 *
 * <pre>{@code
 * throw new InputNotFoundException("/logs/app-1", "check the path, or list the directory first");
 * }</pre>
 */
public class InputNotFoundException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public InputNotFoundException(String input, String whatToDo) {
    super(input + " not found: " + whatToDo);
  }

  /** As above, keeping the failure that revealed it. */
  public InputNotFoundException(String input, String whatToDo, Throwable cause) {
    super(input + " not found: " + whatToDo, cause);
  }

  /** {@code input} not found: {@code detail} (the nearest names), then what to do, as {@code remedy}. */
  public InputNotFoundException(String input, String detail, Remedy remedy) {
    super(input + " not found: " + detail, remedy);
  }
}
