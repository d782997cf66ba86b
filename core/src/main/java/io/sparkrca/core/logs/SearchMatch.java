package io.sparkrca.core.logs;

import java.util.List;
import java.util.Objects;

/**
 * One matching line with its context. Contexts never overlap: a line shown as the after-context
 * of one match is not repeated as the before-context of the next, and a match inside another's
 * after-context ends that context and starts its own block.
 *
 * <pre>{@code
 * for (SearchMatch m : result.matches()) {
 *   System.out.println("#" + m.index() + " at line " + m.line().number() + ": " + m.line().text());
 * }
 * }</pre>
 *
 * @param index the 1-based number of the match
 * @param line the matching line
 * @param before up to {@code before} lines preceding it
 * @param after up to {@code after} lines following it
 */
public record SearchMatch(int index, LogLine line, List<LogLine> before, List<LogLine> after) {
  public SearchMatch {
    Objects.requireNonNull(line, "line");
    before = List.copyOf(before);
    after = List.copyOf(after);
  }
}
