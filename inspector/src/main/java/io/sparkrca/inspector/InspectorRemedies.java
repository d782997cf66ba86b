package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;

/**
 * What the inspector's errors and text say to do, as data: each is said in library terms (name an
 * entry, ask for the JSON form), and a caller with words of its own (a command line naming its
 * flags) maps the ids and renders them with {@link Inspection#toText(java.util.function.Function)}
 * or {@link io.sparkrca.core.error.SparkRcaException#message(java.util.function.Function)}.
 *
 * <pre>{@code
 * String text = inspection.toText(r -> r.id().equals(InspectorRemedies.LINE_BUDGET.id()) ? "Ask for more lines." : r.words());
 * }</pre>
 */
public final class InspectorRemedies {
  private InspectorRemedies() {}

  /** No entry matches the name: name it by its archive path or class name, or ask for the overview. */
  public static final Remedy NAME_THE_ENTRY = Remedy.of("inspect.entry-name",
      "name the entry by its archive path ('com/example/Main.class') or class name ('com.example.Main'), or inspect "
          + "the archive without one for its overview");
  /** An entry is binary: list the archive to see what is in it. */
  public static final Remedy LIST_THE_ARCHIVE = Remedy.of("inspect.list-archive",
      "inspect the archive without an entry to list its contents");
  /** Text output left items out that the JSON form has. */
  public static final Remedy JSON_LISTS_THEM = Remedy.of("inspect.json-lists-all", "the JSON form lists them");
  /** Companion classes were not followed: name one as the entry. */
  public static final Remedy NAME_A_COMPANION = Remedy.of("inspect.companion-entry",
      "Inspect one of them by naming it as the entry.");
  /** The text was cut at the line budget. */
  public static final Remedy LINE_BUDGET = Remedy.of("inspect.line-budget",
      "Raise the line budget (maxLines), stop following inner classes, or inspect a single inner class.");
  /** A sampled archive's manifest was not read: inspect it as an entry. */
  public static final Remedy MANIFEST_ENTRY = Remedy.of("inspect.manifest-entry",
      "inspect the entry META-INF/MANIFEST.MF");
  /** The id of {@link #startLine(int)}. */
  public static final String START_LINE = "inspect.start-line";
  /** The id of {@link #drillIn(String, String)}. */
  public static final String DRILL_IN = "inspect.drill-in";

  /** A start line past the end: start at a line from 1 to {@code last} (the one value). */
  public static Remedy startLine(int last) {
    return Remedy.of(START_LINE, "start at a line from 1 to " + last, Integer.toString(last));
  }

  /**
   * How to look further into an archive: name a class or file as the entry, such as {@code example}
   * (or its {@code path}), and how a findings-only inspection scans it. The values are the two names.
   */
  public static Remedy drillIn(String example, String path) {
    return Remedy.of(DRILL_IN, "To inspect a class or file, name it as the entry (e.g. '" + example + "' or '"
        + path + "') or append '!/" + path + "' to the URI; nested jars open the same way (!/BOOT-INF/lib/x.jar); "
        + "a findings-only inspection scans the application classes for Spark anti-patterns.", example, path);
  }
}
