package io.sparkrca.testkit;

import java.util.Map;

/**
 * Everything one scenario run left behind that a fault check may look at.
 *
 * @param facts facts read from the run's event log
 * @param driverExitCode the driver JVM's exit code
 * @param driverStdout the driver's standard output
 * @param driverStderr the driver's standard error (Spark logs there)
 * @param executorLogs executor stderr by executor id (local-cluster runs only)
 * @param executorStdout executor stdout by executor id, where it is not empty (the JVM prints
 *     there itself, e.g. {@code Terminating due to java.lang.OutOfMemoryError: Java heap space})
 * @param baseline facts of the baseline run, for scenarios compared with one; else null
 */
public record RunEvidence(
    LogFacts facts,
    int driverExitCode,
    String driverStdout,
    String driverStderr,
    Map<String, String> executorLogs,
    Map<String, String> executorStdout,
    LogFacts baseline) {

  public RunEvidence {
    executorLogs = Map.copyOf(executorLogs);
    executorStdout = Map.copyOf(executorStdout);
  }
}
