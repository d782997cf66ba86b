package io.sparkrca.core.logs.replay.internal;

import java.nio.charset.StandardCharsets;

/**
 * The simple names of the loggers in headers ({@code DAGScheduler} of {@code
 * org.apache.spark.scheduler.DAGScheduler}), made into strings once: a log has a few hundred
 * loggers and millions of lines, so each line's logger is looked up by its bytes in a small table
 * instead of becoming a new string.
 *
 * <pre>{@code
 * String emitter = names.simpleName(buf, loggerStart, loggerEnd);
 * }</pre>
 */
final class EmitterNames {
  private static final int SLOTS = 1024;
  private final String[] names = new String[SLOTS];
  private final byte[][] keys = new byte[SLOTS][];

  /** The text after the last dot of {@code b[from, to)}, as a shared string. */
  String simpleName(byte[] b, int from, int to) {
    int start = from;
    for (int i = to - 1; i >= from; i--) {
      if (b[i] == '.') {
        start = i + 1;
        break;
      }
    }
    int h = 0;
    for (int i = start; i < to; i++) {
      h = 31 * h + b[i];
    }
    int slot = (h ^ (h >>> 16)) & (SLOTS - 1);
    byte[] key = keys[slot];
    if (key != null && key.length == to - start && same(key, b, start)) {
      return names[slot];
    }
    byte[] copy = java.util.Arrays.copyOfRange(b, start, to);
    String name = new String(copy, StandardCharsets.UTF_8);
    keys[slot] = copy;
    names[slot] = name;
    return name;
  }

  private static boolean same(byte[] key, byte[] b, int start) {
    for (int i = 0; i < key.length; i++) {
      if (key[i] != b[start + i]) {
        return false;
      }
    }
    return true;
  }
}
