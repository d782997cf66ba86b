package io.sparkrca.core.eventlog.replay;

import java.util.function.Consumer;

/**
 * A map from {@code long} to objects by open addressing (linear probing, backward-shift
 * deletion): lookups on the per-task path without boxing the key or allocating a node per entry.
 * Null values are not allowed (null means absent).
 */
final class LongObjectMap<V> {
  private long[] keys;
  private Object[] values;
  private int size;

  LongObjectMap() {
    keys = new long[16];
    values = new Object[16];
  }

  int size() {
    return size;
  }

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null || keys[i] == key) {
        return (V) v;
      }
    }
  }

  /** Sets the value of {@code key} (not null). */
  void put(long key, V value) {
    java.util.Objects.requireNonNull(value, "value");
    if ((size + 1) * 4 > keys.length * 3) {
      grow();
    }
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
      i = (i + 1) & mask;
    }
    keys[i] = key;
    values[i] = value;
    size++;
  }

  /** Removes {@code key}; returns its value, or null if it was absent. */
  @SuppressWarnings("unchecked")
  V remove(long key) {
    int mask = keys.length - 1;
    int i = slot(key, mask);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    Object removed = values[i];
    if (removed == null) {
      return null;
    }
    // Backward-shift deletion: an entry later in the probe run moves into the hole when the hole
    // is no further from the entry than its home slot is (distances wrap around the table).
    int hole = i;
    for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
      if (((j - slot(keys[j], mask)) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        values[hole] = values[j];
        hole = j;
      }
    }
    values[hole] = null;
    size--;
    return (V) removed;
  }

  /** Every value, in no particular order. */
  @SuppressWarnings("unchecked")
  void forEachValue(Consumer<? super V> action) {
    for (Object v : values) {
      if (v != null) {
        action.accept((V) v);
      }
    }
  }

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldKeys.length * 2];
    int mask = keys.length - 1;
    for (int k = 0; k < oldKeys.length; k++) {
      if (oldValues[k] != null) {
        int i = slot(oldKeys[k], mask);
        while (values[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[k];
        values[i] = oldValues[k];
      }
    }
  }
}
