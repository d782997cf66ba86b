package io.sparkrca.core.logs;

import io.sparkrca.core.error.SparkRcaException;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link LogSet} request gave: each log's result in the order named (a directory's or
 * glob's logs sorted by name), the logs that could not be read, and notes on what was left out.
 * Rendered as JSON by {@link LogJson} and as text by {@link LogText}, through {@code toJson()} and
 * {@code toText()}.
 *
 * <p>It does not implement {@link io.sparkrca.core.report.Report}, though it renders the same way:
 * core.report uses core.evidence, which reads logs, so this package may not use core.report.
 *
 * <pre>{@code
 * LogSetResult<SearchResult> r = LogSet.builder().build().search(query);
 * r.errors().forEach(e -> System.err.println(e.source() + ": " + e.message()));
 * System.out.println(r.toJson());
 * }</pre>
 *
 * @param <T> one log's result: {@link SearchResult} or {@link CountResult}
 */
public sealed interface LogSetResult<T> permits SearchSetResult, CountSetResult {
  /** The request. */
  LogQuery request();

  /** Each log's result, in the order named. */
  List<T> logs();

  /** The logs that could not be read and the names that gave none: listing problems first, then the logs in order. */
  List<LogError> errors();

  /** What was left out: logs past the log cap, logs not searched after the match cap. */
  List<String> notes();

  /**
   * Whether exactly one file was named (not a directory or glob). A command line prints that case
   * in the single-log format and makes its error the command's.
   */
  boolean singleFile();

  /**
   * When one name was given and nothing could be read of it because of the name itself (the one
   * file named could not be read, or the name gave no log), that error: a caller with one log may
   * make it its own. Empty otherwise, also when a directory's only log could not be read.
   */
  Optional<SparkRcaException> failure();

  /**
   * The one log's result when {@link #singleFile()}; empty when several logs or a directory or glob
   * were named.
   *
   * @throws SparkRcaException the one file's error, when it could not be read
   */
  default Optional<T> single() {
    if (!singleFile()) {
      return Optional.empty();
    }
    failure().ifPresent(e -> {
      throw e;
    });
    return Optional.of(logs().get(0));
  }

  /** The JSON rendering ({@link LogJson}), advice in the library's words. */
  String toJson();

  /** The text rendering ({@link LogText}), advice in the library's words; errors and notes are not in it. */
  String toText();
}
