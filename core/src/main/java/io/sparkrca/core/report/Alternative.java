package io.sparkrca.core.report;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.util.Objects;

/**
 * A cause that was considered and rejected, and why.
 *
 * <pre>{@code
 * report.rootCause().alternatives().forEach(a -> System.out.println(a.kind() + ": " + a.whyRejected()));
 * }</pre>
 */
public record Alternative(RootCauseKind kind, String title, String whyRejected) {
  public Alternative {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(whyRejected, "whyRejected");
  }
}
