package io.sparkrca.gcp.storage;

import java.nio.charset.StandardCharsets;

/** Deterministic log text of any length, computed from the offset: fixed 64-byte lines. */
final class FakeGcsContent {
  static final int LINE = 64;

  private FakeGcsContent() {}

  /** The byte at {@code offset} of an endless log of numbered 64-byte lines. */
  private static final ThreadLocal<long[]> LAST_N = ThreadLocal.withInitial(() -> new long[] {-1});
  private static final ThreadLocal<byte[][]> LAST_LINE = ThreadLocal.withInitial(() -> new byte[1][]);

  static byte logLines(long offset) {
    long n = offset / LINE;
    int i = (int) (offset % LINE);
    if (i == LINE - 1) {
      return '\n';
    }
    if (LAST_N.get()[0] != n) {
      LAST_N.get()[0] = n;
      LAST_LINE.get()[0] = line(n);
    }
    byte[] text = LAST_LINE.get()[0];
    return i < text.length ? text[i] : (byte) '.';
  }

  private static byte[] line(long n) {
    return String.format("%012d INFO line %d of the log", n, n).getBytes(StandardCharsets.US_ASCII);
  }

  /** The text of the last complete line of an object of {@code size} bytes (size a multiple of 64). */
  static String lineEndingAt(long size) {
    long n = size / LINE - 1;
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < LINE - 1; i++) {
      b.append((char) logLines(n * LINE + i));
    }
    return b.toString();
  }
}
