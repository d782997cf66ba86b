package io.sparkrca.core.evidence;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import java.util.Objects;

/**
 * Evidence without which a request cannot be answered could not be collected: the event log
 * named could not be read and nothing else was given, the baseline to compare with is unreadable,
 * the workload could not be described. The message is the gap's {@link EvidenceGap#sentence
 * sentence}; {@link #gap()} holds the gap itself, and the failure's remedy (if any) is the
 * exception's, so a caller can say it in its own words.
 *
 * <pre>{@code
 * try {
 *   RcaReport report = RcaRunner.standard().run(request);
 * } catch (EvidenceUnavailableException e) {
 *   System.err.println(e.gap().kind() + " unavailable: " + e.getMessage());
 * }
 * }</pre>
 */
public class EvidenceUnavailableException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  private final transient EvidenceGap gap;

  /** The gap, stated as its sentence, prefixed with {@code context} ("" for none). */
  public EvidenceUnavailableException(String context, EvidenceGap gap) {
    super(context + Objects.requireNonNull(gap, "gap").sentence(Remedy::words), gap.remedy(), null);
    this.gap = gap;
  }

  /** The gap that ended the request. */
  public EvidenceGap gap() {
    return gap;
  }
}
