package io.sparkrca.core.logs;

import java.nio.charset.StandardCharsets;

/** A reusable, zero-copy {@link CharSequence} view of an ASCII byte range (one char per byte). */
final class ByteCharSequence implements CharSequence {
  private byte[] bytes = new byte[0];
  private int start;
  private int length;

  ByteCharSequence reset(byte[] b, int from, int len) {
    this.bytes = b;
    this.start = from;
    this.length = len;
    return this;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    return (char) (bytes[start + index] & 0x7f);
  }

  @Override
  public CharSequence subSequence(int from, int to) {
    return new String(bytes, start + from, to - from, StandardCharsets.ISO_8859_1);
  }

  @Override
  public String toString() {
    return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
  }
}
