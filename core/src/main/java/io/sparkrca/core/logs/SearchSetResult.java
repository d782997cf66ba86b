package io.sparkrca.core.logs;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The outcome of {@link LogSet#search(LogQuery)}: each log's {@link SearchResult} in the order
 * named, with totals; see {@link LogSetResult}.
 *
 * <pre>{@code
 * SearchSetResult r = LogSet.builder().build().search(query);
 * System.out.println(r.totalMatches() + " matches in " + r.logsWithMatches() + " of " + r.logs().size() + " logs");
 * }</pre>
 *
 * @param request the request; its {@link LogQuery#search()} is present
 * @param logs each log's result, in the order named
 * @param errors the logs that could not be read and the names that gave none
 * @param notes what was left out
 * @param singleFile whether exactly one file was named
 * @param failure the one name's error when nothing could be read of it
 */
public record SearchSetResult(
    LogQuery request,
    List<SearchResult> logs,
    List<LogError> errors,
    List<String> notes,
    boolean singleFile,
    Optional<SparkRcaException> failure) implements LogSetResult<SearchResult> {
  public SearchSetResult {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(failure, "failure");
    logs = List.copyOf(logs);
    errors = List.copyOf(errors);
    notes = List.copyOf(notes);
  }

  /** What was searched for. */
  public SearchQuery query() {
    return request.search().orElseThrow();
  }

  /** The matches kept, across all logs. */
  public long totalMatches() {
    return logs.stream().mapToLong(r -> r.matches().size()).sum();
  }

  /** The lines read, across all logs. */
  public long linesScanned() {
    return logs.stream().mapToLong(SearchResult::linesScanned).sum();
  }

  /** How many logs had a match. */
  public int logsWithMatches() {
    return (int) logs.stream().filter(r -> !r.matches().isEmpty()).count();
  }

  @Override
  public String toJson() {
    return LogJson.search(this);
  }

  /** As {@link #toJson()}, with the advice (zero-match hints, errors' remedies) in {@code words}' words. */
  public String toJson(Function<? super Remedy, String> words) {
    return LogJson.search(this, words);
  }

  @Override
  public String toText() {
    return LogText.search(this);
  }

  /** As {@link #toText()}, with the zero-match hint in {@code words}' words. */
  public String toText(Function<? super Remedy, String> words) {
    return LogText.search(this, words);
  }
}
