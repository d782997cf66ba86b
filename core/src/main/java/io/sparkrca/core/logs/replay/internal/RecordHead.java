package io.sparkrca.core.logs.replay.internal;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The first line of a record, as its header was read: reused from record to record, so that the
 * message stays a window into the line's bytes until a handler wants part of it as text.
 *
 * <pre>{@code
 * if (head.emitter.equals("DAGScheduler")) scan.set(head.buf, head.msgStart, head.msgEnd);
 * }</pre>
 */
final class RecordHead {
  /** Epoch milliseconds, or {@link TimeParser#NO_TIME}. */
  long time = TimeParser.NO_TIME;
  /** TRACE, DEBUG, INFO, WARN, ERROR or FATAL. */
  String level = "INFO";
  /** The logger's simple name, or {@code stderr}. */
  String emitter = "";
  /** The thread the header names, or null. */
  String thread;
  byte[] buf;
  int msgStart;
  int msgEnd;
  /** The 1-based line of the file it starts on. */
  long line;
  /** The structured log's {@code context} (Spark 4's MDC), or null. */
  Map<String, String> context;

  String message() {
    return new String(buf, msgStart, msgEnd - msgStart, StandardCharsets.UTF_8);
  }

  boolean isError() {
    return level == Levels.ERROR || level == Levels.FATAL;
  }
}
