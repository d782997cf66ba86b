package io.sparkrca.inspector;

import java.util.List;
import java.util.regex.Pattern;

/** Tells logs, binaries and text apart, by name and by the first bytes. */
final class TextKinds {
  /** Text logs: log4j files, container stdout/stderr, Dataproc driver output. */
  private static final Pattern TEXT_LOG_NAME = Pattern.compile(
      "(?i)(.*\\.log(\\.\\d+)?(\\.(gz|zst|zstd|lz4|snappy|bz2|lzf))?|stderr(\\.gz)?"
          + "|stdout(\\.gz)?|driveroutput(\\.\\d+)?)");
  /** Spark event logs: named after the application id, or the rolling layout's files. */
  private static final Pattern EVENT_LOG_NAME = Pattern.compile(
      "(?i)(.*\\.inprogress|events_\\d+_.*|eventlog.*|appstatus_.*"
          + "|app-\\d{14}-\\d{4}.*|application_\\d+_\\d+.*|local-\\d{13}.*|spark-events.*)");
  private static final Pattern LOG_LINE = Pattern.compile(
      "^\\s*\\[?(\\d{2,4}[-/]\\d{2}[-/]\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}|\\d{2}:\\d{2}:\\d{2}[.,]\\d{3}"
          + "|[A-Z][a-z]{2} \\d{1,2}, \\d{4}).*\\b(INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL)\\b.*");
  private static final Pattern EVENT_LOG = Pattern.compile("^\\s*\\{\\s*\"Event\"\\s*:\\s*\"(SparkListener|org\\.apache\\.spark).*");

  private TextKinds() {}

  static boolean isLogName(String fileName) {
    return TEXT_LOG_NAME.matcher(fileName).matches() || EVENT_LOG_NAME.matcher(fileName).matches();
  }

  /** The kind of log a file name says, for a name {@link #isLogName} accepts. */
  static NotCodeException.Kind logKindOfName(String fileName) {
    return TEXT_LOG_NAME.matcher(fileName).matches() ? NotCodeException.Kind.LOG : NotCodeException.Kind.EVENT_LOG;
  }

  /** The kind of log the first lines are, for lines {@link #looksLikeLog} accepts. */
  static NotCodeException.Kind logKindOfLines(List<String> firstLines) {
    for (String l : firstLines) {
      if (!l.isBlank()) {
        return EVENT_LOG.matcher(l).matches() ? NotCodeException.Kind.EVENT_LOG : NotCodeException.Kind.LOG;
      }
    }
    return NotCodeException.Kind.LOG;
  }

  /** Whether most of the first lines look like log4j/logback lines or Spark listener events. */
  static boolean looksLikeLog(List<String> firstLines) {
    int lines = 0;
    int logLines = 0;
    for (String l : firstLines) {
      if (l.isBlank()) {
        continue;
      }
      lines++;
      if (EVENT_LOG.matcher(l).matches()) {
        return true;
      }
      if (LOG_LINE.matcher(l).matches()) {
        logLines++;
      }
      if (lines >= 20) {
        break;
      }
    }
    return lines >= 3 && logLines * 2 >= lines;
  }

  /** Whether the bytes are binary: a NUL, or more than 5% control characters. */
  static boolean isBinary(byte[] head, int len) {
    int control = 0;
    int n = Math.min(len, 8192);
    for (int i = 0; i < n; i++) {
      int c = head[i] & 0xFF;
      if (c == 0) {
        return true;
      }
      if (c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b)) {
        control++;
      }
    }
    return n > 0 && control * 20 > n;
  }

  static boolean isArchiveName(String fileName) {
    String n = fileName.toLowerCase(java.util.Locale.ROOT);
    return n.endsWith(".jar") || n.endsWith(".zip") || n.endsWith(".war") || n.endsWith(".ear")
        || n.endsWith(".whl") || n.endsWith(".egg") || n.endsWith(".nar") || n.endsWith(".aar")
        || n.endsWith(".par");
  }
}
