package io.sparkrca.rules;

/**
 * Whether a violation flags stage attempts or the application as a whole.
 *
 * <pre>{@code
 * if (violation.scope() == Scope.APPLICATION) System.out.println(violation.detail().orElse(""));
 * }</pre>
 */
public enum Scope {
  STAGE,
  APPLICATION
}
