package io.sparkrca.testkit;

/** A scenario run could not produce a fixture (timeout, missing log, History Server failure). */
public class GenerationException extends Exception {
  private static final long serialVersionUID = 1L;

  public GenerationException(String message) {
    super(message);
  }

  public GenerationException(String message, Throwable cause) {
    super(message, cause);
  }
}
