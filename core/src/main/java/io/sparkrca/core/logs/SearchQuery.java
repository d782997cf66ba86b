package io.sparkrca.core.logs;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.Remedy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to look for in a log: a literal string or a regular expression (RE2 syntax: no
 * backreferences or look-around), with optional case folding, lines of context and a match limit.
 * The work per line is bounded (java.util.regex under a budget where the dialects agree, RE2/J's
 * linear-time automata otherwise), so no pattern or line can make a search hang. Immutable; the
 * {@code with...} methods return changed copies.
 *
 * <pre>{@code
 * SearchQuery q = SearchQuery.regex("OutOfMemoryError|Container killed")
 *     .withIgnoreCase(true)
 *     .withContext(3)
 *     .withMaxMatches(50);
 * }</pre>
 *
 * @param pattern the literal or regular expression; not empty
 * @param regex whether {@code pattern} is a regular expression (RE2 syntax)
 * @param ignoreCase whether case is ignored (Unicode simple case folding)
 * @param before lines of context before each match, 0 to {@link #MAX_CONTEXT}
 * @param after lines of context after each match, 0 to {@link #MAX_CONTEXT}
 * @param maxMatches the search stops after this many matches, 1 to {@link #MAX_MATCHES}
 */
public record SearchQuery(
    String pattern, boolean regex, boolean ignoreCase, int before, int after, int maxMatches) {
  /** The most context lines on either side of a match. */
  public static final int MAX_CONTEXT = 1000;
  /** The highest match limit. */
  public static final int MAX_MATCHES = 10_000;
  /** The default match limit. */
  public static final int DEFAULT_MAX_MATCHES = 20;
  /**
   * What the error about an invalid regular expression says to do: search for the text as it is,
   * with a {@link #literal} query. A command line may say it with its own option.
   */
  public static final Remedy LITERAL = Remedy.of("search.literal", "use a literal query (SearchQuery.literal)");

  public SearchQuery {
    Objects.requireNonNull(pattern, "pattern");
    if (pattern.isEmpty()) {
      throw new InvalidRequestException(
          "search: the " + (regex ? "regular expression" : "literal") + " is empty; give a text to "
              + "look for");
    }
    if (before < 0 || after < 0) {
      throw new InvalidRequestException("search: context lines must not be negative");
    }
    if (before > MAX_CONTEXT || after > MAX_CONTEXT) {
      throw new InvalidRequestException(
          "search: " + Math.max(before, after) + " context lines exceed the cap of " + MAX_CONTEXT
              + "; use range START END to read a region around a match");
    }
    if (maxMatches < 1) {
      throw new InvalidRequestException("search: the match limit must be at least 1");
    }
    if (maxMatches > MAX_MATCHES) {
      throw new InvalidRequestException(
          "search: a limit of " + maxMatches + " matches exceeds the cap of " + MAX_MATCHES
              + "; narrow the pattern, or use count to know how many lines match");
    }
  }

  /** Lines containing {@code text} exactly (or ignoring case). */
  public static SearchQuery literal(String text) {
    return new SearchQuery(text, false, false, 0, 0, DEFAULT_MAX_MATCHES);
  }

  /** Lines in which the regular expression {@code re} (RE2 syntax) finds a match. */
  public static SearchQuery regex(String re) {
    return new SearchQuery(re, true, false, 0, 0, DEFAULT_MAX_MATCHES);
  }

  /**
   * Literals of which every line this query matches contains at least one, when such a set can be
   * worked out: what a search skips lines by, at memory speed, before it runs an expression. A
   * literal query's set is its text; a regular expression without a usable set (a class or an
   * optional part at every branch, say) gives empty. Other scanners use it to build one prefilter
   * for many expressions.
   *
   * <pre>{@code
   * SearchQuery.regex("OutOfMemoryError: (Java heap space|GC overhead)").requiredLiterals(); // [OutOfMemoryError: ]
   * }</pre>
   */
  public Optional<List<String>> requiredLiterals() {
    return regex ? RequiredLiterals.of(pattern, ignoreCase) : Optional.of(List.of(pattern));
  }

  public SearchQuery withIgnoreCase(boolean ignore) {
    return new SearchQuery(pattern, regex, ignore, before, after, maxMatches);
  }

  /** The same number of context lines before and after each match. */
  public SearchQuery withContext(int lines) {
    return new SearchQuery(pattern, regex, ignoreCase, lines, lines, maxMatches);
  }

  public SearchQuery withContext(int linesBefore, int linesAfter) {
    return new SearchQuery(pattern, regex, ignoreCase, linesBefore, linesAfter, maxMatches);
  }

  public SearchQuery withMaxMatches(int limit) {
    return new SearchQuery(pattern, regex, ignoreCase, before, after, limit);
  }
}
