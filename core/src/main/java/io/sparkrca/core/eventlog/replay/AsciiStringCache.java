package io.sparkrca.core.eventlog.replay;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns the bytes of short printable-ASCII strings into {@code String}s, returning the same
 * instance for the same bytes: executor ids, hosts and localities repeat on every task, so a task
 * costs a hash and a comparison instead of a new string (and later lookups by these strings find
 * their hash codes cached).
 *
 * <p>Bounded: at most {@code capacity / 2} strings of at most {@link #MAX_LENGTH} bytes are kept;
 * beyond that, strings are simply created.
 */
final class AsciiStringCache {
  static final int MAX_LENGTH = 256;

  private final byte[][] keys;
  private final String[] values;
  private final int mask;
  private final int maxEntries;
  private int entries;

  /** @param capacity a power of two */
  AsciiStringCache(int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new AssertionError("capacity must be a power of two, was " + capacity); // a constant
    }
    keys = new byte[capacity][];
    values = new String[capacity];
    mask = capacity - 1;
    maxEntries = capacity / 2;
  }

  /** The string of {@code b[from, to)}, which must be printable ASCII. */
  String get(byte[] b, int from, int to) {
    int n = to - from;
    if (n > MAX_LENGTH) {
      return new String(b, from, n, StandardCharsets.ISO_8859_1);
    }
    int h = n;
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    int s = (h ^ (h >>> 16)) & mask;
    while (true) {
      byte[] k = keys[s];
      if (k == null) {
        String v = new String(b, from, n, StandardCharsets.ISO_8859_1);
        if (entries < maxEntries) {
          keys[s] = Arrays.copyOfRange(b, from, to);
          values[s] = v;
          entries++;
        }
        return v;
      }
      if (k.length == n && Arrays.equals(b, from, to, k, 0, n)) {
        return values[s];
      }
      s = (s + 1) & mask;
    }
  }
}
