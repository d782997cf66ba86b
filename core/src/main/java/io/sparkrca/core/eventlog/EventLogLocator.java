package io.sparkrca.core.eventlog;

import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.SourceEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds event logs at a location: a single file; a rolling log directory ({@code
 * eventlog_v2_<app>[_<attempt>]/events_<n>_...} plus {@code appstatus_...}); or a directory of
 * many logs (Spark's {@code spark.eventLog.dir}).
 */
final class EventLogLocator {
  private static final String ROLLING_PREFIX = "eventlog_v2_";
  private final ByteSources sources;

  EventLogLocator(ByteSources sources) {
    this.sources = sources;
  }

  List<EventLogRef> find(String uri) throws IOException {
    if (!sources.isDirectory(uri)) {
      sources.open(uri).size(); // fails with a clear message when it does not exist
      return List.of(single(uri, lastSegment(uri)));
    }
    List<SourceEntry> entries = sources.list(uri);
    if (isRollingDir(lastSegment(uri), entries)) {
      return List.of(rolling(uri, lastSegment(uri), entries));
    }
    List<EventLogRef> logs = new ArrayList<>();
    for (SourceEntry e : entries) {
      if (e.directory()) {
        List<SourceEntry> children = sources.list(e.uri());
        if (isRollingDir(e.name(), children)) {
          logs.add(rolling(e.uri(), e.name(), children));
        }
      } else if (looksLikeLog(e)) {
        logs.add(single(e.uri(), e.name()));
      }
    }
    if (logs.isEmpty()) {
      throw new InputNotFoundException(
          "Event logs in " + uri,
          "the directory holds no event log files (expected files such as app-20240101-0001, "
              + "application_..._0001.zstd or eventlog_v2_... directories); check spark.eventLog.dir");
    }
    return logs;
  }

  private static boolean looksLikeLog(SourceEntry e) {
    String n = e.name();
    if (n.startsWith(".") || n.startsWith("_") || n.endsWith(".crc")) {
      return false;
    }
    return !(e.size().isPresent() && e.size().getAsLong() == 0 && !n.endsWith(".inprogress"));
  }

  static boolean isRollingDir(String name, List<SourceEntry> entries) {
    if (name.startsWith(ROLLING_PREFIX)) {
      return true;
    }
    for (SourceEntry e : entries) {
      if (!e.directory() && (e.name().startsWith("appstatus_") || isEventsFile(e.name()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isEventsFile(String name) {
    if (!name.startsWith("events_")) {
      return false;
    }
    int us = name.indexOf('_', 7);
    return us > 7 && name.substring(7, us).chars().allMatch(Character::isDigit);
  }

  static EventLogRef single(String uri, String fileName) {
    boolean inProgress = fileName.endsWith(".inprogress");
    return new EventLogRef(uri, baseName(fileName), List.of(uri), false, inProgress);
  }

  static EventLogRef rolling(String uri, String dirName, List<SourceEntry> entries) {
    List<SourceEntry> events = new ArrayList<>();
    List<String> gaps = new ArrayList<>();
    Boolean inProgress = null;
    for (SourceEntry e : entries) {
      if (e.directory()) {
        continue;
      }
      if (e.name().startsWith("appstatus_")) {
        inProgress = e.name().endsWith(".inprogress");
      } else if (isEventsFile(e.name())) {
        if (index(e.name()) < 0) {
          gaps.add(e.name() + " was skipped: its part number " + e.name().substring(7, e.name().indexOf('_', 7))
              + " is too large to be one Spark writes (the file was renamed or damaged)");
        } else {
          events.add(e);
        }
      }
    }
    if (events.isEmpty()) {
      throw new UnsupportedInputException(
          uri + " looks like a rolling event log directory but holds no events_<n>_... files"
              + (gaps.isEmpty() ? "" : " that can be read (" + String.join("; ", gaps) + ")")
              + "; the application may not have written any event yet");
    }
    // As Spark orders them: by part number, a compacted file after a plain one of the same number.
    events.sort(Comparator.comparingLong((SourceEntry e) -> index(e.name()))
        .thenComparing(e -> e.name().endsWith(".compact"))
        .thenComparing(SourceEntry::name));
    int lastCompact = -1;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).name().endsWith(".compact")) {
        lastCompact = i;
      }
    }
    List<SourceEntry> read = new ArrayList<>();
    for (int i = Math.max(0, lastCompact); i < events.size(); i++) {
      SourceEntry e = events.get(i);
      SourceEntry previous = read.isEmpty() ? null : read.get(read.size() - 1);
      if (previous != null && index(previous.name()) == index(e.name())) {
        // Two files claim the same part: read one (the larger), never both, which would count
        // every event in that part twice.
        boolean keepNew = e.size().orElse(0) > previous.size().orElse(0);
        SourceEntry kept = keepNew ? e : previous;
        SourceEntry dropped = keepNew ? previous : e;
        gaps.add(dropped.name() + " was skipped: it has the same part number " + index(e.name()) + " as "
            + kept.name() + ", which was read instead (one of them is a stray copy; check which holds the part)");
        if (keepNew) {
          read.set(read.size() - 1, e);
        }
        continue;
      }
      read.add(e);
    }
    long first = index(read.get(0).name());
    if (lastCompact < 0 && first > 1) {
      gaps.add("part" + (first > 2 ? "s 1 to " + (first - 1) : " 1") + " of the log " + (first > 2 ? "are" : "is")
          + " missing (the first file is " + read.get(0).name() + "): the start of the application is not in the log");
    }
    for (int i = 1; i < read.size(); i++) {
      long before = index(read.get(i - 1).name());
      long after = index(read.get(i).name());
      if (after > before + 1) {
        gaps.add("part" + (after - before > 2 ? "s " + (before + 1) + " to " + (after - 1) : " " + (before + 1))
            + " of the log " + (after - before > 2 ? "are" : "is") + " missing (between "
            + read.get(i - 1).name() + " and " + read.get(i).name() + "): what the application did then is unknown");
      }
    }
    List<String> files = new ArrayList<>();
    for (SourceEntry e : read) {
      files.add(e.uri());
    }
    String name = dirName.startsWith(ROLLING_PREFIX) ? dirName.substring(ROLLING_PREFIX.length()) : dirName;
    return new EventLogRef(uri, name, files, true, inProgress == null || inProgress, gaps);
  }

  /** The part number of an {@code events_<n>_...} file, or -1 when it is too large for a long. */
  private static long index(String eventsFileName) {
    int us = eventsFileName.indexOf('_', 7);
    String digits = eventsFileName.substring(7, us);
    if (digits.length() > 18) {
      String trimmed = digits.replaceFirst("^0+(?=.)", "");
      if (trimmed.length() > 18) {
        return -1;
      }
      digits = trimmed;
    }
    return Long.parseLong(digits);
  }

  static String baseName(String fileName) {
    String n = fileName;
    if (n.endsWith(".inprogress")) {
      n = n.substring(0, n.length() - ".inprogress".length());
    }
    for (String ext : new String[] {".lz4", ".lzf", ".snappy", ".zstd", ".zst", ".gz"}) {
      if (n.endsWith(ext)) {
        return n.substring(0, n.length() - ext.length());
      }
    }
    return n;
  }

  static String lastSegment(String uri) {
    String n = uri;
    while (n.endsWith("/") && n.length() > 1) {
      n = n.substring(0, n.length() - 1);
    }
    int slash = Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\'));
    return slash >= 0 ? n.substring(slash + 1) : n;
  }
}
