package io.sparkrca.core.logs.replay.internal;

import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.logs.replay.LogRecord;
import io.sparkrca.core.logs.replay.LogSection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One log being read: a file, or a section of one (a YARN container's {@code stderr}, one pod's
 * entries). It knows whose log it is (the reconstructor tells it as the content says), how its
 * lines are laid out, and the record being assembled: the one whose continuation lines its
 * handler asked for.
 *
 * <pre>{@code
 * Section s = new Section("yarn.log", "container_..._000002/stderr", 3);
 * s.role = LogRole.EXECUTOR;
 * }</pre>
 */
final class Section {
  final String log;
  final String name;
  /** Its position in the model's list of sections, for compact provenance. */
  final int index;
  final RecordHead head = new RecordHead();
  String wrapper = "";
  String layout = "";
  LogRole role = LogRole.UNKNOWN;
  /** How the role was told, for the notes. */
  String roleBy = "";
  String executorId;
  String host;
  /** The YARN container, or null. */
  String container;
  /** Whether the layout has no times, so headers start with the level. */
  boolean noTime;
  /** Whether a header with a time has been seen. */
  boolean timed;
  long firstLine;
  long lastLine;
  long records;
  long unattached;
  /** Lines that looked like JSON entries in a JSON layout but could not be read. */
  long unreadable;
  long firstTime = TimeParser.NO_TIME;
  long lastTime = TimeParser.NO_TIME;
  final List<String> notes = new ArrayList<>();
  /** The tasks this executor's log shows running (task id to stage key), for attributing spill. */
  final LongLongMap running = new LongLongMap();

  // The record being assembled, when its handler wants its continuation lines.
  boolean pending;
  Object pendingState;
  int pendingChannel;
  private final StringBuilder continuation = new StringBuilder();
  private boolean continuationCut;

  Section(String log, String name, int index) {
    this.log = log;
    this.name = name;
    this.index = index;
  }

  void line(long number) {
    if (firstLine == 0) {
      firstLine = number;
    }
    lastLine = number;
  }

  void time(long millis) {
    if (millis != TimeParser.NO_TIME) {
      if (firstTime == TimeParser.NO_TIME) {
        firstTime = millis;
      }
      lastTime = millis;
    }
  }

  void startPending(int channel) {
    pending = true;
    pendingChannel = channel;
    continuation.setLength(0);
    continuationCut = false;
  }

  /** Adds a continuation line, keeping at most {@link LogRecord#MAX_CONTINUATION_CHARS} characters. */
  void append(byte[] b, int from, int to) {
    if (continuationCut) {
      return;
    }
    int room = LogRecord.MAX_CONTINUATION_CHARS - continuation.length();
    if (room <= 0) {
      continuationCut = true;
      return;
    }
    if (continuation.length() > 0) {
      continuation.append('\n');
    }
    String line = new String(b, from, to - from, StandardCharsets.UTF_8);
    continuation.append(line, 0, Math.min(line.length(), Math.max(0, room - 1)));
  }

  void append(String text) {
    if (text.isEmpty()) {
      return;
    }
    int room = LogRecord.MAX_CONTINUATION_CHARS - continuation.length();
    if (continuation.length() > 0) {
      continuation.append('\n');
    }
    continuation.append(text, 0, Math.min(text.length(), Math.max(0, room)));
  }

  /** The continuation collected, ending the record (its {@link #pendingState} stays for the sink). */
  String endPending() {
    pending = false;
    // Spark's stage failure reasons end with a blank line before "Driver stacktrace:": keep the text as logged.
    String text = continuation.toString();
    continuation.setLength(0);
    return text;
  }

  /** Whether this is an executor's log (told by its content or name). */
  boolean isExecutor() {
    return role == LogRole.EXECUTOR;
  }

  LogSection describe() {
    List<String> all = new ArrayList<>(notes);
    if (!roleBy.isEmpty()) {
      all.add(0, "role told by " + roleBy);
    }
    if (unreadable > 0) {
      all.add(unreadable + " line" + (unreadable == 1 ? "" : "s") + " could not be read as JSON entries");
    }
    if (unattached > 0) {
      all.add(unattached + " line" + (unattached == 1 ? "" : "s") + " belonged to no record (no header before them)");
    }
    return new LogSection(log, name, wrapper + (layout.isEmpty() ? "no record recognised" : layout), role,
        Optional.ofNullable(executorId), Optional.ofNullable(host), lastLine == 0 ? 0 : lastLine - firstLine + 1,
        records, all);
  }
}
