package io.sparkrca.core.io;

import java.io.IOException;
import java.io.InputStream;

/**
 * {@link InputStream#read()} for streams whose real work is in their bulk read: one byte through
 * {@code read(byte[], int, int)}, so that every check and every count lives in one method.
 */
final class SingleByteRead {
  private SingleByteRead() {}

  /** The next byte of {@code in} (0 to 255), or -1 at its end, read through its bulk read. */
  static int from(InputStream in) throws IOException {
    byte[] one = new byte[1];
    int n = in.read(one, 0, 1); // blocks until a byte or the end, as the bulk read's contract says
    return n < 0 ? -1 : one[0] & 0xff;
  }
}
