package io.sparkrca.core.logs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Finds a byte string in a byte range, optionally ignoring ASCII case. It scans eight bytes at a
 * time for the needle's rarest byte (by a fixed table of byte frequencies in log text) and checks
 * the needle around each hit, the way {@code memchr}-based searchers do.
 */
final class ByteFinder {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final int[] FREQUENCY = frequencies();

  private final byte[] needle; // lower-cased when folding
  private final boolean fold;
  private final int rareAt;
  private final long rareA; // the rare byte, repeated in every lane
  private final long rareB; // its other case when folding (else the same)

  /**
   * @param needle the bytes to find; not empty
   * @param foldAsciiCase whether ASCII letters match either case (other bytes must be equal)
   */
  ByteFinder(byte[] needle, boolean foldAsciiCase) {
    if (needle.length == 0) {
      throw new IllegalArgumentException("empty needle");
    }
    this.fold = foldAsciiCase;
    this.needle = needle.clone();
    if (fold) {
      for (int i = 0; i < this.needle.length; i++) {
        this.needle[i] = lower(this.needle[i]);
      }
    }
    int best = 0;
    int bestScore = Integer.MAX_VALUE;
    for (int i = 0; i < this.needle.length; i++) {
      byte b = this.needle[i];
      int score = fold ? Math.max(FREQUENCY[b & 0xff], FREQUENCY[upper(b) & 0xff]) : FREQUENCY[b & 0xff];
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    }
    this.rareAt = best;
    byte r = this.needle[best];
    this.rareA = (r & 0xffL) * ONES;
    this.rareB = ((fold ? upper(r) : r) & 0xffL) * ONES;
  }

  int length() {
    return needle.length;
  }

  /** The index of the first occurrence in {@code h[from, to)}, or -1. */
  int indexOf(byte[] h, int from, int to) {
    int n = needle.length;
    if (to - from < n) {
      return -1;
    }
    // Candidate positions of the rare byte: from + rareAt .. to - n + rareAt.
    int first = from + rareAt;
    int last = to - n + rareAt; // inclusive
    int i = first;
    for (int end = last - 7; i <= end; i += 8) {
      long w = (long) LONGS.get(h, i);
      long x = w ^ rareA;
      long y = w ^ rareB;
      long hits = ((x - ONES) & ~x | (y - ONES) & ~y) & HIGHS;
      while (hits != 0) {
        int p = i + (Long.numberOfTrailingZeros(hits) >>> 3);
        if (matchesAt(h, p - rareAt)) {
          return p - rareAt;
        }
        hits &= hits - 1;
      }
    }
    byte a = (byte) rareA;
    byte b = (byte) rareB;
    for (; i <= last; i++) {
      byte c = h[i];
      if ((c == a || c == b) && matchesAt(h, i - rareAt)) {
        return i - rareAt;
      }
    }
    return -1;
  }

  private boolean matchesAt(byte[] h, int at) {
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

  /** A rough ranking of how common each byte is in log text; lower is rarer. */
  private static int[] frequencies() {
    int[] f = new int[256];
    Arrays.fill(f, 0, 32, 5);
    Arrays.fill(f, 32, 127, 50);
    Arrays.fill(f, 128, 256, 40);
    for (char c = 'A'; c <= 'Z'; c++) {
      f[c] = 60;
    }
    for (char c : "EIOSTANRLCD".toCharArray()) {
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
