package io.sparkrca.core.knowledge;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One way a failure is worded in a log, as a regular expression (Java syntax, found anywhere in
 * a line), with what a match may decide and where the wording was seen.
 *
 * <pre>{@code
 * Wording w = family.wordings().get(0);
 * if (w.decisive() && w.pattern().matcher(line).find()) {
 *   System.out.println(family.kind() + " is established by: " + line);
 * }
 * }</pre>
 *
 * @param regex the expression; compiled once into {@link #pattern()}
 * @param decisive whether a match establishes the family on its own (it may make a verdict
 *     {@code CONFIRMED}); otherwise it only suggests it
 * @param platforms where this wording is written ({@code yarn}, {@code kubernetes}, {@code
 *     standalone}, {@code local}, {@code dataproc}, {@code emr}, {@code databricks}, ...); empty
 *     for any
 * @param sources the public places the wording was seen (an issue, a JIRA, Spark's source)
 * @param examples lines as Spark or the platform writes them, each matching the regex: the base's
 *     tests classify every example and expect this wording's family
 * @param pattern {@link #regex()} compiled
 */
public record Wording(String regex, boolean decisive, Set<String> platforms, List<String> sources, List<String> examples,
    Pattern pattern) {
  public Wording {
    Objects.requireNonNull(regex, "regex");
    platforms = Set.copyOf(platforms);
    sources = List.copyOf(sources);
    examples = List.copyOf(examples);
    Objects.requireNonNull(pattern, "pattern");
  }

  /** Whether {@code text} holds this wording. */
  public boolean matches(CharSequence text) {
    return pattern.matcher(text).find();
  }
}
