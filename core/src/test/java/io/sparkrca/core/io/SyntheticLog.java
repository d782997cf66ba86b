package io.sparkrca.core.io;

import java.nio.charset.StandardCharsets;

/**
 * A log of any size generated on the fly: every line is exactly {@link #LINE} bytes, {@code
 * "2024-05-01 12:00:00 INFO Executor: task line 0000000001 ...\n"} with the 1-based line number,
 * so the content at any offset is known without storing it.
 *
 * <pre>{@code
 * server.serve("/big.log", new SyntheticLog(5L << 30));   // a 5 GiB object
 * String last = SyntheticLog.line(SyntheticLog.lines(size)); // its last line, without "\n"
 * }</pre>
 */
public final class SyntheticLog implements TestHttpServer.Content {
  public static final int LINE = 64;
  private static final byte[] TEMPLATE =
      "2024-05-01 12:00:00 INFO Executor: task line 0000000000 done...\n"
          .getBytes(StandardCharsets.US_ASCII);
  private static final int DIGITS_AT = 45;

  private final long size;

  public SyntheticLog(long size) {
    if (TEMPLATE.length != LINE) {
      throw new AssertionError(TEMPLATE.length);
    }
    this.size = size;
  }

  /** Line {@code n} (1-based) without its newline. */
  public static String line(long n) {
    byte[] b = TEMPLATE.clone();
    writeDigits(b, 0, n);
    return new String(b, 0, LINE - 1, StandardCharsets.US_ASCII);
  }

  /** How many complete lines {@code size} bytes hold. */
  public static long lines(long size) {
    return size / LINE;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public void copy(long offset, byte[] dst, int off, int len) {
    byte[] line = TEMPLATE.clone();
    long current = -1;
    for (int i = 0; i < len; i++) {
      long pos = offset + i;
      long n = pos / LINE + 1;
      if (n != current) {
        writeDigits(line, 0, n);
        current = n;
      }
      dst[off + i] = line[(int) (pos % LINE)];
    }
  }

  private static void writeDigits(byte[] b, int base, long n) {
    for (int i = 9; i >= 0; i--) {
      b[base + DIGITS_AT + i] = (byte) ('0' + n % 10);
      n /= 10;
    }
  }
}
