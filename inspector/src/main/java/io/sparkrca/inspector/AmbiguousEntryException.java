package io.sparkrca.inspector;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.List;

/**
 * A bare or case-insensitive entry name matches several entries; none is picked silently. The
 * message and {@link #candidates()} list them.
 *
 * <pre>{@code
 * try {
 *   inspector.inspect("app.jar", "Job");
 * } catch (AmbiguousEntryException e) {
 *   e.candidates().forEach(System.err::println); // com/a/Job.class, com/b/Job.class
 * }
 * }</pre>
 */
public class AmbiguousEntryException extends InvalidRequestException {
  private static final long serialVersionUID = 1L;

  /** The matching entries. */
  private final List<String> candidates;

  /** Creates the exception; the message lists up to 20 candidates. */
  public AmbiguousEntryException(String archive, String entry, List<String> candidates) {
    super("Entry '" + Texts.safe(entry) + "' is ambiguous in " + archive + ": "
        + Texts.count(candidates.size()) + " entries match ("
        + String.join(", ", candidates.subList(0, Math.min(20, candidates.size())))
        + (candidates.size() > 20 ? ", ..." : "") + "); pass the full archive path or the fully "
        + "qualified class name");
    this.candidates = List.copyOf(candidates);
  }

  /** Every matching entry name. */
  public List<String> candidates() {
    return candidates;
  }
}
