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
    Boolean inProgress = null;
    for (SourceEntry e : entries) {
      if (e.directory()) {
        continue;
      }
      if (e.name().startsWith("appstatus_")) {
        inProgress = e.name().endsWith(".inprogress");
      } else if (isEventsFile(e.name())) {
        events.add(e);
      }
    }
    if (events.isEmpty()) {
      throw new UnsupportedInputException(
          uri + " looks like a rolling event log directory but holds no events_<n>_... files; "
              + "the application may not have written any event yet");
    }
    events.sort(Comparator.comparingLong(e -> index(e.name())));
    int lastCompact = -1;
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).name().endsWith(".compact")) {
        lastCompact = i;
      }
    }
    List<String> files = new ArrayList<>();
    for (int i = Math.max(0, lastCompact); i < events.size(); i++) {
      files.add(events.get(i).uri());
    }
    String name = dirName.startsWith(ROLLING_PREFIX) ? dirName.substring(ROLLING_PREFIX.length()) : dirName;
    return new EventLogRef(uri, name, files, true, inProgress == null || inProgress);
  }

  private static long index(String eventsFileName) {
    int us = eventsFileName.indexOf('_', 7);
    return Long.parseLong(eventsFileName.substring(7, us));
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
