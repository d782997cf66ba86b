package io.sparkrca.core.logs;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The outcome of {@link LogSet#count(LogQuery)}: each log's {@link CountResult} in the order
 * named, with totals; see {@link LogSetResult}.
 *
 * <pre>{@code
 * CountSetResult r = LogSet.builder().build().count(query);
 * System.out.println(r.matchingLines() + " of " + r.lines() + " lines match");
 * }</pre>
 *
 * @param request the request
 * @param logs each log's result, in the order named
 * @param errors the logs that could not be read and the names that gave none
 * @param notes what was left out
 * @param singleFile whether exactly one file was named
 * @param failure the one name's error when nothing could be read of it
 */
public record CountSetResult(
    LogQuery request,
    List<CountResult> logs,
    List<LogError> errors,
    List<String> notes,
    boolean singleFile,
    Optional<SparkRcaException> failure) implements LogSetResult<CountResult> {
  public CountSetResult {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(failure, "failure");
    logs = List.copyOf(logs);
    errors = List.copyOf(errors);
    notes = List.copyOf(notes);
  }

  /** The lines, across all logs. */
  public long lines() {
    return logs.stream().mapToLong(CountResult::lines).sum();
  }

  /** The matching lines, across all logs (0 without a query). */
  public long matchingLines() {
    return logs.stream().mapToLong(CountResult::matchingLines).sum();
  }

  @Override
  public String toJson() {
    return LogJson.count(this);
  }

  /** As {@link #toJson()}, with the errors' remedies in {@code words}' words. */
  public String toJson(Function<? super Remedy, String> words) {
    return LogJson.count(this, words);
  }

  @Override
  public String toText() {
    return LogText.count(this);
  }
}
