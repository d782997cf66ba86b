package io.sparkrca.core.error;

/**
 * The caller may not read an input (HTTP 401/403, file permissions, missing credentials).
 *
 * <pre>{@code
 * throw new AccessDeniedException("https://shs/api/v1", "HTTP 403",
 *     "send an Authorization header (HttpSettings.builder().header(...))");
 * }</pre>
 */
public class AccessDeniedException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public AccessDeniedException(String input, String reason, String whatToDo) {
    super("Access to " + input + " denied (" + reason + "): " + whatToDo);
  }

  /** As above, keeping the failure that revealed it (a file system's or a server's). */
  public AccessDeniedException(String input, String reason, String whatToDo, Throwable cause) {
    super("Access to " + input + " denied (" + reason + "): " + whatToDo, cause);
  }

  /** As the first, with what to do as {@code remedy} (its words follow the reason). */
  public AccessDeniedException(String input, String reason, Remedy remedy) {
    super("Access to " + input + " denied (" + reason + "): ", remedy);
  }
}
