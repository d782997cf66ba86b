package io.sparkrca.core.evidence.internal;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.redaction.Redactor;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/** Turns a failure to collect something into an {@link EvidenceGap} with the exact reason. */
public final class Gaps {
  private Gaps() {}

  public static EvidenceGap of(EvidenceKind kind, String what, String uri, Throwable failure, String whatToDo) {
    Throwable t = unwrap(failure);
    String detail = Redactor.standard().redactText(message(t));
    Optional<Remedy> remedy = t instanceof SparkRcaException s ? s.remedy() : Optional.empty();
    return new EvidenceGap(kind, what, Redactor.redactUri(uri), reason(t), detail, whatToDo, remedy);
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof ExecutionException || t instanceof UncheckedIOException
        || t instanceof java.util.concurrent.CompletionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /**
   * Why {@code t} left a piece of evidence out: by its type first (not found, access denied, a
   * timeout, corrupt or cut off, unsupported), then by a timeout's words in its message ("timed
   * out"), for sources whose errors carry no type of their own. The one rule every source uses.
   */
  public static GapReason reason(Throwable t) {
    String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
    if (t instanceof InputNotFoundException || t instanceof java.nio.file.NoSuchFileException
        || t instanceof java.io.FileNotFoundException) {
      return GapReason.NOT_FOUND;
    }
    if (t instanceof AccessDeniedException || t instanceof java.nio.file.AccessDeniedException) {
      return GapReason.ACCESS_DENIED;
    }
    if (t instanceof java.util.concurrent.TimeoutException || t instanceof java.net.SocketTimeoutException
        || t instanceof java.net.http.HttpTimeoutException || m.contains("timed out")) {
      return GapReason.TIMEOUT;
    }
    if (t instanceof CorruptInputException) {
      return m.contains("truncated") || m.contains("cut off") || m.contains("ends early")
          ? GapReason.CUT_OFF : GapReason.UNREADABLE;
    }
    if (t instanceof UnsupportedInputException) {
      return GapReason.UNSUPPORTED;
    }
    return GapReason.ERROR;
  }

  static String message(Throwable t) {
    if (t instanceof java.util.concurrent.TimeoutException) {
      return "not collected within the time allowed";
    }
    String m = t.getMessage();
    if (m == null || m.isBlank()) {
      return t.getClass().getSimpleName();
    }
    return t instanceof io.sparkrca.core.error.SparkRcaException ? m : t.getClass().getSimpleName() + ": " + m;
  }
}
