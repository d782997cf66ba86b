package io.sparkrca.core.logs;

import io.sparkrca.core.error.InvalidRequestException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link LogSet} reads: the logs by name (files, directories read some levels down, local
 * globs, URLs), what to look for in them, the caps that keep a request over a whole log tree
 * bounded, and how each log is read. A count takes no {@link SearchQuery} (it counts lines) or one
 * (it counts matching lines too); a search needs one. Immutable; built with {@link #builder()}.
 *
 * <pre>{@code
 * LogQuery query = LogQuery.builder()
 *     .name("executor-logs/")
 *     .name("logs/*.stderr")
 *     .search(SearchQuery.regex("OutOfMemoryError|Container killed").withContext(3))
 *     .build();
 * SearchSetResult r = LogSet.builder().build().search(query);
 * }</pre>
 *
 * @param names the logs, directories, globs and URLs, in the order their results are wanted; at least one
 * @param search what to look for; empty to count lines only
 * @param maxLogs the most logs read; past it a note says how many were read
 * @param maxDepth how many directory levels a directory is read down to
 * @param maxTotalMatches the matches kept across all logs of a search; the logs after them are not read, and a note says so
 * @param strict whether damage in a log is its error rather than a note ({@link LogStream.Builder#strict})
 * @param maxLineBytes lines longer than this are cut with a marker ({@link LogStream.Builder#maxLineBytes})
 */
public record LogQuery(
    List<String> names,
    Optional<SearchQuery> search,
    int maxLogs,
    int maxDepth,
    int maxTotalMatches,
    boolean strict,
    int maxLineBytes) {
  /** The most logs one request reads by default. */
  public static final int DEFAULT_MAX_LOGS = 10_000;
  /**
   * How many directory levels down a named directory is read by default: deep enough for a YARN or
   * Kubernetes log tree given from above its application's directory (app/container/stderr under a
   * date or node directory); the log cap bounds the walk.
   */
  public static final int DEFAULT_MAX_DEPTH = 6;
  /** The matches kept across all logs of one search by default, so that memory stays bounded. */
  public static final int DEFAULT_MAX_TOTAL_MATCHES = 10_000;

  public LogQuery {
    names = List.copyOf(names);
    Objects.requireNonNull(search, "search");
    if (names.isEmpty()) {
      throw new InvalidRequestException("logs: no log named; give at least one log, directory or glob");
    }
    atLeastOne("the log cap", maxLogs);
    atLeastOne("the directory depth", maxDepth);
    atLeastOne("the cap on matches across logs", maxTotalMatches);
    LogStream.checkedLineCap(maxLineBytes);
  }

  private static void atLeastOne(String what, int value) {
    if (value < 1) {
      throw new InvalidRequestException("logs: " + what + " must be at least 1, was " + value);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builder for a {@link LogQuery}.
   *
   * <pre>{@code
   * LogQuery count = LogQuery.builder().names(List.of("driver.log", "executor-logs/")).strict(true).build();
   * }</pre>
   */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private Optional<SearchQuery> search = Optional.empty();
    private int maxLogs = DEFAULT_MAX_LOGS;
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private int maxTotalMatches = DEFAULT_MAX_TOTAL_MATCHES;
    private boolean strict;
    private int maxLineBytes = LogStream.DEFAULT_MAX_LINE_BYTES;

    private Builder() {}

    /** Adds a log, directory, glob or URL. */
    public Builder name(String name) {
      names.add(Objects.requireNonNull(name, "name"));
      return this;
    }

    /** Adds logs, directories, globs or URLs, in order. */
    public Builder names(List<String> more) {
      more.forEach(this::name);
      return this;
    }

    /** What to look for (a count without one counts lines only). */
    public Builder search(SearchQuery query) {
      this.search = Optional.of(Objects.requireNonNull(query, "query"));
      return this;
    }

    /** The most logs read (default {@value LogQuery#DEFAULT_MAX_LOGS}). */
    public Builder maxLogs(int logs) {
      this.maxLogs = logs;
      return this;
    }

    /** How many directory levels a directory is read down to (default {@value LogQuery#DEFAULT_MAX_DEPTH}). */
    public Builder maxDepth(int levels) {
      this.maxDepth = levels;
      return this;
    }

    /** The matches kept across all logs of a search (default {@value LogQuery#DEFAULT_MAX_TOTAL_MATCHES}). */
    public Builder maxTotalMatches(int matches) {
      this.maxTotalMatches = matches;
      return this;
    }

    /** Whether damage in a log is its error rather than a note (default false). */
    public Builder strict(boolean strict) {
      this.strict = strict;
      return this;
    }

    /** Lines longer than this are cut with a marker (default 1 MiB); checked at once. */
    public Builder maxLineBytes(int bytes) {
      this.maxLineBytes = LogStream.checkedLineCap(bytes);
      return this;
    }

    public LogQuery build() {
      return new LogQuery(names, search, maxLogs, maxDepth, maxTotalMatches, strict, maxLineBytes);
    }
  }
}
