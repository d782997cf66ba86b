package io.sparkrca.core.evidence;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.UnsupportedInputException;
import java.util.Locale;

/**
 * Why a piece of evidence is missing or incomplete.
 *
 * <pre>{@code
 * boolean fixable = gap.reason() == GapReason.NOT_REQUESTED;
 * GapReason why = GapReason.of(failure); // NOT_FOUND for an InputNotFoundException, ...
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
  ERROR;

  /**
   * Why {@code failure} left a piece of evidence out: by its type first (not found, access denied,
   * a timeout, corrupt or cut off, unsupported), then by a timeout's words in its message ("timed
   * out"), for sources whose errors carry no type of their own. The one rule every source uses.
   */
  public static GapReason of(Throwable failure) {
    String m = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
    if (failure instanceof InputNotFoundException || failure instanceof java.nio.file.NoSuchFileException
        || failure instanceof java.io.FileNotFoundException) {
      return NOT_FOUND;
    }
    if (failure instanceof AccessDeniedException || failure instanceof java.nio.file.AccessDeniedException) {
      return ACCESS_DENIED;
    }
    if (failure instanceof java.util.concurrent.TimeoutException || failure instanceof java.net.SocketTimeoutException
        || failure instanceof java.net.http.HttpTimeoutException || m.contains("timed out")) {
      return TIMEOUT;
    }
    if (failure instanceof CorruptInputException) {
      return m.contains("truncated") || m.contains("cut off") || m.contains("ends early") ? CUT_OFF : UNREADABLE;
    }
    if (failure instanceof UnsupportedInputException) {
      return UNSUPPORTED;
    }
    return ERROR;
  }
}
