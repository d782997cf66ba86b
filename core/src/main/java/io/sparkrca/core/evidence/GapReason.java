package io.sparkrca.core.evidence;

/**
 * Why a piece of evidence is missing or incomplete.
 *
 * <pre>{@code
 * boolean fixable = gap.reason() == GapReason.NOT_REQUESTED;
 * }</pre>
 */
public enum GapReason {
  /** Nobody asked for it (no driver log was given): fetching it may change the answer. */
  NOT_REQUESTED,
  /** The source says it does not exist (a missing file, an HTTP 404, a deleted pod). */
  NOT_FOUND,
  /** The source refused access (HTTP 401/403, file permissions, missing credentials). */
  ACCESS_DENIED,
  /** The source did not answer in time. */
  TIMEOUT,
  /** It was read, but it ends early (a cut-off log, a stream truncated mid-way). */
  CUT_OFF,
  /** It was read, but only in part: records skipped, rows capped, a log scanned only so far. */
  PARTIAL,
  /** It could not be read as what it should be (corrupt, wrong codec, not a log). */
  UNREADABLE,
  /** Nothing here reads it (an unknown scheme, a source whose module is not on the class path). */
  UNSUPPORTED,
  /** Any other failure; the detail has the exact error. */
  ERROR
}
