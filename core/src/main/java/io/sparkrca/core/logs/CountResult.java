package io.sparkrca.core.logs;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link LogStream#count()} or {@link LogStream#count(SearchQuery)}: how many lines
 * a log has and, with a query, how many of them match (like {@code grep -c}).
 *
 * <pre>{@code
 * CountResult c = LogStream.open("driver.log").count(SearchQuery.literal("WARN"));
 * System.out.println(c.matchingLines() + " of " + c.lines() + " lines are warnings");
 * }</pre>
 *
 * @param source the source's name
 * @param lines the number of lines
 * @param query the query, when one was given
 * @param matchingLines the number of matching lines (0 without a query)
 * @param notes observations made while reading
 */
public record CountResult(
    String source, long lines, Optional<SearchQuery> query, long matchingLines, List<String> notes) {
  public CountResult {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(query, "query");
    notes = List.copyOf(notes);
  }
}
