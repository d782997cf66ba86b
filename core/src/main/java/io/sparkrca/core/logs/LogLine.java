package io.sparkrca.core.logs;

import java.util.Objects;

/**
 * One line of a log, as returned by {@link LogStream}: its text (without the line terminator,
 * trailing whitespace kept, secrets redacted unless redaction was turned off), where it is, and
 * whether it was cut at the line cap.
 *
 * <pre>{@code
 * for (LogLine line : LogStream.open("driver.log").tail(20).lines()) {
 *   System.out.println(line.number() + ": " + line.display());
 * }
 * }</pre>
 *
 * @param number the 1-based line number, or 0 when unknown (a tail read from a byte window at the
 *     end of an uncompressed file, where counting would mean reading the whole file)
 * @param byteOffset the offset of the line's first byte in the decompressed content
 * @param text the line's text; the first {@code maxLineBytes} bytes when it was cut
 * @param truncated whether the line was longer than the cap and was cut
 * @param fullLength the line's real length in bytes, terminator excluded
 */
public record LogLine(long number, long byteOffset, String text, boolean truncated, long fullLength) {
  public LogLine {
    Objects.requireNonNull(text, "text");
    if (number < 0 || byteOffset < 0 || fullLength < 0) {
      throw new io.sparkrca.core.error.InvalidRequestException(
          "LogLine: number, byteOffset and fullLength must be 0 or more, were " + number + ", "
              + byteOffset + " and " + fullLength);
    }
  }

  /** Whether {@link #number()} is known. */
  public boolean numbered() {
    return number > 0;
  }

  /** The text, followed by a marker such as {@code [... line cut; it has 5242880 bytes]} when cut. */
  public String display() {
    return truncated ? text + " [... line cut; it has " + fullLength + " bytes]" : text;
  }
}
