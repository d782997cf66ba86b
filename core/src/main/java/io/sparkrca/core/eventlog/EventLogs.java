package io.sparkrca.core.eventlog;

import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import java.nio.file.Path;

/**
 * Entry point for reading Spark event logs, in every codec (none, zstd, lz4, snappy, lzf, gzip)
 * and layout (single file, rolling directory, directory of many applications, in-progress).
 *
 * <pre>{@code
 * ReplayedApplication app = EventLogs.replay(Path.of("/tmp/spark-events/app-20240101-0001"));
 * System.out.println(app.info().name() + ": " + app.jobs(Set.of()).size() + " jobs");
 *
 * EventLogReader strict = EventLogs.reader().strict(true).maxTaskRowsPerStage(10_000).build();
 * SparkHistory all = strict.history("/tmp/spark-events");
 * }</pre>
 */
public final class EventLogs {
  private EventLogs() {}

  /** Replays the one application at {@code path} (a log file or a rolling log directory). */
  public static ReplayedApplication replay(Path path) {
    return reader().build().replay(path.toString());
  }

  /** Replays the one application at {@code uri} with default settings. */
  public static ReplayedApplication replay(String uri) {
    return reader().build().replay(uri);
  }

  /** A builder for a reader with non-default settings. */
  public static EventLogReader.Builder reader() {
    return EventLogReader.builder();
  }
}
