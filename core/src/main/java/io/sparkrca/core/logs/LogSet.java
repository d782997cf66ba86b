package io.sparkrca.core.logs;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Counts or searches many logs at once: the names of a {@link LogQuery} expanded (directories some
 * levels down, local globs; see {@link SourceFiles}), the logs read concurrently with a few in
 * flight, the results in the order named. A log that cannot be read is an entry of {@link
 * LogSetResult#errors()} and does not stop the others. Memory stays bounded: at most a window of
 * results is waiting, each search keeps at most its query's matches per log, and once the matches
 * kept reach the request's cap the remaining logs are not read (a note says how many).
 *
 * <pre>{@code
 * LogSet logs = LogSet.builder().sources(ByteSources.defaults()).build();
 * SearchSetResult r = logs.search(LogQuery.builder()
 *     .name("executor-logs/")
 *     .search(SearchQuery.literal("Lost executor"))
 *     .build());
 * System.out.print(r.toText());
 * }</pre>
 *
 * <p>Instances are immutable and may be shared.
 */
public final class LogSet {
  private final ByteSources sources;
  private final int threads;
  private final LogStream.Builder streams;

  private LogSet(Builder b) {
    this.sources = b.sources;
    this.threads = b.threads;
    this.streams = b.streams.copy().sources(b.sources);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The lines of {@code query}'s logs matching its {@link LogQuery#search()}, which must be present. */
  public SearchSetResult search(LogQuery query) {
    SearchQuery q = query.search().orElseThrow(() -> new InvalidRequestException(
        "logs: a search needs a pattern; give the query a SearchQuery (LogQuery.Builder.search), or count instead"));
    Run<SearchResult> run = run(query, log -> log.search(q), r -> r.matches().size());
    return new SearchSetResult(query, run.logs, run.errors, run.notes, run.singleFile, run.failure);
  }

  /** The lines of {@code query}'s logs, and of those matching its {@link LogQuery#search()} when present. */
  public CountSetResult count(LogQuery query) {
    Run<CountResult> run = run(query, log -> query.search().map(log::count).orElseGet(log::count), r -> 0);
    return new CountSetResult(query, run.logs, run.errors, run.notes, run.singleFile, run.failure);
  }

  /** What one request gave, before it is told as a search or a count. */
  private record Run<T>(List<T> logs, List<LogError> errors, List<String> notes, boolean singleFile,
      Optional<SparkRcaException> failure) {}

  private <T> Run<T> run(LogQuery query, Function<LogStream, T> action, ToLongFunction<T> matches) {
    SourceFiles.Listing listing = SourceFiles.expand(sources, query.names(), query.maxLogs(), query.maxDepth());
    List<LogError> errors = new ArrayList<>(listingErrors(listing));
    List<String> notes = new ArrayList<>();
    if (listing.capped()) {
      notes.add("Only the first " + query.maxLogs() + " logs were read.");
    }
    // Each request's read settings on a copy, so that concurrent requests do not share a builder.
    LogStream.Builder settings = streams.copy().strict(query.strict()).maxLineBytes(query.maxLineBytes());
    OrderedReads.Done<T> done = OrderedReads.read(listing.files(), threads, query.maxTotalMatches(),
        uri -> action.apply(settings.build(uri)), matches);
    List<T> logs = new ArrayList<>();
    for (OrderedReads.Outcome<T> o : done.outcomes()) {
      o.result().ifPresent(logs::add);
      o.error().ifPresent(e -> errors.add(LogError.of(o.uri(), e)));
    }
    if (done.skipped() > 0) {
      notes.add(done.skipped() + " more logs were not searched: " + query.maxTotalMatches()
          + " matches were found before them; narrow the pattern or the logs.");
    }
    boolean single = query.names().size() == 1 && listing.files().equals(query.names());
    boolean nameFailed = query.names().size() == 1 && logs.isEmpty() && errors.size() == 1
        && (single || listing.files().isEmpty());
    return new Run<>(logs, errors, notes, single, nameFailed ? Optional.of(errors.get(0).exception()) : Optional.empty());
  }

  /** The names that gave no log, each with the failure behind it or one saying it was not found. */
  private static List<LogError> listingErrors(SourceFiles.Listing listing) {
    List<LogError> errors = new ArrayList<>();
    for (SourceFiles.Problem p : listing.problems()) {
      SparkRcaException e = p.cause().orElseGet(() -> new InputNotFoundException(p.uri(), p.message()));
      errors.add(new LogError(p.uri(), p.message(), e));
    }
    return errors;
  }

  /**
   * Settings for a {@link LogSet}.
   *
   * <pre>{@code
   * LogSet oneAtATime = LogSet.builder()
   *     .sources(ByteSources.defaults())
   *     .threads(1)
   *     .streams(LogStream.builder().redact(false))
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private LogStream.Builder streams = LogStream.builder();

    private Builder() {}

    /** Where names are listed and logs read (default {@link ByteSources#defaults()}); replaces the stream template's. */
    public Builder sources(ByteSources sources) {
      this.sources = Objects.requireNonNull(sources, "sources");
      return this;
    }

    /**
     * How many logs are read at once (default: the cores, at least 2). With 1, logs are read one
     * after another on the calling thread: a server running several requests at once gives no
     * single one the machine's cores.
     */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new InvalidRequestException("logs: at least 1 thread reads the logs, was " + threads);
      }
      this.threads = threads;
      return this;
    }

    /**
     * How each log is read (redaction, tail windows): a template, copied when the set is built;
     * each request's strictness and line cap are set on a copy of it.
     */
    public Builder streams(LogStream.Builder template) {
      this.streams = Objects.requireNonNull(template, "template");
      return this;
    }

    public LogSet build() {
      return new LogSet(this);
    }
  }
}
