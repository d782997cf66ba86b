package io.sparkrca.core.report;

/**
 * How sure a root cause is.
 *
 * <pre>{@code
 * if (report.rootCause().confidence() == Confidence.LEADING_HYPOTHESIS) {
 *   System.out.println("to confirm: " + report.rootCause().toConfirm().orElse(""));
 * }
 * }</pre>
 */
public enum Confidence {
  /** The evidence establishes causality: the exception on every attempt, the OOM in the executor's own log, the kill record. */
  CONFIRMED,
  /** The best explanation, but the decisive record is missing; the report names what would confirm it. */
  LEADING_HYPOTHESIS,
  /** Nothing collected explains what happened (or too little was collected to judge). */
  INSUFFICIENT_EVIDENCE
}
