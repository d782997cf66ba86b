package io.sparkrca.testkit;

/**
 * Decides from a run's evidence whether the scenario's fault really happened, and if so, what
 * proves it. Implementations live in {@link FaultChecks}.
 */
@FunctionalInterface
public interface FaultCheck {
  /**
   * Verifies the fault.
   *
   * @throws FaultNotShownException when the evidence does not show the fault, with the reason
   */
  Findings verify(RunEvidence run) throws FaultNotShownException;
}
