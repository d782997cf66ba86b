package io.sparkrca.inspector;

import io.sparkrca.core.error.UnsupportedInputException;

/**
 * The input is a log, not code: a driver or executor log, or a Spark event log. The inspector
 * shows only the first lines of a file, so it refuses logs and says how to read them; a caller
 * with its own commands can offer those instead, from {@link #kind()} and {@link #input()}.
 *
 * <pre>{@code
 * try {
 *   inspector.inspect("driver.log");
 * } catch (NotCodeException e) {
 *   if (e.kind() == NotCodeException.Kind.EVENT_LOG) {
 *     EventLogs.replay(Path.of(e.input()));
 *   }
 * }
 * }</pre>
 */
public class NotCodeException extends UnsupportedInputException {
  private static final long serialVersionUID = 1L;

  /** What kind of log the input is. */
  public enum Kind {
    /** A driver, executor or other text log. */
    LOG,
    /** A Spark event log (JSON listener events). */
    EVENT_LOG
  }

  private final Kind kind;
  private final String input;
  private final boolean archiveEntry;

  /**
   * @param input the input as the caller named it (an entry of an archive is {@code app.jar!/x})
   * @param archiveEntry whether the log is an entry inside an archive rather than a file
   */
  public NotCodeException(String input, Kind kind, boolean archiveEntry) {
    super(message(input, kind, archiveEntry));
    this.input = input;
    this.kind = kind;
    this.archiveEntry = archiveEntry;
  }

  public Kind kind() {
    return kind;
  }

  /** The input as the caller named it. */
  public String input() {
    return input;
  }

  /** Whether the log is an entry inside an archive, which log readers cannot open directly. */
  public boolean archiveEntry() {
    return archiveEntry;
  }

  private static String message(String input, Kind kind, boolean archiveEntry) {
    String what = kind == Kind.EVENT_LOG ? "a Spark event log" : "a log";
    String how = kind == Kind.EVENT_LOG
        ? "replay it (EventLogs.replay) to summarize the application or evaluate rules on it"
        : "read it as a log (LogStream reads, tails and searches all of it, in any codec)";
    return input + " looks like " + what + ", not code: "
        + (archiveEntry ? "extract it from the archive, then " : "") + how
        + "; the inspector shows code, and only the first lines of a file";
  }
}
