package io.sparkrca.core.eventlog.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A constant of up to {@link #MAX_LENGTH} ASCII bytes, compared against a byte array with five
 * eight-byte loads and no branch on its length: keys, event names and cached strings are checked
 * this way many times per line, where a call to {@code Arrays.equals} (or a loop over the words,
 * whose exit mispredicts as lengths vary) costs more than the comparison itself.
 *
 * <p>The five words cover the constant with overlapping windows ({@code 0, 8, 16, 24} capped at
 * {@code length - 8}, and {@code length - 8}); a constant shorter than eight bytes is one masked
 * word.
 */
final class AsciiPattern {
  static final int MAX_LENGTH = 40;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  final int length;
  private final byte[] bytes;
  private final long w0;
  private final long w1;
  private final long w2;
  private final long w3;
  private final long w4;
  private final long m0;
  private final long m;
  private final int o1;
  private final int o2;
  private final int o3;
  private final int o4;
  /** Bytes read from the start of a comparison: the array must have them. */
  private final int window;

  AsciiPattern(String s) {
    this(s.getBytes(StandardCharsets.US_ASCII));
  }

  AsciiPattern(byte[] value) {
    int n = value.length;
    if (n > MAX_LENGTH) {
      // Patterns are the scanner's constants (event and field names), never user input.
      throw new AssertionError("longer than " + MAX_LENGTH + " bytes: " + n);
    }
    bytes = value.clone();
    length = n;
    if (n >= 8) {
      o1 = Math.min(8, n - 8);
      o2 = Math.min(16, n - 8);
      o3 = Math.min(24, n - 8);
      o4 = n - 8;
      w0 = (long) LONGS.get(bytes, 0);
      w1 = (long) LONGS.get(bytes, o1);
      w2 = (long) LONGS.get(bytes, o2);
      w3 = (long) LONGS.get(bytes, o3);
      w4 = (long) LONGS.get(bytes, o4);
      m0 = -1L;
      m = -1L;
      window = n;
    } else {
      long w = 0;
      for (int i = n - 1; i >= 0; i--) {
        w = (w << 8) | (bytes[i] & 0xff);
      }
      w0 = w;
      w1 = w2 = w3 = w4 = 0;
      o1 = o2 = o3 = o4 = 0;
      m0 = n == 0 ? 0 : -1L >>> (64 - 8 * n);
      m = 0;
      window = 8;
    }
  }

  /**
   * Whether {@code b[p, p + length)} equals this constant. The caller ensures {@code p + length}
   * is within the valid data; for a constant shorter than eight bytes up to eight bytes are read
   * (those past it masked out) when the array has them.
   */
  boolean at(byte[] b, int p) {
    if (p + window > b.length) {
      return Arrays.equals(b, p, p + length, bytes, 0, length);
    }
    long x = (((long) LONGS.get(b, p) ^ w0) & m0)
        | (((long) LONGS.get(b, p + o1) ^ w1) & m)
        | (((long) LONGS.get(b, p + o2) ^ w2) & m)
        | (((long) LONGS.get(b, p + o3) ^ w3) & m)
        | (((long) LONGS.get(b, p + o4) ^ w4) & m);
    return x == 0;
  }

  /** Whether {@code b[from, to)} is exactly this constant. */
  boolean equalsRange(byte[] b, int from, int to) {
    return to - from == length && at(b, from);
  }

  /** Whether {@code b[from, to)} starts with this constant. */
  boolean prefixOf(byte[] b, int from, int to) {
    return to - from >= length && at(b, from);
  }

  @Override
  public String toString() {
    return new String(bytes, StandardCharsets.US_ASCII);
  }
}
