package io.sparkrca.core.eventlog;

import java.util.List;

/**
 * One located event log: a single file, or the files of a rolling log directory, in the order to
 * read them.
 *
 * <pre>{@code
 * for (EventLogRef log : EventLogs.reader().find("/tmp/spark-events")) {
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
 */
public record EventLogRef(
    String uri, String name, List<String> files, boolean rolling, boolean inProgress) {
  public EventLogRef {
    files = List.copyOf(files);
  }
}
