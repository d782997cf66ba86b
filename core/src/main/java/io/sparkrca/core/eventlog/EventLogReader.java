package io.sparkrca.core.eventlog;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.IoErrors;
import io.sparkrca.core.eventlog.replay.ReplayOptions;
import io.sparkrca.core.eventlog.replay.ReplayReport;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.eventlog.replay.Replayer;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads event logs with fixed settings. Thread-safe; each replay is independent.
 *
 * <p>Memory: a replay keeps per-stage and per-executor aggregates plus, per task, about 60 to 110
 * bytes in packed columns; {@link Builder#maxTaskRowsPerStage(int)} bounds the task part while
 * every aggregate stays exact. Lines longer than {@link Builder#maxLineBytes(int)} are skipped and
 * reported, never buffered.
 *
 * <pre>{@code
 * EventLogReader reader = EventLogs.reader().strict(false).build();
 * ReplayedApplication app = reader.replay("/tmp/spark-events/eventlog_v2_app-1");
 * app.report().notes().forEach(System.err::println);
 * }</pre>
 */
public final class EventLogReader {
  private final ByteSources sources;
  private final ReplayOptions options;
  private final EventLogLocator locator;

  private EventLogReader(ByteSources sources, ReplayOptions options) {
    this.sources = sources;
    this.options = options;
    this.locator = new EventLogLocator(sources);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The logs at {@code uri}: one for a file or rolling directory, many for a log directory.
   *
   * @throws io.sparkrca.core.error.InputNotFoundException when nothing exists at {@code uri}, or a
   *     directory holds no event log
   * @throws io.sparkrca.core.error.SparkRcaException when it cannot be read, naming it
   */
  public List<EventLogRef> find(String uri) {
    java.util.Objects.requireNonNull(uri, "uri");
    if (uri.isBlank()) {
      throw new InvalidRequestException(
          "no event log given: pass the path or URI of an event log file, a rolling event log "
              + "directory or a log directory");
    }
    return IoErrors.call(uri, () -> locator.find(uri));
  }

  /**
   * Replays the single application at {@code uri}.
   *
   * @throws InvalidRequestException when {@code uri} holds several applications (use {@link
   *     #history(String)})
   */
  public ReplayedApplication replay(String uri) {
    List<EventLogRef> logs = find(uri);
    if (logs.size() > 1) {
      StringBuilder names = new StringBuilder();
      for (int i = 0; i < Math.min(5, logs.size()); i++) {
        names.append(i == 0 ? "" : ", ").append(logs.get(i).name());
      }
      throw new InvalidRequestException(
          uri + " holds " + logs.size() + " event logs (" + names + (logs.size() > 5 ? ", ..." : "")
              + "); name one of them");
    }
    return replay(logs.get(0));
  }

  /**
   * Whether a log with no complete event was cut rather than never an event log: its compressed
   * stream ends early, or its only (unterminated) line starts as a JSON object does.
   */
  private static boolean cutBeforeFirstEvent(ReplayReport report, ByteSource[] files) throws java.io.IOException {
    if (report.notes().stream().anyMatch(n -> n.contains("ends early"))) {
      return true;
    }
    if (files.length == 0 || report.sources().isEmpty() || !"none".equals(report.sources().get(0).codec())) {
      return false;
    }
    byte[] head = files[0].read(0, 64);
    for (byte b : head) {
      if (b == '{') {
        return true;
      }
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n' && b != (byte) 0xEF && b != (byte) 0xBB && b != (byte) 0xBF) {
        return false;
      }
    }
    return false;
  }

  /** Replays one located log. */
  public ReplayedApplication replay(EventLogRef log) {
    try {
      Replayer replayer = new Replayer(options);
      long lastUpdate = -1;
      ByteSource[] files = new ByteSource[log.files().size()];
      for (int i = 0; i < files.length; i++) {
        files[i] = sources.open(log.files().get(i));
        Optional<Instant> modified = files[i].lastModified();
        if (modified.isPresent()) {
          lastUpdate = Math.max(lastUpdate, modified.get().toEpochMilli());
        }
      }
      if (lastUpdate < 0) {
        lastUpdate = System.currentTimeMillis();
      }
      replayer.lastUpdateTime(lastUpdate);
      for (String gap : log.gaps()) {
        replayer.partMissing(log.uri() + ": " + gap);
      }
      long bytes = 0;
      for (int i = 0; i < files.length; i++) {
        ByteSource file = files[i];
        long size = file.size().orElse(-1);
        if (size == 0 && i < files.length - 1) {
          // Spark only leaves the part it is writing empty: an empty part with parts after it lost its events.
          replayer.partMissing(log.uri() + ": " + file.fileName() + " is empty though later parts follow it: "
              + "the events of that part are lost (copy the log again)");
          continue; // nothing to read, and a special file (a pipe) of size 0 is never opened
        }
        Optional<String> copyOf = size > 0 ? sameBytesAsEarlier(files, i, size) : Optional.empty();
        if (copyOf.isPresent()) {
          // Reading a copied part again would count every one of its events twice.
          replayer.partMissing(log.uri() + ": " + file.fileName() + " was skipped: it holds exactly the bytes of "
              + copyOf.get() + " (a part copied under another part number), so it was read once");
          continue;
        }
        replayer.read(file, log.inProgress());
        bytes += Math.max(0, size);
      }
      ReplayedApplication app = ReplayedApplication.of(replayer.finish(lastUpdate), lastUpdate, log.name());
      if (app.report().events() == 0 && app.report().truncated() && cutBeforeFirstEvent(app.report(), files)) {
        // A stream cut before its first complete event is damage, not an application that wrote nothing.
        String where = app.report().notes().stream().filter(n -> n.contains("ends early") || n.contains("incomplete line"))
            .findFirst().map(n -> " (" + n.replace("; read up to there", "") + ")").orElse("");
        throw new CorruptInputException(
            log.uri() + " is cut off before its first complete event" + where + ": copy the file again, or, if the "
                + "application is still running, wait until it has written more");
      }
      if (app.report().events() == 0) {
        throw new CorruptInputException(
            log.uri() + (bytes == 0 ? " is empty" : " holds no Spark events")
                + ": the application wrote nothing yet, or this is not an event log "
                + "(check spark.eventLog.enabled and spark.eventLog.dir)");
      }
      return app;
    } catch (IOException e) {
      throw IoErrors.translate(log.uri(), e);
    }
  }

  /**
   * The name of an earlier part of a rolling log with exactly the bytes of part {@code i}, whose
   * size is {@code size}: parts of the same size are rare enough that comparing them costs nothing
   * in practice.
   */
  private static Optional<String> sameBytesAsEarlier(ByteSource[] files, int i, long size) throws IOException {
    for (int j = 0; j < i; j++) {
      if (files[j].size().orElse(-1) == size && sameBytes(files[j], files[i], size)) {
        return Optional.of(files[j].fileName());
      }
    }
    return Optional.empty();
  }

  private static boolean sameBytes(ByteSource a, ByteSource b, long size) throws IOException {
    final int chunk = 1 << 20;
    for (long at = 0; at < size; at += chunk) {
      int n = (int) Math.min(chunk, size - at);
      if (!java.util.Arrays.equals(a.read(at, n), b.read(at, n))) {
        return false;
      }
    }
    return true;
  }

  /** The listing facts of one log (application, attempt, times) without replaying it. */
  ListingScanner.Listing scanListing(EventLogRef log) {
    try {
      return ListingScanner.scan(sources, log, options.maxLineBytes());
    } catch (IOException e) {
      throw IoErrors.translate(log.uri(), e);
    }
  }

  /** The applications of a log directory, replayed on demand. */
  public EventLogHistory history(String uri) {
    return new EventLogHistory(this, find(uri));
  }

  /**
   * The applications of a log directory, replayed on demand, keeping at most {@code
   * cachedApplications} replays; {@link EventLogHistory#refresh()} picks up new and grown logs.
   *
   * @throws InvalidRequestException when {@code cachedApplications} is not between 1 and 1000
   */
  public EventLogHistory history(String uri, int cachedApplications) {
    if (cachedApplications < 1 || cachedApplications > 1000) {
      throw new InvalidRequestException(
          "the number of cached applications must be between 1 and 1000, not " + cachedApplications);
    }
    return new EventLogHistory(this, find(uri), Optional.of(uri), cachedApplications);
  }

  /** Where this reader's bytes come from. */
  ByteSources sources() {
    return sources;
  }

  /** Builds an {@link EventLogReader}. */
  public static final class Builder {
    private ByteSources sources = ByteSources.defaults();
    private boolean strict;
    private int maxLineBytes = ReplayOptions.DEFAULTS.maxLineBytes();
    private int maxTaskRowsPerStage = ReplayOptions.DEFAULTS.maxTaskRowsPerStage();
    private int threads = ReplayOptions.DEFAULT_THREADS;

    private Builder() {}

    /** Where bytes come from (defaults: local files plus providers on the class path). */
    public Builder sources(ByteSources sources) {
      this.sources = java.util.Objects.requireNonNull(sources, "sources");
      return this;
    }

    /** Whether a bad line is fatal (default false: skipped, counted and reported). */
    public Builder strict(boolean strict) {
      this.strict = strict;
      return this;
    }

    /** The longest line read (default 64 MiB); longer lines are skipped and reported. */
    public Builder maxLineBytes(int maxLineBytes) {
      this.maxLineBytes = maxLineBytes;
      return this;
    }

    /**
     * Task rows kept per stage attempt (default: all). Stage and executor totals stay exact; task
     * lists and task quantiles cover the kept rows, and the report notes how many were dropped.
     */
    public Builder maxTaskRowsPerStage(int max) {
      this.maxTaskRowsPerStage = max;
      return this;
    }

    /**
     * Threads one replay may use, 1 or 2 (default 2 on a machine with two or more processors; see
     * {@link ReplayOptions}): give 1 when replays run side by side, one per core.
     */
    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    /**
     * The reader.
     *
     * @throws InvalidRequestException when {@code maxLineBytes} is under 1024, {@code
     *     maxTaskRowsPerStage} is negative or {@code threads} is not 1 or 2
     */
    public EventLogReader build() {
      return new EventLogReader(sources, new ReplayOptions(strict, maxLineBytes, maxTaskRowsPerStage, threads));
    }
  }
}
