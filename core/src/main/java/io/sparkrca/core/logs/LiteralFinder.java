package io.sparkrca.core.logs;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.LineReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffer-level prefilter of {@link LogStream}'s searches, for other line readers: finds the
 * earliest occurrence of any of a set of literals, so that {@link LineReader#skipUntil} passes over
 * whole buffers of lines that hold none of them at memory speed (Wu-Manber over many literals of
 * four bytes or more, packed byte-pair tests over a few short ones; rare bytes are chosen from a
 * sample of the text).
 *
 * <pre>{@code
 * LineReader.Candidates c = LiteralFinder.anyOf(List.of("DAGScheduler", "TaskSetManager"), sample);
 * while (true) {
 *   lines.skipUntil(c, 0, null);
 *   if (!lines.next()) break;
 *   handle(lines);
 * }
 * }</pre>
 */
public final class LiteralFinder {
  private LiteralFinder() {}

  /**
   * A finder of the earliest position of any of {@code literals} (case-sensitive).
   *
   * @param sample the first bytes of the text to be searched (may be empty)
   */
  public static LineReader.Candidates anyOf(List<String> literals, byte[] sample) {
    if (literals.isEmpty() || literals.stream().anyMatch(String::isEmpty)) {
      throw new InvalidRequestException("a literal prefilter needs at least one literal and no empty one, got " + literals);
    }
    List<byte[]> bytes = new ArrayList<>();
    for (String l : literals) {
      bytes.add(l.getBytes(StandardCharsets.UTF_8));
    }
    if (WuManber.suits(bytes)) {
      return new WuManber(bytes, false, sample);
    }
    int[] frequency = ByteFinder.frequencies(sample);
    ByteFinder[] finders = new ByteFinder[bytes.size()];
    for (int i = 0; i < finders.length; i++) {
      finders[i] = new ByteFinder(bytes.get(i), false, frequency);
    }
    return LineMatcher.anyOf(finders);
  }
}
