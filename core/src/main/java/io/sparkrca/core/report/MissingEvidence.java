package io.sparkrca.core.report;

import io.sparkrca.core.evidence.GapReason;
import java.util.Objects;

/**
 * Evidence the analysis lacked, why it matters for this answer, and how to get it.
 *
 * <pre>{@code
 * report.missingEvidence().forEach(m -> System.out.println(m.what() + ": " + m.howToGet()));
 * }</pre>
 *
 * @param what e.g. {@code "executor 3 log"}
 * @param reason why it is missing
 * @param detail the exact error, or what was observed
 * @param whyItMatters how it would change or confirm the answer
 * @param howToGet where to fetch it
 */
public record MissingEvidence(String what, GapReason reason, String detail, String whyItMatters, String howToGet) {
  public MissingEvidence {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(whyItMatters, "whyItMatters");
    Objects.requireNonNull(howToGet, "howToGet");
  }
}
