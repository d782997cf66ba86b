package io.sparkrca.core.evidence.internal;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.redaction.Redactor;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/** Turns a failure to collect something into an {@link EvidenceGap} with the exact reason. */
public final class Gaps {
  private Gaps() {}

  public static EvidenceGap of(EvidenceKind kind, String what, String uri, Throwable failure, String whatToDo) {
    Throwable t = unwrap(failure);
    String detail = Redactor.standard().redactText(message(t));
    Optional<Remedy> remedy = t instanceof SparkRcaException s ? s.remedy() : Optional.empty();
    return new EvidenceGap(kind, what, Redactor.redactUri(uri), GapReason.of(t), detail, whatToDo, remedy);
  }

  static Throwable unwrap(Throwable t) {
    while ((t instanceof ExecutionException || t instanceof UncheckedIOException
        || t instanceof java.util.concurrent.CompletionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
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
