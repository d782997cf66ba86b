package io.sparkrca.fleet;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.fleet.internal.FleetJson;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Finds every application's event log under a directory or object-store prefix, in every codec and
 * layout: single files (plain, zstd, lz4, snappy, lzf, gzip, {@code .inprogress}) and rolling
 * {@code eventlog_v2_...} directories, at any depth up to a bound (logs kept in dated
 * subdirectories are found too). Files whose names say they are something else (driver logs,
 * JSON, CSV, JARs, checksums, hidden files) are skipped and counted. A directory that cannot be
 * listed, or a rolling directory with no events file, is kept as a {@link FleetLog} with its error,
 * so that it becomes an error row rather than ending the scan.
 *
 * <pre>{@code
 * FleetLogs.Listing found = FleetLogs.discover(ByteSources.defaults(), "gs://bucket/spark-events/");
 * System.out.println(found.logs().size() + " logs, " + found.skippedFiles() + " other files");
 * }</pre>
 */
public final class FleetLogs {
  /** How many directory levels below the root are searched by default. */
  public static final int DEFAULT_MAX_DEPTH = 8;

  /** Extensions of files that are never event logs (Spark names its logs after the application id). */
  private static final Set<String> NOT_EVENT_LOGS = Set.of(
      "json", "log", "txt", "md", "stderr", "stdout", "out", "err", "csv", "tsv", "parquet", "orc", "avro",
      "html", "htm", "xml", "yaml", "yml", "properties", "conf", "jar", "class", "py", "scala", "java",
      "sql", "sh", "zip", "tar", "tgz", "png", "jpg", "svg", "pdf", "crc", "tmp");

  private FleetLogs() {}

  /**
   * What was found under a root.
   *
   * @param root the root as given
   * @param logs the logs, sorted by URI
   * @param skippedFiles files that are not event logs by their names
   * @param notes what the listing could not cover (directories below the depth bound)
   */
  public record Listing(String root, List<FleetLog> logs, long skippedFiles, List<String> notes) {
    public Listing {
      Objects.requireNonNull(root, "root");
      logs = List.copyOf(logs);
      notes = List.copyOf(notes);
    }

    /** The logs' total size in bytes. */
    public long totalBytes() {
      return logs.stream().mapToLong(FleetLog::sizeBytes).sum();
    }
  }

  /** The logs under {@code root}, searched {@value #DEFAULT_MAX_DEPTH} levels deep. */
  public static Listing discover(ByteSources sources, String root) {
    return discover(sources, root, DEFAULT_MAX_DEPTH);
  }

  /**
   * The logs under {@code root} (a directory, an object-store prefix, a rolling log directory or
   * one log file), searched {@code maxDepth} directory levels below it.
   *
   * @throws InputNotFoundException when nothing exists at {@code root}, or it holds no event log
   * @throws SparkRcaException when {@code root} itself cannot be listed
   */
  public static Listing discover(ByteSources sources, String root, int maxDepth) {
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(root, "root");
    if (root.isBlank()) {
      throw new InvalidRequestException("no fleet root given: name a directory or object-store prefix of event logs");
    }
    if (maxDepth < 0) {
      throw new InvalidRequestException("the search depth must be 0 or more, not " + maxDepth);
    }
    Walk walk = new Walk(sources, maxDepth);
    if (!sources.isDirectory(root)) {
      ByteSource file = sources.open(root);
      walk.logs.add(walk.fileLog(root, file, sizeOf(file)));
    } else {
      List<SourceEntry> entries = sources.list(root);
      if (EventLogRef.isRollingDirectory(FleetJson.lastSegment(root), entries)) {
        walk.logs.add(walk.rollingLog(root, entries));
      } else {
        walk.walk(entries, 0);
      }
    }
    if (walk.logs.isEmpty()) {
      throw new InputNotFoundException("Event logs under " + Redactor.redactUri(root),
          (walk.skipped > 0 ? "it holds " + walk.skipped + " files, none of them an event log by its name" : "it holds no file")
              + " (event logs are named after the application: app-20240101000000-0001, application_..._0001.zstd, "
              + "local-..., or eventlog_v2_... directories); check spark.eventLog.dir");
    }
    walk.logs.sort(Comparator.comparing(FleetLog::uri));
    List<String> notes = new ArrayList<>();
    if (walk.deeper > 0) {
      notes.add(walk.deeper + " directories lie deeper than " + maxDepth + " levels below the root and were not searched");
    }
    return new Listing(root, walk.logs, walk.skipped, notes);
  }

  /** Whether a file of this name may be an event log (by its name alone). */
  static boolean mayBeEventLog(SourceEntry e) {
    String n = e.name();
    if (n.startsWith(".") || n.startsWith("_")) {
      return false;
    }
    if (e.size().isPresent() && e.size().getAsLong() == 0 && !n.endsWith(".inprogress")) {
      return false;
    }
    int dot = n.lastIndexOf('.');
    return dot < 0 || !NOT_EVENT_LOGS.contains(n.substring(dot + 1).toLowerCase(Locale.ROOT));
  }

  private static long sizeOf(ByteSource s) {
    try {
      return s.size().orElse(0);
    } catch (IOException e) {
      throw io.sparkrca.core.error.IoErrors.translate(s.name(), e);
    }
  }

  private static Optional<Instant> modified(ByteSource s) {
    try {
      // Milliseconds, as every store (and Hadoop's FileStatus) tells it, so that rows agree across them.
      return s.lastModified().map(t -> Instant.ofEpochMilli(t.toEpochMilli()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // the index then re-analyses the log every time, which is safe
    }
  }

  /** One listing pass; not thread-safe. */
  private static final class Walk {
    final ByteSources sources;
    final int maxDepth;
    final List<FleetLog> logs = new ArrayList<>();
    long skipped;
    long deeper;

    Walk(ByteSources sources, int maxDepth) {
      this.sources = sources;
      this.maxDepth = maxDepth;
    }

    void walk(List<SourceEntry> entries, int depth) {
      for (SourceEntry e : entries) {
        String name = stripSlash(e.name());
        if (e.directory()) {
          if (name.startsWith(".") || name.startsWith("_")) {
            continue;
          }
          List<SourceEntry> children;
          try {
            children = sources.list(e.uri());
          } catch (SparkRcaException x) {
            logs.add(FleetLog.failed(e.uri(), 0, Optional.empty(), "could not list the directory: " + x.getMessage()));
            continue;
          }
          if (EventLogRef.isRollingDirectory(name, children)) {
            logs.add(rollingLog(e.uri(), children));
          } else if (depth < maxDepth) {
            walk(children, depth + 1);
          } else {
            deeper++;
          }
        } else if (mayBeEventLog(e)) {
          ByteSource s = sources.open(e.uri());
          long size = e.size().isPresent() ? e.size().getAsLong() : sizeOf(s);
          logs.add(fileLog(e.uri(), s, size));
        } else {
          skipped++;
        }
      }
    }

    FleetLog fileLog(String uri, ByteSource file, long size) {
      EventLogRef ref = EventLogRef.ofFile(uri);
      return new FleetLog(uri, ref.name(), ref.files(), false, ref.inProgress(), size, modified(file), Optional.empty());
    }

    FleetLog rollingLog(String uri, List<SourceEntry> entries) {
      long size = 0;
      for (SourceEntry e : entries) {
        if (!e.directory()) {
          size += e.size().orElse(0);
        }
      }
      EventLogRef ref;
      try {
        ref = EventLogRef.ofRollingDirectory(uri, entries);
      } catch (SparkRcaException x) {
        return FleetLog.failed(uri, size, Optional.empty(), x.getMessage());
      }
      Optional<Instant> latest = Optional.empty();
      for (String f : ref.files()) {
        Optional<Instant> m = modified(sources.open(f));
        if (m.isEmpty()) {
          latest = Optional.empty();
          break;
        }
        latest = latest.isEmpty() || m.get().isAfter(latest.get()) ? m : latest;
      }
      return new FleetLog(uri, ref.name(), ref.files(), true, ref.inProgress(), size, latest, Optional.empty());
    }

    private static String stripSlash(String name) {
      return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }
  }
}
