package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;

/**
 * How the code of two runs differs: entries (classes, resources, source files) added, removed and
 * changed, and for each changed class or source the string constants or lines that appeared or
 * went away (a changed query, table name, path or configuration key is usually there). Bounded:
 * at most {@value #MAX_ENTRIES} entries of each list and {@value #MAX_STRINGS} strings per
 * entry; {@link #notes()} says what was cut.
 *
 * <pre>{@code
 * CodeDiff d = provider.diff("old/app.jar", "new/app.jar", SourceSettings.defaults()).orElseThrow();
 * d.changed().forEach(c -> System.out.println(c.name() + " +" + c.addedStrings() + " -" + c.removedStrings()));
 * }</pre>
 *
 * @param baselineUri the baseline's code (credentials removed)
 * @param candidateUri the candidate's code (credentials removed)
 * @param added entries only the candidate has
 * @param removed entries only the baseline has
 * @param changed entries whose content differs
 * @param unchanged how many entries are the same in both
 * @param notes what was skipped or capped
 */
public record CodeDiff(String baselineUri, String candidateUri, List<String> added, List<String> removed,
    List<ChangedEntry> changed, int unchanged, List<String> notes) {
  /** The most entries each list holds. */
  public static final int MAX_ENTRIES = 200;
  /** The most strings listed per changed entry and direction. */
  public static final int MAX_STRINGS = 20;

  /**
   * One entry whose content differs.
   *
   * @param name the entry, e.g. {@code com/x/Job.class} or {@code job.py}
   * @param addedStrings string constants (or source lines) only the candidate has
   * @param removedStrings string constants (or source lines) only the baseline has
   */
  public record ChangedEntry(String name, List<String> addedStrings, List<String> removedStrings) {
    public ChangedEntry {
      Objects.requireNonNull(name, "name");
      addedStrings = List.copyOf(addedStrings);
      removedStrings = List.copyOf(removedStrings);
    }
  }

  public CodeDiff {
    Objects.requireNonNull(baselineUri, "baselineUri");
    Objects.requireNonNull(candidateUri, "candidateUri");
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    changed = List.copyOf(changed);
    notes = List.copyOf(notes);
  }

  /** Whether the two are the same code. */
  public boolean identical() {
    return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
  }
}
