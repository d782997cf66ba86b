package io.sparkrca.core.eventlog.replay;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The known keys of one kind of JSON object, recognised from their bytes, for {@link
 * TaskEventScanner}.
 *
 * <p>Spark writes the keys of an object in the same order every time, so the key after key
 * {@code k} is predicted to be the one that followed {@code k} last time, and checked with one
 * comparison of {@code "name":} (see {@link AsciiPattern}). Only a miss (another order, whitespace,
 * an unknown key) scans the key and looks it up by hash.
 */
final class KeyTable {
  /** The id {@link #key} returns for a key not in the table. */
  final int unknown;
  /** {@code "name":} per id. */
  private final AsciiPattern[] quoted;
  private final AsciiPattern[] names;
  private final int[] slots; // hash slot -> id + 1, 0 when empty
  private final int mask;
  /** For each previous id + 1 (0 at the start of an object): the id that followed it last time. */
  private final int[] follows;

  KeyTable(List<String> keys) {
    int n = keys.size();
    if (n >= 64) {
      // The tables are constants of the scanner: a longer one is a programming error.
      throw new AssertionError("at most 63 keys (duplicates are tracked in a long), got " + n);
    }
    unknown = n;
    names = new AsciiPattern[n];
    quoted = new AsciiPattern[n];
    int size = Integer.highestOneBit(Math.max(4, n) * 4);
    slots = new int[size];
    mask = size - 1;
    follows = new int[n + 2];
    for (int id = 0; id < n; id++) {
      byte[] name = keys.get(id).getBytes(StandardCharsets.US_ASCII);
      names[id] = new AsciiPattern(name);
      quoted[id] = new AsciiPattern("\"" + keys.get(id) + "\":");
      int s = hash(name, 0, name.length) & mask;
      while (slots[s] != 0) {
        s = (s + 1) & mask;
      }
      slots[s] = id + 1;
      follows[id] = id; // first guess: the listed order (follows[previous + 1] = next)
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
      AsciiPattern q = quoted[guess];
      if (p + q.length <= c.end && q.at(b, p)) {
        c.p = p + q.length;
        return guess;
      }
    }
    int close = c.string();
    int id = lookup(b, p + 1, close);
    c.expect(':');
    follows[previous + 1] = id;
    return id;
  }

  private int lookup(byte[] b, int from, int to) {
    int s = hash(b, from, to) & mask;
    while (true) {
      int v = slots[s];
      if (v == 0) {
        return unknown;
      }
      if (names[v - 1].equalsRange(b, from, to)) {
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
