package io.sparkrca.core.report;

/**
 * The outcome of an analysis, and the command line's exit code: 0 only for {@link #HEALTHY}.
 *
 * <pre>{@code
 * System.exit(report.verdict().exitCode());
 * }</pre>
 */
public enum Verdict {
  /** Nothing wrong found, on sufficient evidence. */
  HEALTHY(0),
  /** A root cause was named: a failure, or a performance problem above the significance floor. */
  PROBLEM(1),
  /** The evidence does not establish a root cause: never reported as healthy. */
  UNDETERMINED(1);

  private final int exitCode;

  Verdict(int exitCode) {
    this.exitCode = exitCode;
  }

  /** 0 for {@link #HEALTHY}, 1 otherwise. */
  public int exitCode() {
    return exitCode;
  }
}
