package io.sparkrca.core.logs.replay.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Numbers the distinct byte strings it is shown (hosts, executor ids, localities, logger names),
 * looked up by their bytes, so that a line's fields are kept as small ints without a string being
 * made for each line; the string is made once, for the first occurrence.
 *
 * <pre>{@code
 * int host = pool.id(buf, start, end);
 * String name = pool.string(host);
 * }</pre>
 */
final class BytesPool {
  private final List<byte[]> keys = new ArrayList<>();
  private final List<String> strings = new ArrayList<>();
  private int[] table = new int[256]; // id + 1, 0 empty

  /** The id of {@code b[from, to)}, made on first sight. */
  int id(byte[] b, int from, int to) {
    int h = hash(b, from, to);
    int mask = table.length - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      int slot = table[i];
      if (slot == 0) {
        int id = keys.size();
        keys.add(Arrays.copyOfRange(b, from, to));
        strings.add(new String(b, from, to - from, StandardCharsets.UTF_8));
        table[i] = id + 1;
        if (keys.size() * 2 > table.length) {
          rehash();
        }
        return id;
      }
      if (Arrays.equals(keys.get(slot - 1), 0, keys.get(slot - 1).length, b, from, to)) {
        return slot - 1;
      }
    }
  }

  /** The id of {@code s}. */
  int id(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return id(b, 0, b.length);
  }

  String string(int id) {
    return id < 0 ? null : strings.get(id);
  }

  private void rehash() {
    int[] old = table;
    table = new int[old.length * 2];
    int mask = table.length - 1;
    for (int slot : old) {
      if (slot != 0) {
        byte[] k = keys.get(slot - 1);
        int i = hash(k, 0, k.length) & mask;
        while (table[i] != 0) {
          i = (i + 1) & mask;
        }
        table[i] = slot;
      }
    }
  }

  private static int hash(byte[] b, int from, int to) {
    int h = 1;
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    return h ^ (h >>> 16);
  }
}
