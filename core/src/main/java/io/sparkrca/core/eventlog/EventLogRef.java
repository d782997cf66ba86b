package io.sparkrca.core.eventlog;

import io.sparkrca.core.io.SourceEntry;
import java.util.List;

/**
 * One located event log: a single file, or the files of a rolling log directory, in the order to
 * read them.
 *
 * <pre>{@code
 * for (EventLogRef log : EventLogs.reader().build().find("/tmp/spark-events")) {
 *   System.out.println(log.name() + (log.inProgress() ? " (running)" : ""));
 * }
 * }</pre>
 *
 * @param uri where the log is (the file, or the rolling directory)
 * @param name the log's name: file name without codec and {@code .inprogress}, or the directory
 *     name without {@code eventlog_v2_}
 * @param files the files to read, in order (after the last compacted file, for rolling logs)
 * @param rolling whether this is Spark's rolling layout ({@code eventlog_v2_...})
 * @param inProgress whether the application was still running when the log was copied
 * @param gaps what locating the log found missing or had to skip, one sentence each naming the
 *     file (a rolling log's missing part, a part whose number cannot be read, two files with the
 *     same part number); a replay states them with what it read
 */
public record EventLogRef(
    String uri, String name, List<String> files, boolean rolling, boolean inProgress, List<String> gaps) {
  public EventLogRef {
    files = List.copyOf(files);
    gaps = List.copyOf(gaps);
  }

  /** A log with nothing missing or skipped. */
  public EventLogRef(String uri, String name, List<String> files, boolean rolling, boolean inProgress) {
    this(uri, name, files, rolling, inProgress, List.of());
  }

  /**
   * The log that is the single file at {@code uri} (its name and in-progress state read from the
   * file name; nothing is opened).
   */
  public static EventLogRef ofFile(String uri) {
    java.util.Objects.requireNonNull(uri, "uri");
    return EventLogLocator.single(uri, EventLogLocator.lastSegment(uri));
  }

  /**
   * The rolling log that is the directory at {@code uri}, whose listing is {@code entries}: its
   * {@code events_<n>_...} files in order, from the last compacted one.
   *
   * @throws io.sparkrca.core.error.UnsupportedInputException when the directory holds no events file
   */
  public static EventLogRef ofRollingDirectory(String uri, List<SourceEntry> entries) {
    java.util.Objects.requireNonNull(uri, "uri");
    return EventLogLocator.rolling(uri, EventLogLocator.lastSegment(uri), entries);
  }

  /**
   * Whether a directory named {@code dirName} with these entries is a rolling event log ({@code
   * eventlog_v2_...}, or holding {@code appstatus_...} or {@code events_<n>_...} files) rather than
   * a directory of logs.
   */
  public static boolean isRollingDirectory(String dirName, List<SourceEntry> entries) {
    return EventLogLocator.isRollingDir(dirName, entries);
  }
}
