package io.sparkrca.core.logs.replay.internal;

/**
 * A map from long to long without boxing (open addressing, linear probing, deletion by backward
 * shift), for the tasks an executor's log shows running: a few entries, changed on every task line.
 *
 * <pre>{@code
 * running.put(tid, stageKey);
 * long key = running.get(tid, -1);
 * }</pre>
 */
final class LongLongMap {
  private static final long EMPTY = Long.MIN_VALUE;
  private long[] keys = new long[16];
  private long[] values = new long[16];
  private int size;

  LongLongMap() {
    java.util.Arrays.fill(keys, EMPTY);
  }

  int size() {
    return size;
  }

  void put(long key, long value) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (keys[i] != EMPTY && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (keys[i] == EMPTY) {
      keys[i] = key;
      size++;
    }
    values[i] = value;
    if (size * 2 > keys.length) {
      grow();
    }
  }

  long get(long key, long missing) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); keys[i] != EMPTY; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return values[i];
      }
    }
    return missing;
  }

  /** The value of the one entry, or {@code missing} when there is not exactly one. */
  long only(long missing) {
    if (size != 1) {
      return missing;
    }
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != EMPTY) {
        return values[i];
      }
    }
    return missing;
  }

  void remove(long key) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (keys[i] != key) {
      if (keys[i] == EMPTY) {
        return;
      }
      i = (i + 1) & mask;
    }
    size--;
    // shift back the entries that probed past the freed slot
    int gap = i;
    for (int j = (gap + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
      int home = slot(keys[j], mask);
      if (((j - home) & mask) >= ((j - gap) & mask)) {
        keys[gap] = keys[j];
        values[gap] = values[j];
        gap = j;
      }
    }
    keys[gap] = EMPTY;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new long[oldKeys.length * 2];
    java.util.Arrays.fill(keys, EMPTY);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
