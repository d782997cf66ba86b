package io.sparkrca.inspector;

import io.sparkrca.core.error.InputNotFoundException;
import java.util.List;

/**
 * No archive entry matches the requested name, by path, class name, bare class name or
 * case-insensitively. The message and {@link #nearest()} list the closest names.
 *
 * <pre>{@code
 * try {
 *   inspector.inspect("app.jar", "com.example.SparkJb");
 * } catch (EntryNotFoundException e) {
 *   System.err.println("did you mean " + e.nearest());
 * }
 * }</pre>
 */
public class EntryNotFoundException extends InputNotFoundException {
  private static final long serialVersionUID = 1L;

  /** The closest entry names (class names dotted), best first; may be empty. */
  private final List<String> nearest;

  /** Creates the exception; the message lists {@code nearest}. */
  public EntryNotFoundException(String archive, String entry, List<String> nearest) {
    super("Entry '" + Texts.safe(entry) + "' in " + archive,
        (nearest.isEmpty() ? "no similar names" : "nearest names: " + String.join(", ", nearest)) + "; ",
        InspectorRemedies.NAME_THE_ENTRY);
    this.nearest = List.copyOf(nearest);
  }

  /** The closest names, best first. */
  public List<String> nearest() {
    return nearest;
  }
}
