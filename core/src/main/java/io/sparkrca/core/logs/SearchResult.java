package io.sparkrca.core.logs;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link LogStream#search(SearchQuery)}.
 *
 * <pre>{@code
 * SearchResult r = LogStream.open("driver.log").search(SearchQuery.regex("OutOfMemoryError"));
 * System.out.println(r.matches().size() + " matches in " + r.linesScanned() + " lines");
 * r.hint().ifPresent(System.out::println);
 * }</pre>
 *
 * @param source the source's name
 * @param query the query that ran
 * @param matches the matches, in file order, at most {@link SearchQuery#maxMatches()}
 * @param linesScanned how many lines were read (all of them unless the limit was reached)
 * @param limitReached whether the search stopped at {@link SearchQuery#maxMatches()}
 * @param notes observations made while reading
 */
public record SearchResult(
    String source,
    SearchQuery query,
    List<SearchMatch> matches,
    long linesScanned,
    boolean limitReached,
    List<String> notes) {
  /** The advice given when nothing matched. */
  public static final String ZERO_MATCH_HINT =
      "Hint: no matches. Spark messages vary in casing and wording -- retry ignoring case, "
          + "or with a broader regular expression.";

  /** The advice given when nothing matched a search that already ignored case. */
  public static final String IGNORE_CASE_ZERO_MATCH_HINT =
      "Hint: no matches. Spark messages vary in wording -- retry with a broader regular expression "
          + "(for example only the exception's class name).";

  public SearchResult {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(query, "query");
    matches = List.copyOf(matches);
    notes = List.copyOf(notes);
  }

  /** Advice when nothing matched (retry case-insensitively or more broadly); empty otherwise. */
  public Optional<String> hint() {
    if (!matches.isEmpty()) {
      return Optional.empty();
    }
    if (query.ignoreCase()) {
      return Optional.of(IGNORE_CASE_ZERO_MATCH_HINT);
    }
    return Optional.of(ZERO_MATCH_HINT);
  }
}
