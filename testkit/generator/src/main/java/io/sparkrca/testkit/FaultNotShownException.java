package io.sparkrca.testkit;

/**
 * Thrown when a run's evidence does not show the fault its scenario is meant to produce, so the
 * run must not become a fixture. The message says which scenario and what was missing.
 */
public class FaultNotShownException extends Exception {
  private static final long serialVersionUID = 1L;

  public FaultNotShownException(String message) {
    super(message);
  }
}
