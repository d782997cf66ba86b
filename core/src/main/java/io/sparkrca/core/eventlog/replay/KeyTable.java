package io.sparkrca.core.eventlog.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The known keys of one kind of JSON object, recognised from their bytes, for {@link
 * TaskEventScanner}.
 *
 * <p>Spark writes the keys of an object in the same order every time, so the key after key
 * {@code k} is predicted to be the one that followed {@code k} last time, and checked with one
 * vectorised comparison of {@code "name":}. Only a miss (another order, whitespace, an unknown key)
 * scans the key and looks it up by hash.
 */
final class KeyTable {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The id {@link #key} returns for a key not in the table. */
  final int unknown;
  private final byte[][] quoted; // "name": per id
  /** {@code quoted} as little-endian longs: whole words, then the last eight bytes. */
  private final long[][] words;
  private final byte[][] names;
  private final int[] slots; // hash slot -> id + 1, 0 when empty
  private final int mask;
  /** For each previous id + 1 (0 at the start of an object): the id that followed it last time. */
  private final int[] follows;

  KeyTable(List<String> keys) {
    int n = keys.size();
    if (n >= 64) {
      throw new IllegalArgumentException("at most 63 keys (duplicates are tracked in a long)");
    }
    unknown = n;
    names = new byte[n][];
    quoted = new byte[n][];
    words = new long[n][];
    int size = Integer.highestOneBit(Math.max(4, n) * 4);
    slots = new int[size];
    mask = size - 1;
    follows = new int[n + 2];
    for (int id = 0; id < n; id++) {
      byte[] name = keys.get(id).getBytes(StandardCharsets.US_ASCII);
      names[id] = name;
      quoted[id] = ("\"" + keys.get(id) + "\":").getBytes(StandardCharsets.US_ASCII);
      words[id] = words(quoted[id]);
      int s = hash(name, 0, name.length) & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = id + 1;
      follows[id] = id; // first guess: the listed order (follows[prev + 1] = next)
    }
    follows[n] = unknown;
    follows[n + 1] = unknown;
  }

  KeyTable(String... keys) {
    this(List.of(keys));
  }

  /**
   * Reads the key at the cursor (at its opening quote) and the colon after it; returns its id, or
   * {@link #unknown}. {@code previous} is the id of the object's previous key, -1 for the first.
   */
  int key(ByteJsonCursor c, int previous) {
    int guess = follows[previous + 1];
    byte[] b = c.b;
    int p = c.p;
    if (guess != unknown) {
      int n = quoted[guess].length;
      if (p + n <= c.end && matches(b, p, n, words[guess])) {
        c.p = p + n;
        return guess;
      }
    }
    int close = c.string();
    int id = lookup(b, p + 1, close);
    c.expect(':');
    follows[previous + 1] = id;
    return id;
  }

  /**
   * Splits a quoted key into little-endian words: the whole words, then its last eight bytes; a
   * key shorter than eight bytes is one zero-padded word.
   */
  private static long[] words(byte[] q) {
    int n = q.length;
    if (n < 8) {
      long w = 0;
      for (int i = n - 1; i >= 0; i--) {
        w = (w << 8) | (q[i] & 0xff);
      }
      return new long[] {w};
    }
    long[] w = new long[(n >>> 3) + 1];
    for (int k = 0; k < n >>> 3; k++) {
      w[k] = (long) LONGS.get(q, k * 8);
    }
    w[n >>> 3] = (long) LONGS.get(q, n - 8);
    return w;
  }

  /**
   * Whether {@code b[p, p + n)} holds the quoted key of {@code w}, compared eight bytes at a time
   * (the last word overlaps the one before it). A short key is compared as one masked word when
   * the array has eight bytes there (bytes past the key are read but masked out).
   */
  private static boolean matches(byte[] b, int p, int n, long[] w) {
    if (n < 8) {
      if (p + 8 > b.length) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
          v = (v << 8) | (b[p + i] & 0xff);
        }
        return v == w[0];
      }
      return (((long) LONGS.get(b, p) ^ w[0]) & (-1L >>> (64 - 8 * n))) == 0;
    }
    int full = n >>> 3;
    for (int k = 0; k < full; k++) {
      if ((long) LONGS.get(b, p + k * 8) != w[k]) {
        return false;
      }
    }
    return (long) LONGS.get(b, p + n - 8) == w[full];
  }

  private int lookup(byte[] b, int from, int to) {
    int s = hash(b, from, to) & mask;
    while (true) {
      int v = slots[s];
      if (v == 0) {
        return unknown;
      }
      byte[] name = names[v - 1];
      if (name.length == to - from && Arrays.equals(b, from, to, name, 0, name.length)) {
        return v - 1;
      }
      s = (s + 1) & mask;
    }
  }

  private static int hash(byte[] b, int from, int to) {
    int h = to - from;
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    return h ^ (h >>> 15);
  }
}
