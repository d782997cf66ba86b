package io.sparkrca.core.evidence;

/**
 * Whose log a log is.
 *
 * <pre>{@code
 * evidence.logs().stream().filter(l -> l.role() == LogRole.EXECUTOR).forEach(...);
 * }</pre>
 */
public enum LogRole {
  /** The driver (spark-submit's output, the driver pod, YARN's application master in cluster mode). */
  DRIVER,
  /** An executor. */
  EXECUTOR,
  /** Could not be told from the name or the content. */
  UNKNOWN
}
