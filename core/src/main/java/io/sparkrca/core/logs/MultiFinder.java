package io.sparkrca.core.logs;

import io.sparkrca.core.io.LineReader;

/**
 * The earliest occurrence of any of a few literals, in one pass: for each group of eight start
 * positions, every literal's {@link ByteFinder#candidates packed-pair test} runs, and flagged
 * starts are verified. Used as the buffer-level prefilter of an alternation such as {@code
 * OutOfMemoryError|FetchFailed}.
 */
final class MultiFinder implements LineReader.Candidates {
  private final ByteFinder[] finders;
  private final int maxLength;
  private final int minLength;

  MultiFinder(ByteFinder[] finders) {
    this.finders = finders.clone();
    int max = 0;
    int min = Integer.MAX_VALUE;
    for (ByteFinder f : finders) {
      max = Math.max(max, f.length());
      min = Math.min(min, f.length());
    }
    this.maxLength = max;
    this.minLength = min;
  }

  @Override
  public int indexOf(byte[] b, int from, int to) {
    int s = from;
    for (int end = to - maxLength - 7; s <= end; s += 8) {
      int best = -1;
      for (ByteFinder f : finders) {
        long m = f.candidates(b, s);
        while (m != 0) {
          int start = s + (Long.numberOfTrailingZeros(m) >>> 3);
          if (best >= 0 && start >= best) {
            break;
          }
          if (f.matchesAt(b, start)) {
            best = start;
            break;
          }
          m &= m - 1;
        }
      }
      if (best >= 0) {
        return best;
      }
    }
    for (; s <= to - minLength; s++) {
      for (ByteFinder f : finders) {
        if (s <= to - f.length() && f.matchesAt(b, s)) {
          return s;
        }
      }
    }
    return -1;
  }
}
