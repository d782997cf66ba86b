package io.sparkrca.core.app.internal;

/**
 * Reads a task's History Server {@code errorMessage} (Spark's {@code TaskEndReason.toErrorString})
 * back into the end reason, exception class and short description that an event-log replay takes
 * from the event itself. Public for the model rebuilt from logs, which reads the same text from
 * the {@code Lost task} lines.
 *
 * <pre>{@code
 * TaskErrors.Parsed p = TaskErrors.parse("FAILED", "java.lang.NumberFormatException: For input string: \"12x\"");
 * p.reason();          // ExceptionFailure
 * p.exceptionClass();  // java.lang.NumberFormatException
 * }</pre>
 */
public final class TaskErrors {
  private TaskErrors() {}

  /**
   * The end reason, exception class (or "") and one-line description of a task's error.
   *
   * <pre>{@code
   * boolean fetch = TaskErrors.parse("FAILED", message).reason().equals("FetchFailed");
   * }</pre>
   */
  public record Parsed(String reason, String exceptionClass, String description) {}

  /** Reads {@code errorMessage} of a task with {@code status} (KILLED, FAILED, ...). */
  public static Parsed parse(String status, String errorMessage) {
    String m = errorMessage == null ? "" : errorMessage;
    String first = firstLine(m);
    if ("KILLED".equals(status)) {
      return new Parsed("TaskKilled", "", "TaskKilled: " + (m.isEmpty() ? "unknown reason" : first));
    }
    if (m.startsWith("FetchFailed(")) {
      int at = m.indexOf("message=\n");
      String message = at < 0 ? "Unknown reason" : firstLine(m.substring(at + "message=\n".length()));
      return new Parsed("FetchFailed", "", "FetchFailed: " + message);
    }
    if (m.startsWith("ExecutorLostFailure (")) {
      return new Parsed("ExecutorLostFailure", "", first);
    }
    for (String reason : new String[] {"Resubmitted", "TaskResultLost", "TaskCommitDenied", "UnknownReason"}) {
      if (m.startsWith(reason)) {
        return new Parsed(reason, "", first);
      }
    }
    int colon = first.indexOf(": ");
    String head = colon < 0 ? first : first.substring(0, colon);
    String cls = looksLikeClassName(head) ? head : "";
    return new Parsed("ExceptionFailure", cls, first);
  }

  private static boolean looksLikeClassName(String s) {
    if (s.isEmpty() || s.indexOf('.') < 0) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isJavaIdentifierPart(c) && c != '.') {
        return false;
      }
    }
    return true;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl >= 0 ? s.substring(0, nl) : s;
  }
}
