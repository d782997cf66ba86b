package io.sparkrca.core.logs;

import io.sparkrca.core.io.LineReader;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@code capacity} lines of a stream, copied into reused arrays (no object per line):
 * memory is bounded by {@code capacity} times the line cap, whatever the stream's length.
 */
final class LineRing {
  private final int capacity;
  private final byte[][] data;
  private final int[] lengths;
  private final long[] numbers;
  private final long[] offsets;
  private final long[] fullLengths;
  private final boolean[] cut;
  private int next;
  private int size;

  LineRing(int capacity) {
    this.capacity = capacity;
    this.data = new byte[capacity][];
    this.lengths = new int[capacity];
    this.numbers = new long[capacity];
    this.offsets = new long[capacity];
    this.fullLengths = new long[capacity];
    this.cut = new boolean[capacity];
  }

  /** Copies the reader's current line in, dropping the oldest when full. */
  void add(LineReader r, long number, long offset) {
    add(r.buffer(), r.start(), r.length(), number, offset, r.lineTruncated(), r.fullLength());
  }

  /** Copies a line in, dropping the oldest when full. */
  void add(byte[] b, int start, int len, long number, long offset, boolean truncated, long fullLength) {
    if (capacity == 0) {
      return;
    }
    byte[] slot = data[next];
    if (slot == null || slot.length < len) {
      slot = new byte[Math.max(len, slot == null ? 128 : slot.length * 2)];
      data[next] = slot;
    }
    System.arraycopy(b, start, slot, 0, len);
    lengths[next] = len;
    numbers[next] = number;
    offsets[next] = offset;
    fullLengths[next] = fullLength;
    cut[next] = truncated;
    next = (next + 1) % capacity;
    if (size < capacity) {
      size++;
    }
  }

  int size() {
    return size;
  }

  void clear() {
    size = 0;
    next = 0;
  }

  /** The held lines, oldest first. */
  List<LogLine> toLines(LineFactory factory) {
    List<LogLine> out = new ArrayList<>(size);
    int first = (next - size + capacity) % Math.max(1, capacity);
    for (int k = 0; k < size; k++) {
      int i = (first + k) % capacity;
      out.add(factory.line(data[i], 0, lengths[i], numbers[i], offsets[i], cut[i], fullLengths[i]));
    }
    return out;
  }

  /** Turns raw line bytes into a {@link LogLine} (decoding and redaction). */
  interface LineFactory {
    LogLine line(byte[] b, int start, int length, long number, long offset, boolean truncated, long fullLength);
  }
}
