package io.sparkrca.core.eventlog.replay;

import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.BinaryFormat;

/**
 * A file handed to event-log replay is recognisably something else, such as a JAR, a class file
 * or a Parquet file: it is refused after its first bytes instead of being read whole as text.
 *
 * <pre>{@code
 * try {
 *   EventLogs.replay(Path.of("app.jar"));
 * } catch (NotAnEventLogException e) {
 *   System.err.println(e.getMessage()); // "app.jar is a JAR (ZIP archive), not a Spark event log: ..."
 *   if (e.format().category() == BinaryFormat.Category.CODE) {
 *     // look inside it with ClassInspector instead
 *   }
 * }
 * }</pre>
 */
public class NotAnEventLogException extends UnsupportedInputException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final BinaryFormat format;

  /** @param source the file as its source names it */
  public NotAnEventLogException(String source, BinaryFormat format) {
    super(message(source, format));
    this.source = source;
    this.format = format;
  }

  /** The file, as its source names it. */
  public String source() {
    return source;
  }

  /** What the file is. */
  public BinaryFormat format() {
    return format;
  }

  private static String message(String source, BinaryFormat format) {
    String next = switch (format.category()) {
      case CODE -> "look inside code with ClassInspector, and point replay at the application's event log";
      case DATA -> "an event log describes the application's run, not the data it read or wrote; point replay"
          + " at the event log";
      case COMPRESSED -> "decompress it first (Spark writes event logs plain or as zstd, lz4, snappy or lzf)";
    };
    return source + " is " + format.description() + ", not a Spark event log (its first bytes say so; nothing"
        + " more was read): " + next + " (a file or eventlog_v2_* directory under spark.eventLog.dir)";
  }
}
