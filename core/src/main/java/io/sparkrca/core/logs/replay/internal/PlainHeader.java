package io.sparkrca.core.logs.replay.internal;

import java.nio.charset.StandardCharsets;

/**
 * Recognises the header of a plain log line and fills a {@link RecordHead}: a time (or none, in a
 * log whose layout has none), an optional {@code [thread]}, the level, an optional {@code
 * [thread]}, the logger, and the message after {@code ": "}, {@code " - "}, {@code ":123 - "} or
 * {@code " (File.scala:method(12)) - "}. That covers log4j 1 and 2's default Spark patterns
 * ({@code %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m}), full logger names (Dataproc, EMR), ISO times with
 * milliseconds, Hadoop distributions' {@code %d{ISO8601} %p %c{2} (%F:%M(%L)) - %m} and thread
 * names in brackets. A line without a header continues the record before it, except the lines a
 * JVM or Python prints on their own ({@code Exception in thread "main" ...}, {@code Traceback
 * (most recent call last):}), which start a record of the emitter {@code stderr}.
 *
 * <pre>{@code
 * if (header.parse(buf, start, end, head, false)) startRecord(head);
 * }</pre>
 */
final class PlainHeader {
  static final String STDERR = "stderr";
  private static final byte[] EXCEPTION_IN_THREAD = Scan.lit("Exception in thread \"");
  private static final byte[] TRACEBACK = Scan.lit("Traceback (most recent call last):");

  private final TimeParser time;
  private final EmitterNames names = new EmitterNames();
  /** The time layout of the last header read, or null when it had none. */
  TimeParser.Kind timeKind;
  /** How the last header separated the logger from the message. */
  String separator = ": ";
  /** The thread of the header being read. */
  private String thread;

  PlainHeader(TimeParser time) {
    this.time = time;
  }

  /**
   * Reads a header at {@code b[from, to)} into {@code h}; false when the line has none.
   *
   * @param noTime whether the log's layout has no time, so a header may start with its level
   */
  boolean parse(byte[] b, int from, int to, RecordHead h, boolean noTime) {
    int p = from;
    if (p >= to) {
      return false;
    }
    long millis = TimeParser.NO_TIME;
    TimeParser.Kind kind = null;
    byte c = b[p];
    if (c >= '0' && c <= '9') {
      int q = time.parse(b, p, to);
      if (q < 0) {
        return false;
      }
      millis = time.millis();
      kind = time.kind();
      p = q;
    } else if (c == '[' && p + 1 < to && b[p + 1] >= '0' && b[p + 1] <= '9') {
      int q = time.parse(b, p + 1, to);
      if (q < 0 || q >= to || b[q] != ']') {
        return false;
      }
      millis = time.millis();
      kind = time.kind();
      p = q + 1;
    } else if (!noTime) {
      return synthetic(b, from, to, h);
    }
    if (kind != null) {
      int before = p;
      p = spaces(b, p, to);
      if (p == before) {
        return false;
      }
    }
    thread = null;
    p = thread(b, p, to);
    if (p < 0) {
      return false;
    }
    String level = Levels.at(b, p, to);
    if (level == null) {
      return kind == null && synthetic(b, from, to, h);
    }
    p = thread(b, spaces(b, p + levelLength(b, p, to), to), to);
    if (p < 0) {
      return false;
    }
    int loggerStart = p;
    while (p < to && b[p] != ' ' && b[p] != ':' && b[p] != '\t') {
      p++;
    }
    if (p == loggerStart || p >= to) {
      return false;
    }
    int loggerEnd = p;
    int msg = message(b, p, to);
    if (msg < 0) {
      return false;
    }
    h.time = millis;
    h.level = level;
    h.emitter = names.simpleName(b, loggerStart, loggerEnd);
    h.thread = thread;
    h.buf = b;
    h.msgStart = msg;
    h.msgEnd = to;
    h.context = null;
    timeKind = kind;
    return true;
  }

  /** The thread a header names in brackets at {@code p}, if it does ({@link #thread}); where the header goes on, or -1. */
  private int thread(byte[] b, int p, int to) {
    if (p >= to || b[p] != '[') {
      return p;
    }
    int close = indexOf(b, p, to, (byte) ']');
    if (close < 0) {
      return -1;
    }
    thread = new String(b, p + 1, close - p - 1, StandardCharsets.UTF_8);
    return spaces(b, close + 1, to);
  }

  /** Where the message starts after the logger ending at {@code p}, or -1 when no separator follows. */
  private int message(byte[] b, int p, int to) {
    if (b[p] == ':') {
      int r = p + 1;
      if (r >= to) {
        separator = ": ";
        return to;
      }
      if (b[r] == ' ') {
        separator = ": ";
        return r + 1;
      }
      int digits = r;
      while (digits < to && b[digits] >= '0' && b[digits] <= '9') {
        digits++;
      }
      if (digits > r && digits + 2 < to && b[digits] == ' ' && b[digits + 1] == '-' && b[digits + 2] == ' ') {
        separator = ":line - ";
        return digits + 3;
      }
      return -1;
    }
    int r = spaces(b, p, to);
    if (r + 1 < to && b[r] == '-' && b[r + 1] == ' ') {
      separator = " - ";
      return r + 2;
    }
    if (r < to && b[r] == '(') {
      int close = indexOf(b, r, to, (byte) ')');
      // "(Logging.scala:logInfo(54)) - ": the source location may nest one pair of parentheses
      while (close > 0 && close + 1 < to && b[close + 1] == ')') {
        close++;
      }
      if (close > 0 && close + 3 < to && b[close + 1] == ' ' && b[close + 2] == '-' && b[close + 3] == ' ') {
        separator = " (source) - ";
        return close + 4;
      }
    }
    return -1;
  }

  /** A record a JVM or Python starts without a header; false for any other line. */
  private boolean synthetic(byte[] b, int from, int to, RecordHead h) {
    if (!startsWith(b, from, to, EXCEPTION_IN_THREAD) && !startsWith(b, from, to, TRACEBACK)) {
      return false;
    }
    h.time = TimeParser.NO_TIME;
    h.level = Levels.ERROR;
    h.emitter = STDERR;
    h.thread = null;
    h.buf = b;
    h.msgStart = from;
    h.msgEnd = to;
    h.context = null;
    return true;
  }

  private static int levelLength(byte[] b, int p, int to) {
    int q = p;
    while (q < to && b[q] >= 'A' && b[q] <= 'Z') {
      q++;
    }
    return q - p;
  }

  static boolean startsWith(byte[] b, int from, int to, byte[] lit) {
    if (to - from < lit.length) {
      return false;
    }
    for (int i = 0; i < lit.length; i++) {
      if (b[from + i] != lit[i]) {
        return false;
      }
    }
    return true;
  }

  private static int spaces(byte[] b, int p, int to) {
    while (p < to && (b[p] == ' ' || b[p] == '\t')) {
      p++;
    }
    return p;
  }

  private static int indexOf(byte[] b, int from, int to, byte c) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }
}
