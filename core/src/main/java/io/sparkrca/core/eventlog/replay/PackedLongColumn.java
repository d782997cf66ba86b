package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/**
 * A growable column of longs stored as {@code value - base} in the narrowest of byte, short, int
 * or long arrays that holds every value seen so far. Most task metrics are zero or small, so a
 * column typically costs one or two bytes per row instead of eight.
 */
final class PackedLongColumn {
  private byte[] bytes;
  private short[] shorts;
  private int[] ints;
  private long[] longs;
  private int width = 1;
  private int capacity;
  private long base;
  private boolean baseSet;

  PackedLongColumn(int initialCapacity) {
    capacity = Math.max(4, initialCapacity);
    bytes = new byte[capacity];
  }

  long get(int row) {
    switch (width) {
      case 1:
        return base + bytes[row];
      case 2:
        return base + shorts[row];
      case 4:
        return base + ints[row];
      default:
        return base + longs[row];
    }
  }

  void set(int row, long value) {
    if (!baseSet) {
      // Values of a column cluster (launch times, task ids): store them relative to the first.
      base = (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) ? value : 0;
      baseSet = true;
    }
    ensureCapacity(row + 1);
    long delta = value - base;
    if (((value ^ base) & (value ^ delta)) < 0) {
      // Overflow of value - base: fall back to raw longs with no base.
      rebase();
      delta = value;
    }
    int needed = widthFor(delta);
    if (needed > width) {
      widen(needed);
    }
    switch (width) {
      case 1:
        bytes[row] = (byte) delta;
        break;
      case 2:
        shorts[row] = (short) delta;
        break;
      case 4:
        ints[row] = (int) delta;
        break;
      default:
        longs[row] = delta;
    }
  }

  /** Approximate bytes held, for memory accounting. */
  long retainedBytes() {
    return (long) capacity * width + 32;
  }

  private static int widthFor(long v) {
    if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      return 1;
    }
    if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      return 2;
    }
    if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
      return 4;
    }
    return 8;
  }

  private void ensureCapacity(int size) {
    if (size <= capacity) {
      return;
    }
    int newCapacity = Math.max(size, capacity + (capacity >> 1) + 8);
    switch (width) {
      case 1:
        bytes = Arrays.copyOf(bytes, newCapacity);
        break;
      case 2:
        shorts = Arrays.copyOf(shorts, newCapacity);
        break;
      case 4:
        ints = Arrays.copyOf(ints, newCapacity);
        break;
      default:
        longs = Arrays.copyOf(longs, newCapacity);
    }
    capacity = newCapacity;
  }

  private void widen(int newWidth) {
    long[] values = new long[capacity];
    for (int i = 0; i < capacity; i++) {
      values[i] = get(i) - base;
    }
    bytes = null;
    shorts = null;
    ints = null;
    longs = null;
    width = newWidth;
    switch (newWidth) {
      case 2:
        shorts = new short[capacity];
        for (int i = 0; i < capacity; i++) {
          shorts[i] = (short) values[i];
        }
        break;
      case 4:
        ints = new int[capacity];
        for (int i = 0; i < capacity; i++) {
          ints[i] = (int) values[i];
        }
        break;
      default:
        longs = values;
    }
  }

  private void rebase() {
    long[] values = new long[capacity];
    for (int i = 0; i < capacity; i++) {
      values[i] = get(i);
    }
    bytes = null;
    shorts = null;
    ints = null;
    longs = values;
    width = 8;
    base = 0;
  }
}
