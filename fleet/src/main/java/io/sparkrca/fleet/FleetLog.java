package io.sparkrca.fleet;

import io.sparkrca.fleet.internal.FleetJson;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One application's event log found under a fleet's root: where it is, the files to read, and the
 * identity that the incremental index compares (size and modification time; a log that grows or
 * is rewritten is analysed again).
 *
 * <pre>{@code
 * for (FleetLog log : FleetLogs.discover(ByteSources.defaults(), "/tmp/spark-events").logs()) {
 *   System.out.println(log.uri() + " " + log.sizeBytes() + (log.inProgress() ? " (running)" : ""));
 * }
 * }</pre>
 *
 * @param uri the log: a file, or a rolling {@code eventlog_v2_...} directory
 * @param name the log's name (file name without codec and {@code .inprogress}, or the directory's
 *     without {@code eventlog_v2_})
 * @param files the files to read, in order
 * @param rolling whether it is a rolling log directory
 * @param inProgress whether the application was still running (an {@code .inprogress} file or
 *     {@code appstatus_...inprogress})
 * @param sizeBytes the files' total size
 * @param modifiedTime the latest modification time of its files, when the store tells
 * @param error why the log could not be located (a rolling directory with no events file), making
 *     its row an error row
 */
public record FleetLog(
    String uri,
    String name,
    List<String> files,
    boolean rolling,
    boolean inProgress,
    long sizeBytes,
    Optional<Instant> modifiedTime,
    Optional<String> error) {
  public FleetLog {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name");
    files = List.copyOf(files);
    Objects.requireNonNull(modifiedTime, "modifiedTime");
    Objects.requireNonNull(error, "error");
  }

  /** A log that could not be located, for an error row. */
  public static FleetLog failed(String uri, long sizeBytes, Optional<Instant> modifiedTime, String error) {
    return new FleetLog(uri, FleetJson.lastSegment(uri), List.of(), false, false, sizeBytes, modifiedTime,
        Optional.of(error));
  }

  /** This log as one line of JSON (to hand it to another process, such as a Spark executor). */
  public String toJson() {
    return FleetJson.writeLog(this);
  }

  /**
   * The log written by {@link #toJson()}.
   *
   * @throws io.sparkrca.core.error.CorruptInputException when {@code json} is not such a line
   */
  public static FleetLog fromJson(String json) {
    return FleetJson.readLog(json);
  }
}
