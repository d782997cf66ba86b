package io.sparkrca.core.evidence;

/**
 * Which output stream of a process a log holds. Spark's own log4j output goes to stderr;
 * {@code System.out} and Python's print go to stdout.
 *
 * <pre>{@code
 * if (log.channel() == LogChannel.STDOUT) { ... }
 * }</pre>
 */
public enum LogChannel {
  STDOUT,
  STDERR,
  /** Both, or not known. */
  UNKNOWN
}
