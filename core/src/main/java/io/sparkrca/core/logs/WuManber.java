package io.sparkrca.core.logs;

import io.sparkrca.core.io.LineReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the earliest occurrence of any of a set of literals with the Wu-Manber algorithm: a table
 * indexed by the two bytes at the end of a window of {@code m} bytes (the shortest literal's
 * length) says how far the window can move without passing an occurrence. Most byte pairs of log
 * text appear in no literal, so the window moves {@code m - 1} bytes at a time and most bytes are
 * never looked at (what GNU grep's Boyer-Moore-style search does). Each literal's window may sit
 * at an offset inside it, chosen so that the window ends on a byte pair that is rare in a sample
 * of the text (a window ending in "or" would stop at every "or"). Literals must be at least
 * {@value #MIN_LENGTH} bytes long.
 */
final class WuManber implements LineReader.Candidates {
  static final int MIN_LENGTH = 4;
  private static final int MAX_WINDOW = 64;
  private static final byte[] FOLD = new byte[256];

  static {
    for (int i = 0; i < 256; i++) {
      FOLD[i] = ByteFinder.lower((byte) i);
    }
  }

  private final byte[][] patterns; // lower-cased when folding
  private final int[] offsets; // where each literal's window starts inside it
  private final int maxOffset;
  private final boolean fold;
  private final int m;
  private final byte[] shift = new byte[1 << 16];
  private final int[][] bucket = new int[1 << 16][];

  WuManber(List<byte[]> literals, boolean foldAsciiCase) {
    this(literals, foldAsciiCase, new byte[0]);
  }

  /** @param sample the first bytes of the text to search, to tell rare byte pairs from common ones */
  WuManber(List<byte[]> literals, boolean foldAsciiCase, byte[] sample) {
    this.fold = foldAsciiCase;
    this.patterns = new byte[literals.size()][];
    int min = Integer.MAX_VALUE;
    for (int i = 0; i < patterns.length; i++) {
      byte[] p = literals.get(i).clone();
      if (fold) {
        for (int k = 0; k < p.length; k++) {
          p[k] = FOLD[p[k] & 0xff];
        }
      }
      patterns[i] = p;
      min = Math.min(min, p.length);
    }
    if (min < MIN_LENGTH) {
      // Callers check suits() first, which refuses shorter literals.
      throw new AssertionError("literals must be at least " + MIN_LENGTH + " bytes");
    }
    int[] pairs = pairCounts(sample, fold);
    // Choose the window length and each literal's offset: long windows move far, windows ending
    // on a rare pair stop rarely.
    int bestM = Math.min(min, MAX_WINDOW);
    double bestCost = Double.MAX_VALUE;
    int[] bestOffsets = new int[patterns.length];
    for (int len = Math.min(min, MAX_WINDOW); len >= Math.max(MIN_LENGTH, Math.min(min, MAX_WINDOW) / 2); len--) {
      int[] offs = new int[patterns.length];
      double stops = 1;
      for (int pi = 0; pi < patterns.length; pi++) {
        byte[] p = patterns[pi];
        int bestOff = 0;
        int bestCount = Integer.MAX_VALUE;
        for (int off = 0; off + len <= p.length; off++) {
          int c = pairs[key(p[off + len - 2], p[off + len - 1])];
          if (c < bestCount) {
            bestCount = c;
            bestOff = off;
          }
        }
        offs[pi] = bestOff;
        stops += bestCount;
      }
      double cost = stops / (len - 1);
      if (cost < bestCost) {
        bestCost = cost;
        bestM = len;
        bestOffsets = offs;
      }
    }
    this.m = bestM;
    this.offsets = bestOffsets;
    int maxOff = 0;
    for (int o : offsets) {
      maxOff = Math.max(maxOff, o);
    }
    this.maxOffset = maxOff;
    java.util.Arrays.fill(shift, (byte) (m - 1));
    // Few pairs end a window: a map of them, not a list per possible pair (cheap to build, which
    // matters when a command runs for well under a second in a just-started JVM).
    java.util.Map<Integer, List<Integer>> buckets = new java.util.HashMap<>();
    for (int pi = 0; pi < patterns.length; pi++) {
      byte[] p = patterns[pi];
      int o = offsets[pi];
      for (int j = 0; j + 1 < m; j++) {
        int h = key(p[o + j], p[o + j + 1]);
        int s = m - 2 - j;
        if (s < (shift[h] & 0xff)) {
          shift[h] = (byte) s;
        }
        if (s == 0) {
          buckets.computeIfAbsent(h, k -> new ArrayList<>()).add(pi);
        }
      }
    }
    for (java.util.Map.Entry<Integer, List<Integer>> e : buckets.entrySet()) {
      List<Integer> b = e.getValue();
      int[] ids = new int[b.size()];
      for (int k = 0; k < ids.length; k++) {
        ids[k] = b.get(k);
      }
      bucket[e.getKey()] = ids;
    }
  }

  /** How often each byte pair occurs in the sample (folded when folding); 0 without a sample. */
  private static int[] pairCounts(byte[] sample, boolean fold) {
    int[] counts = new int[1 << 16];
    for (int i = 0; i + 1 < sample.length; i++) {
      byte a = fold ? FOLD[sample[i] & 0xff] : sample[i];
      byte b = fold ? FOLD[sample[i + 1] & 0xff] : sample[i + 1];
      counts[key(a, b)]++;
    }
    return counts;
  }

  /** The window length and offsets, for diagnostics. */
  String describe() {
    return "m=" + m + " offsets=" + java.util.Arrays.toString(offsets);
  }

  /** Whether every literal is long enough for this algorithm. */
  static boolean suits(List<byte[]> literals) {
    return !literals.isEmpty() && literals.stream().allMatch(l -> l.length >= MIN_LENGTH);
  }

  private static int key(byte a, byte b) {
    return (a & 0xff) << 8 | (b & 0xff);
  }

  @Override
  public int indexOf(byte[] b, int from, int to) {
    int best = -1;
    int pos = from + m - 1; // the last byte of the current window
    while (pos < to) {
      if (best >= 0 && pos - m + 1 - maxOffset >= best) {
        return best; // no later window can start a literal before best
      }
      int h =
          fold
              ? (FOLD[b[pos - 1] & 0xff] & 0xff) << 8 | (FOLD[b[pos] & 0xff] & 0xff)
              : (b[pos - 1] & 0xff) << 8 | (b[pos] & 0xff);
      int s = shift[h];
      if (s != 0) {
        pos += s;
        continue;
      }
      best = verify(b, pos - m + 1, from, to, h, best);
      pos++;
    }
    return best;
  }

  /** Checks the literals whose window ends on pair {@code h}; returns the new earliest start. */
  private int verify(byte[] b, int windowStart, int from, int to, int h, int best) {
    for (int pi : bucket[h]) {
      byte[] p = patterns[pi];
      int start = windowStart - offsets[pi];
      if (start < from || start + p.length > to || (best >= 0 && start >= best)) {
        continue;
      }
      int k = 0;
      if (fold) {
        while (k < p.length && FOLD[b[start + k] & 0xff] == p[k]) {
          k++;
        }
      } else {
        while (k < p.length && b[start + k] == p[k]) {
          k++;
        }
      }
      if (k == p.length) {
        best = start;
      }
    }
    return best;
  }
}
