package io.sparkrca.core.examples;

import io.sparkrca.core.app.internal.TaskErrors;

/** The Javadoc examples of {@code io.sparkrca.core.app.internal}, compiled (see {@link JavadocExamplesTest}). */
class AppInternalExamples {
  /** The example of {@code TaskErrors}. */
  void taskErrors() throws Exception {
    TaskErrors.Parsed p = TaskErrors.parse("FAILED", "java.lang.NumberFormatException: For input string: \"12x\"");
    p.reason();          // ExceptionFailure
    p.exceptionClass();  // java.lang.NumberFormatException
  }

  /** The example of {@code TaskErrors#parse}. */
  void taskErrorsParse(String message) throws Exception {
    boolean fetch = TaskErrors.parse("FAILED", message).reason().equals("FetchFailed");
  }
}
