package io.sparkrca.core.eventlog.replay;

/** An event line that is JSON but not a valid Spark event (a missing field, a wrong type). */
final class BadEventException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadEventException(String message) {
    super(message, null, false, false);
  }
}
