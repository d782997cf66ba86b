package io.sparkrca.core.logs.replay.internal;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over the bytes of one line: the line parsers read Spark's messages with it, literal by
 * literal and number by number, instead of with regular expressions, and create strings only for
 * the parts they keep. Reused from line to line.
 *
 * <pre>{@code
 * Scan s = new Scan().set(buf, start, end);
 * if (s.skip(Scan.lit("Got job "))) { long job = s.number(); }
 * }</pre>
 */
final class Scan {
  byte[] b;
  int pos;
  int end;

  /** The bytes of an ASCII literal. */
  static byte[] lit(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  Scan set(byte[] bytes, int from, int to) {
    this.b = bytes;
    this.pos = from;
    this.end = to;
    return this;
  }

  boolean atEnd() {
    return pos >= end;
  }

  /** Whether {@code lit} is at the cursor. */
  boolean at(byte[] lit) {
    return at(pos, lit);
  }

  boolean at(int p, byte[] lit) {
    if (p < 0 || p + lit.length > end) {
      return false;
    }
    for (int i = 0; i < lit.length; i++) {
      if (b[p + i] != lit[i]) {
        return false;
      }
    }
    return true;
  }

  /** Moves past {@code lit} when it is at the cursor. */
  boolean skip(byte[] lit) {
    if (at(lit)) {
      pos += lit.length;
      return true;
    }
    return false;
  }

  boolean skip(char c) {
    if (pos < end && b[pos] == c) {
      pos++;
      return true;
    }
    return false;
  }

  void skipSpaces() {
    while (pos < end && (b[pos] == ' ' || b[pos] == '\t')) {
      pos++;
    }
  }

  /** The first position of {@code lit} at or after {@code from}, or -1. */
  int indexOf(byte[] lit, int from) {
    int last = end - lit.length;
    byte first = lit[0];
    for (int i = Math.max(from, 0); i <= last; i++) {
      if (b[i] == first && at(i, lit)) {
        return i;
      }
    }
    return -1;
  }

  /** The last position of {@code lit} at or after the cursor, or -1. */
  int lastIndexOf(byte[] lit) {
    for (int i = end - lit.length; i >= pos; i--) {
      if (b[i] == lit[0] && at(i, lit)) {
        return i;
      }
    }
    return -1;
  }

  int indexOf(char c, int from) {
    for (int i = Math.max(from, 0); i < end; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** Moves past the next {@code lit}; false (cursor unchanged) when there is none. */
  boolean find(byte[] lit) {
    int i = indexOf(lit, pos);
    if (i < 0) {
      return false;
    }
    pos = i + lit.length;
    return true;
  }

  /** The decimal digits at the cursor as a number (moving past them), or -1 when there are none. */
  long number() {
    long v = 0;
    int start = pos;
    while (pos < end && b[pos] >= '0' && b[pos] <= '9' && pos - start < 18) {
      v = v * 10 + (b[pos] - '0');
      pos++;
    }
    return pos == start ? -1 : v;
  }

  /** As {@link #number()}, for a value that must fit an int; -1 when there is none. */
  int integer() {
    long v = number();
    return v > Integer.MAX_VALUE ? -1 : (int) v;
  }

  /** A decimal such as {@code 0.408} or {@code 7450} at the cursor (moving past it), or NaN. */
  double decimal() {
    int start = pos;
    long whole = number();
    if (whole < 0) {
      pos = start;
      return Double.NaN;
    }
    double v = whole;
    if (pos < end && b[pos] == '.') {
      pos++;
      double scale = 0.1;
      while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
        v += (b[pos] - '0') * scale;
        scale /= 10;
        pos++;
      }
    }
    return v;
  }

  /** The text from the cursor to the next {@code c} (moving past it), or null when there is none. */
  String until(char c) {
    int i = indexOf(c, pos);
    if (i < 0) {
      return null;
    }
    String s = text(pos, i);
    pos = i + 1;
    return s;
  }

  /** The text from the cursor to the next {@code lit} (moving past it), or null when there is none. */
  String until(byte[] lit) {
    int i = indexOf(lit, pos);
    if (i < 0) {
      return null;
    }
    String s = text(pos, i);
    pos = i + lit.length;
    return s;
  }

  /** The text from the cursor to the end of the line. */
  String rest() {
    String s = text(pos, end);
    pos = end;
    return s;
  }

  String text(int from, int to) {
    return new String(b, from, Math.max(0, to - from), StandardCharsets.UTF_8);
  }

  /**
   * A size as Spark's {@code Utils.bytesToString} writes it ({@code 1.2 GiB}, {@code 512.0 B},
   * {@code 64.0 KB}), in bytes (rounded as the text rounds it), or -1 when there is none at the cursor.
   */
  long size() {
    int start = pos;
    double v = decimal();
    if (Double.isNaN(v)) {
      return -1;
    }
    skipSpaces();
    long unit;
    if (pos < end) {
      switch (b[pos]) {
        case 'B' -> unit = 1;
        case 'K', 'k' -> unit = 1L << 10;
        case 'M' -> unit = 1L << 20;
        case 'G' -> unit = 1L << 30;
        case 'T' -> unit = 1L << 40;
        case 'P' -> unit = 1L << 50;
        case 'E' -> unit = 1L << 60;
        default -> unit = -1;
      }
    } else {
      unit = -1;
    }
    if (unit < 0) {
      pos = start;
      return -1;
    }
    while (pos < end && Character.isLetter(b[pos])) {
      pos++;
    }
    return (long) (v * unit);
  }
}
