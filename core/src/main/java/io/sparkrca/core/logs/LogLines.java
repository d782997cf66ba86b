package io.sparkrca.core.logs;

import io.sparkrca.core.io.Compression;
import java.util.List;
import java.util.Objects;

/**
 * Lines returned by {@link LogStream#head}, {@link LogStream#tail} and {@link LogStream#range}.
 *
 * <pre>{@code
 * LogLines last = LogStream.open("gs://bucket/driver.log").tail(50);
 * last.lines().forEach(l -> System.out.println(l.display()));
 * last.notes().forEach(n -> System.err.println("Note: " + n));
 * }</pre>
 *
 * @param source the source's name (a path, or a URL without credentials)
 * @param compression the codec the content was decoded with
 * @param lines the lines, in file order
 * @param notes what the reader observed: a codec that disagreed with the name, a stream that
 *     ended early, a tail read from a window, a range past the end of the file
 */
public record LogLines(String source, Compression compression, List<LogLine> lines, List<String> notes) {
  public LogLines {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(compression, "compression");
    lines = List.copyOf(lines);
    notes = List.copyOf(notes);
  }
}
