package io.sparkrca.fleet;

import io.sparkrca.core.error.SparkRcaException;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a scan has analysed, kept in a file so that the next scan analyses only new and changed
 * logs, and a scan that was stopped resumes where it stopped. The file is JSON Lines of {@link
 * FleetRow}s (the same lines {@code sparkrca scan} writes); a row is reused while its log keeps the
 * same path, size and modification time (and in-progress state), and the last line for a path
 * wins. Rows are appended as each log is analysed (and flushed), and {@link #compact} rewrites
 * the file with exactly the rows of the last complete scan's logs. A cut or unreadable line (a scan killed
 * mid-write) is skipped and counted.
 *
 * <pre>{@code
 * try (FleetIndex index = FleetIndex.open(Path.of("fleet-index.jsonl"))) {
 *   Optional<FleetRow> done = index.current(log);
 * }
 * }</pre>
 *
 * <p>Thread-safe. Memory: each indexed row is held as its JSON line (about 0.5 to 1 KB).
 */
public final class FleetIndex implements AutoCloseable {
  private final Path file;
  private final Map<String, Entry> entries = new HashMap<>();
  private final long badLines;
  private BufferedWriter appender;

  private record Entry(long size, Optional<java.time.Instant> modified, boolean inProgress, String json) {}

  private FleetIndex(Path file, long badLines) {
    this.file = file;
    this.badLines = badLines;
  }

  /**
   * Opens the index at {@code file}, reading what it holds; a missing file is an empty index.
   *
   * @throws SparkRcaException when the file cannot be read
   */
  public static FleetIndex open(Path file) {
    Objects.requireNonNull(file, "file");
    Map<String, Entry> read = new HashMap<>();
    long bad = 0;
    if (Files.exists(file)) {
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String line;
        while ((line = in.readLine()) != null) {
          if (line.isBlank()) {
            continue;
          }
          try {
            FleetRow r = FleetRow.fromJson(line);
            read.put(r.path(), new Entry(r.sizeBytes(), r.modifiedTime(), r.inProgress(), line));
          } catch (SparkRcaException e) {
            bad++;
          }
        }
      } catch (IOException | java.io.UncheckedIOException e) {
        throw new SparkRcaException("could not read the scan index " + file + ": " + e.getMessage()
            + "; delete it to analyse every log again", e);
      }
    }
    FleetIndex index = new FleetIndex(file, bad);
    index.entries.putAll(read);
    return index;
  }

  /** The file. */
  public Path file() {
    return file;
  }

  /** How many rows it holds. */
  public synchronized int size() {
    return entries.size();
  }

  /** Lines that were skipped because they were not rows (cut by a killed scan, or edited). */
  public long badLines() {
    return badLines;
  }

  /** The row stored for {@code log}, when it still describes it (same path, size, time and state). */
  public synchronized Optional<FleetRow> current(FleetLog log) {
    Entry e = entries.get(io.sparkrca.core.redaction.Redactor.redactUri(log.uri()));
    if (e == null || e.size() != log.sizeBytes() || e.inProgress() != log.inProgress() || e.modified().isEmpty()
        || !e.modified().equals(log.modifiedTime())) {
      return Optional.empty();
    }
    return Optional.of(FleetRow.fromJson(e.json()));
  }

  /**
   * Appends {@code row} to the file at once (flushed), so that it survives the scan being stopped.
   *
   * @throws SparkRcaException when the file cannot be written
   */
  public synchronized void record(FleetRow row) {
    String json = row.toJson();
    entries.put(row.path(), new Entry(row.sizeBytes(), row.modifiedTime(), row.inProgress(), json));
    try {
      if (appender == null) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
          Files.createDirectories(dir);
        }
        appender = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
      appender.write(json);
      appender.write('\n');
      appender.flush();
    } catch (IOException e) {
      throw new SparkRcaException("could not write the scan index " + file + ": " + e.getMessage()
          + "; check that its directory is writable", e);
    }
  }

  /**
   * Rewrites the file, atomically, with the rows of {@code paths} only, in that order (the logs of
   * a complete scan, so that logs that disappeared leave the index too, and each path has one line).
   *
   * @throws SparkRcaException when the file cannot be written
   */
  public synchronized void compact(List<String> paths) {
    closeAppender();
    Path abs = file.toAbsolutePath();
    Map<String, Entry> kept = new HashMap<>();
    try {
      Path dir = abs.getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".sparkrca-index-", ".tmp");
      try {
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
          for (String p : paths) {
            Entry e = entries.get(p);
            if (e != null && kept.put(p, e) == null) {
              w.write(e.json());
              w.write('\n');
            }
          }
        }
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new SparkRcaException("could not rewrite the scan index " + file + ": " + e.getMessage(), e);
    }
    entries.clear();
    entries.putAll(kept);
  }

  private void closeAppender() {
    if (appender != null) {
      try {
        appender.close();
      } catch (IOException e) {
        throw new SparkRcaException("could not write the scan index " + file + ": " + e.getMessage(), e);
      } finally {
        appender = null;
      }
    }
  }

  @Override
  public synchronized void close() {
    closeAppender();
  }
}
