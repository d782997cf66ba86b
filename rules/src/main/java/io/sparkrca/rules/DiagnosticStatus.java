package io.sparkrca.rules;

/**
 * The verdict of an evaluation: {@code PASS} (no rule matched; not a clean bill of health),
 * {@code FAIL} (at least one rule matched) or {@code ERROR} (the source or the rules could not be
 * read: never reported as PASS).
 *
 * <pre>{@code
 * System.exit(diagnostics.status().exitCode());
 * }</pre>
 */
public enum DiagnosticStatus {
  PASS,
  FAIL,
  ERROR;

  /** The command-line exit code: 0 PASS, 1 FAIL, 2 ERROR. */
  public int exitCode() {
    return ordinal();
  }
}
