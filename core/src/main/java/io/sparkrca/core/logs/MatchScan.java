package io.sparkrca.core.logs;

import java.util.List;
import java.util.Objects;

/**
 * How a {@link LogStream#forEachMatch} scan went.
 *
 * <pre>{@code
 * MatchScan s = log.forEachMatch(query, m -> true);
 * System.out.println(s.matches() + " matches in " + s.linesScanned() + " lines");
 * }</pre>
 *
 * @param source the source's name
 * @param linesScanned how many lines were read (all of them unless the visitor stopped the scan)
 * @param matches how many matches were handed to the visitor
 * @param stoppedEarly whether the visitor stopped the scan before the end of the log
 * @param notes observations made while reading (a cut-off stream, a resolved driver output)
 */
public record MatchScan(String source, long linesScanned, long matches, boolean stoppedEarly, List<String> notes) {
  public MatchScan {
    Objects.requireNonNull(source, "source");
    notes = List.copyOf(notes);
  }
}
