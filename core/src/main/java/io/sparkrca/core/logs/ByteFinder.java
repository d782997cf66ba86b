package io.sparkrca.core.logs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Finds a byte string in a byte range, optionally ignoring ASCII case. It picks the needle's two
 * rarest bytes (by their frequency in a sample of the text being searched, or a fixed table of log
 * text) and tests, eight start positions at a time, whether both sit at their offsets (the
 * "packed pair" technique of memchr-style searchers); only starts where both do are verified.
 * Two bytes instead of one make false candidates rare even when each byte is common.
 */
final class ByteFinder {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final int[] STATIC_FREQUENCY = frequencies();

  private final byte[] needle; // lower-cased when folding
  private final boolean fold;
  private final int at1;
  private final int at2;
  private final long a1; // byte at at1, in every lane
  private final long b1; // its other ASCII case when folding (else the same)
  private final long a2;
  private final long b2;

  /**
   * @param needle the bytes to find; not empty
   * @param foldAsciiCase whether ASCII letters match either case (other bytes must be equal)
   */
  ByteFinder(byte[] needle, boolean foldAsciiCase) {
    this(needle, foldAsciiCase, STATIC_FREQUENCY);
  }

  /** As above, choosing the rare bytes by {@code frequency} (256 counts, higher is commoner). */
  ByteFinder(byte[] needle, boolean foldAsciiCase, int[] frequency) {
    if (needle.length == 0) {
      throw new AssertionError("empty needle"); // SearchQuery refuses an empty pattern
    }
    this.fold = foldAsciiCase;
    this.needle = needle.clone();
    if (fold) {
      for (int i = 0; i < this.needle.length; i++) {
        this.needle[i] = lower(this.needle[i]);
      }
    }
    int first = -1;
    int second = -1;
    for (int i = 0; i < this.needle.length; i++) {
      if (first < 0 || score(i, frequency) < score(first, frequency)) {
        first = i;
      }
    }
    for (int i = 0; i < this.needle.length; i++) {
      if (i == first) {
        continue;
      }
      boolean better =
          second < 0
              || score(i, frequency) < score(second, frequency)
              // prefer a different byte value: two of the same add less
              || (score(i, frequency) == score(second, frequency)
                  && this.needle[second] == this.needle[first] && this.needle[i] != this.needle[first]);
      if (better) {
        second = i;
      }
    }
    if (second < 0) {
      second = first; // a one-byte needle
    }
    this.at1 = Math.min(first, second);
    this.at2 = Math.max(first, second);
    byte r1 = this.needle[at1];
    byte r2 = this.needle[at2];
    this.a1 = (r1 & 0xffL) * ONES;
    this.b1 = ((fold ? upper(r1) : r1) & 0xffL) * ONES;
    this.a2 = (r2 & 0xffL) * ONES;
    this.b2 = ((fold ? upper(r2) : r2) & 0xffL) * ONES;
  }

  private long score(int i, int[] frequency) {
    byte b = needle[i];
    return fold ? (long) frequency[b & 0xff] + frequency[upper(b) & 0xff] : frequency[b & 0xff];
  }

  int length() {
    return needle.length;
  }

  /** The index of the first occurrence in {@code h[from, to)}, or -1. */
  int indexOf(byte[] h, int from, int to) {
    int last = to - needle.length; // the last possible start
    int s = from;
    for (int end = last - 7; s <= end; s += 8) {
      long m = candidates(h, s);
      while (m != 0) {
        int start = s + (Long.numberOfTrailingZeros(m) >>> 3);
        if (matchesAt(h, start)) {
          return start;
        }
        m &= m - 1;
      }
    }
    for (; s <= last; s++) {
      if (matchesAt(h, s)) {
        return s;
      }
    }
    return -1;
  }

  /**
   * Bit 7 of lane j is set when start {@code s + j} has both rare bytes in place (or falsely, in
   * a lane above a real hit); every real occurrence is flagged. Needs {@code s + 7 <= to - length}.
   */
  long candidates(byte[] h, int s) {
    long w1 = (long) LONGS.get(h, s + at1);
    long w2 = (long) LONGS.get(h, s + at2);
    long x1 = w1 ^ a1;
    long y1 = w1 ^ b1;
    long x2 = w2 ^ a2;
    long y2 = w2 ^ b2;
    return ((x1 - ONES) & ~x1 | (y1 - ONES) & ~y1) & ((x2 - ONES) & ~x2 | (y2 - ONES) & ~y2) & HIGHS;
  }

  boolean matchesAt(byte[] h, int at) {
    int n = needle.length;
    if (!fold) {
      return Arrays.equals(h, at, at + n, needle, 0, n);
    }
    for (int k = 0; k < n; k++) {
      if (lower(h[at + k]) != needle[k]) {
        return false;
      }
    }
    return true;
  }

  static byte lower(byte b) {
    return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
  }

  static byte upper(byte b) {
    return b >= 'a' && b <= 'z' ? (byte) (b - 32) : b;
  }

  /**
   * Byte frequencies for choosing rare bytes: the counts in {@code sample} (the start of the text
   * being searched), with the fixed table breaking ties and standing in for a short sample.
   */
  static int[] frequencies(byte[] sample) {
    if (sample.length < 1024) {
      return STATIC_FREQUENCY;
    }
    int[] f = new int[256];
    for (byte b : sample) {
      f[b & 0xff] += 1024;
    }
    for (int i = 0; i < 256; i++) {
      f[i] += STATIC_FREQUENCY[i];
    }
    return f;
  }

  /** A rough ranking of how common each byte is in log text; lower is rarer. */
  private static int[] frequencies() {
    int[] f = new int[256];
    Arrays.fill(f, 0, 32, 5);
    Arrays.fill(f, 32, 127, 50);
    Arrays.fill(f, 128, 256, 40);
    for (char c = 'A'; c <= 'Z'; c++) {
      f[c] = 60;
    }
    for (char c : "EIOSTANRLCDF".toCharArray()) {
      f[c] = 90;
    }
    String common = " etaoinsrhldcumfpgwybvkxjqz";
    for (int i = 0; i < common.length(); i++) {
      f[common.charAt(i)] = 255 - i * 8;
    }
    for (char c = '0'; c <= '9'; c++) {
      f[c] = 200;
    }
    f['.'] = 190;
    f[':'] = 180;
    f['-'] = 170;
    f['/'] = 150;
    f['_'] = 140;
    f[','] = 140;
    f['='] = 120;
    f['['] = 110;
    f[']'] = 110;
    f['('] = 100;
    f[')'] = 100;
    f['"'] = 100;
    f['\t'] = 80;
    return f;
  }
}
