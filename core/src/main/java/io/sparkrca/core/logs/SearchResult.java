package io.sparkrca.core.logs;

import io.sparkrca.core.error.Remedy;
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
  /** The advice given when nothing matched: retry ignoring case, or with a broader regular expression. */
  public static final Remedy RETRY_IGNORING_CASE = Remedy.of("search.retry-ignoring-case",
      "Hint: no matches. Spark messages vary in casing and wording -- retry ignoring case, "
          + "or with a broader regular expression.");

  /** The advice given when nothing matched a search that already ignored case: retry more broadly. */
  public static final Remedy RETRY_BROADER = Remedy.of("search.retry-broader",
      "Hint: no matches. Spark messages vary in wording -- retry with a broader regular expression "
          + "(for example only the exception's class name).");

  public SearchResult {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(query, "query");
    matches = List.copyOf(matches);
    notes = List.copyOf(notes);
  }

  /** Advice when nothing matched (retry case-insensitively or more broadly), in the library's words; empty otherwise. */
  public Optional<String> hint() {
    return hintRemedy().map(Remedy::words);
  }

  /** The advice of {@link #hint()} as data, for a caller with words of its own. */
  public Optional<Remedy> hintRemedy() {
    if (!matches.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(query.ignoreCase() ? RETRY_BROADER : RETRY_IGNORING_CASE);
  }
}
