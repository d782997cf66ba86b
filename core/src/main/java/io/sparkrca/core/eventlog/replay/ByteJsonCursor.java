package io.sparkrca.core.eventlog.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A cursor over one line of JSON bytes for {@link TaskEventScanner}: whitespace, punctuation,
 * integers, literals, plain strings, and a validating skip of any value. It accepts a strict
 * subset of what Jackson accepts and {@linkplain #decline() declines} everything else, so that a
 * line it accepts means the same to Jackson:
 *
 * <ul>
 *   <li>strings hold printable ASCII only: no escapes, no control characters, no bytes of 0x80 or
 *       more (so the bytes are the text, with no decoding and no UTF-8 validation to repeat);
 *   <li>numbers follow JSON's grammar exactly; values that are read must be integers of at most
 *       18 digits (so they never overflow a long);
 *   <li>nesting deeper than {@link #MAX_DEPTH} is declined.
 * </ul>
 *
 * <p>Declining throws a shared exception without a stack trace; the caller catches it and falls
 * back to Jackson. Nothing is allocated on the accepted path.
 */
final class ByteJsonCursor {
  /** Thrown to abandon a line; preallocated and without a stack trace, so cheap to throw. */
  static final class Decline extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private Decline() {
      super("declined", null, false, false);
    }
  }

  static final Decline DECLINE = new Decline();
  static final int MAX_DEPTH = 64;
  /** Longest number text accepted anywhere (Jackson's own limit here is 1000). */
  private static final int MAX_NUMBER_CHARS = 100;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long QUOTES = 0x2222222222222222L;
  private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
  private static final long SPACES = 0x2020202020202020L;

  byte[] b;
  int p;
  int end;

  void reset(byte[] buf, int start, int limit) {
    b = buf;
    p = start;
    end = limit;
  }

  static Decline decline() {
    return DECLINE;
  }

  /** Skips JSON whitespace; returns the byte at the cursor, or -1 at the end. */
  int ws() {
    int i = p;
    while (i < end) {
      byte c = b[i];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
      } else {
        p = i;
        return c;
      }
    }
    p = i;
    return -1;
  }

  /** Consumes {@code c}, after optional whitespace; declines if something else is there. */
  void expect(char c) {
    if (p < end && b[p] == c) {
      p++;
      return;
    }
    if (ws() != c) {
      throw DECLINE;
    }
    p++;
  }

  /**
   * After the opening brace of an object: whether a member follows (the cursor is then at its
   * key's quote) or the object is empty (its closing brace consumed).
   */
  boolean firstMember() {
    int c = ws();
    if (c == '}') {
      p++;
      return false;
    }
    if (c != '"') {
      throw DECLINE;
    }
    return true;
  }

  /**
   * After a member's value: whether another member follows (comma consumed, the cursor at the
   * next key's quote) or the object ended (brace consumed).
   */
  boolean nextMember() {
    int c = p < end ? b[p] : -1;
    if (c != ',' && c != '}') {
      c = ws();
    }
    p++;
    if (c == ',') {
      if (ws() != '"') {
        throw DECLINE;
      }
      return true;
    }
    if (c == '}') {
      return false;
    }
    throw DECLINE;
  }

  /** After the opening bracket of an array: whether an element follows (cursor at it). */
  boolean firstElement() {
    int c = ws();
    if (c == ']') {
      p++;
      return false;
    }
    if (c < 0) {
      throw DECLINE;
    }
    return true;
  }

  /** After an array element: whether another follows (cursor at it) or the array ended. */
  boolean nextElement() {
    int c = ws();
    p++;
    if (c == ',') {
      if (ws() < 0) {
        throw DECLINE;
      }
      return true;
    }
    if (c == ']') {
      return false;
    }
    throw DECLINE;
  }

  /** Whether the value at the cursor (after whitespace) is {@code null}; consumes it if so. */
  boolean nullValue() {
    int c = ws();
    if (c == 'n') {
      literal(NULL);
      return true;
    }
    return false;
  }

  // The literals' first four bytes as one little-endian int, compared with a single load: they
  // are read a few times per task (flags of every accumulable and task), where a call to
  // Arrays.equals cost more than the comparison.
  private static final int NULL = word('n', 'u', 'l', 'l');
  private static final int TRUE = word('t', 'r', 'u', 'e');
  private static final int FALSE = word('f', 'a', 'l', 's');

  private static int word(char a, char b, char c, char d) {
    return a | b << 8 | c << 16 | d << 24;
  }

  /** Consumes the four-byte literal {@code word} ({@code FALSE} also takes its final 'e'). */
  private void literal(int word) {
    int n = word == FALSE ? 5 : 4;
    if (p + n > end || (int) INTS.get(b, p) != word || (n == 5 && b[p + 4] != 'e')) {
      throw DECLINE;
    }
    p += n;
    // What follows must end the token ("nullx" is not null); the caller checks the punctuation.
  }

  /** Reads {@code true} or {@code false}. */
  boolean bool() {
    int c = ws();
    if (c == 't') {
      literal(TRUE);
      return true;
    }
    if (c == 'f') {
      literal(FALSE);
      return false;
    }
    throw DECLINE;
  }

  /** What {@link #scalar()} read: a string. */
  static final int STRING = 1;
  /** What {@link #scalar()} read: an integer of at most 18 digits, its value in {@link #integer}. */
  static final int INTEGER = 2;
  /** What {@link #scalar()} read: any other number (a fraction, an exponent, 19 digits or more). */
  static final int NUMBER = 3;
  /** What {@link #scalar()} read: {@code true}, {@code false} or {@code null}. */
  static final int LITERAL = 4;

  /** The value of the last {@link #INTEGER} that {@link #scalar()} read. */
  long integer;
  /** Where the last {@link #scalar()} started (a string's opening quote). */
  int scalarStart;
  /** For the last {@link #STRING}: the index of its closing quote. */
  int scalarClose;

  /**
   * Reads the scalar at the cursor (no whitespace before it) and moves past it: a string of
   * printable ASCII without escapes, a number as JSON's grammar writes it, or a literal. Declines
   * anything else (an escape, a control character or a non-ASCII byte in a string, malformed
   * numbers and literals, a number of more than {@link #MAX_NUMBER_CHARS} characters).
   *
   * <p>One method for every kind on purpose: it is larger than what the JIT compiler inlines, so
   * it is compiled once and called from the scanner's many read sites. Inlined into each of them
   * (as {@code integer()} and {@code string()} were), the same loops were compiled dozens of times
   * over, which made the compiler's warm-up, a large part of a replay that lasts seconds, about
   * a CPU second longer; the calls cost nothing measurable once compiled.
   */
  int scalar() {
    int start = p;
    if (start >= end) {
      throw DECLINE;
    }
    scalarStart = start;
    byte first = b[start];
    if (first == '"') {
      int i = start + 1;
      for (int last = end - 8; i <= last; i += 8) {
        long w = (long) LONGS.get(b, i);
        long q = w ^ QUOTES;
        long s = w ^ BACKSLASHES;
        // Bit 7 of a byte is set where it is '"', '\\', below 0x20, or 0x80 and above (borrows
        // can only flag bytes above a real hit, so the lowest flagged byte is a real one).
        long hit = ((q - ONES) & ~q | (s - ONES) & ~s | (w - SPACES) | w) & HIGHS;
        if (hit != 0) {
          i += Long.numberOfTrailingZeros(hit) >>> 3;
          if (b[i] != '"') {
            throw DECLINE;
          }
          scalarClose = i;
          p = i + 1;
          return STRING;
        }
      }
      for (; i < end; i++) {
        byte c = b[i];
        if (c == '"') {
          scalarClose = i;
          p = i + 1;
          return STRING;
        }
        if (c < 0x20 || c == '\\') { // negative bytes are 0x80 and above
          throw DECLINE;
        }
      }
      throw DECLINE;
    }
    if (first == 't') {
      literal(TRUE);
      return LITERAL;
    }
    if (first == 'f') {
      literal(FALSE);
      return LITERAL;
    }
    if (first == 'n') {
      literal(NULL);
      return LITERAL;
    }
    // A number: an optional minus, 0 or digits without a leading zero, an optional fraction, an
    // optional exponent.
    int i = first == '-' ? start + 1 : start;
    if (i >= end) {
      throw DECLINE;
    }
    int digitsFrom = i;
    long v = 0;
    byte d = b[i];
    if (d == '0') {
      i++;
    } else if (d >= '1' && d <= '9') {
      do {
        v = v * 10 + (d - '0');
        i++;
      } while (i < end && (d = b[i]) >= '0' && d <= '9');
    } else {
      throw DECLINE;
    }
    boolean integral = i - digitsFrom <= 18;
    if (i < end && b[i] == '.') {
      int f = digits(i + 1);
      if (f == i + 1) {
        throw DECLINE;
      }
      i = f;
      integral = false;
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int x = digits(i);
      if (x == i) {
        throw DECLINE;
      }
      i = x;
      integral = false;
    }
    if (i - start > MAX_NUMBER_CHARS) {
      throw DECLINE;
    }
    p = i;
    if (integral) {
      integer = first == '-' ? -v : v;
      return INTEGER;
    }
    return NUMBER;
  }

  /**
   * Reads an integer: an optional minus and 1 to 18 digits without a leading zero. A fraction or
   * exponent, or anything longer, declines (Jackson would read it as a double and cast).
   */
  long integer() {
    if (scalar() != INTEGER) {
      throw DECLINE;
    }
    return integer;
  }

  /** {@link #integer()} after optional whitespace. */
  long integerValue() {
    if (p >= end || b[p] < '-') {
      ws();
    }
    return integer();
  }

  /**
   * With the cursor at an opening quote, finds the closing one and moves past it; returns the index
   * of the closing quote (the text is {@code b[start + 1, result)}). Declines on an escape, a
   * control character or a non-ASCII byte. Eight bytes are tested at a time.
   */
  int string() {
    if (scalar() != STRING) {
      throw DECLINE;
    }
    return scalarClose;
  }

  /** Whether the last {@link #escapedString()} held escapes. */
  boolean escaped;

  /**
   * As {@link #string()}, but accepting JSON's escapes ({@code \" \\ \/ \b \f \n \r \t} and
   * {@code \}{@code uXXXX}), which are checked and noted in {@link #escaped}; the text then needs
   * {@link #decode}. Control characters and non-ASCII bytes still decline.
   */
  int escapedString() {
    escaped = false;
    int i = p + 1;
    while (true) {
      for (int last = end - 8; i <= last; i += 8) {
        long w = (long) LONGS.get(b, i);
        long q = w ^ QUOTES;
        long s = w ^ BACKSLASHES;
        long hit = ((q - ONES) & ~q | (s - ONES) & ~s | (w - SPACES) | w) & HIGHS;
        if (hit != 0) {
          i += Long.numberOfTrailingZeros(hit) >>> 3;
          break;
        }
      }
      while (i < end && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\') {
        i++;
      }
      if (i >= end) {
        throw DECLINE;
      }
      byte c = b[i];
      if (c == '"') {
        p = i + 1;
        return i;
      }
      if (c != '\\') {
        throw DECLINE; // a control character or a non-ASCII byte
      }
      escaped = true;
      i = escapeEnd(i);
    }
  }

  /** With {@code b[i]} a backslash: the index after its escape, which must be valid. */
  private int escapeEnd(int i) {
    if (i + 1 >= end) {
      throw DECLINE;
    }
    switch (b[i + 1]) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        return i + 2;
      case 'u':
        if (i + 6 > end) {
          throw DECLINE;
        }
        for (int k = i + 2; k < i + 6; k++) {
          if (Character.digit(b[k], 16) < 0) {
            throw DECLINE;
          }
        }
        return i + 6;
      default:
        throw DECLINE;
    }
  }

  /** The text of the string {@code b[from, to)} (between its quotes), escapes decoded. */
  String decode(int from, int to) {
    StringBuilder sb = new StringBuilder(to - from);
    for (int i = from; i < to; i++) {
      char c = (char) b[i];
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = (char) b[++i];
      switch (e) {
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'n':
          sb.append('\n');
          break;
        case 'r':
          sb.append('\r');
          break;
        case 't':
          sb.append('\t');
          break;
        case 'u':
          sb.append((char) Integer.parseInt(new String(b, i + 1, 4, java.nio.charset.StandardCharsets.US_ASCII), 16));
          i += 4;
          break;
        default: // '"', '\\', '/'
          sb.append(e);
      }
    }
    return sb.toString();
  }

  /**
   * Skips the value at the cursor (after whitespace), checking it is well-formed JSON within this
   * cursor's limits.
   */
  void skipValue() {
    skipValue(0);
  }

  private void skipValue(int depth) {
    int c = ws();
    switch (c) {
      case '{':
        if (depth >= MAX_DEPTH) {
          throw DECLINE;
        }
        p++;
        if (firstMember()) {
          do {
            string();
            expect(':');
            skipValue(depth + 1);
          } while (nextMember());
        }
        return;
      case '[':
        if (depth >= MAX_DEPTH) {
          throw DECLINE;
        }
        p++;
        if (firstElement()) {
          do {
            skipValue(depth + 1);
          } while (nextElement());
        }
        return;
      default:
        if (c < 0) {
          throw DECLINE;
        }
        scalar();
    }
  }

  /**
   * Skips a number written exactly as JSON's grammar says; returns its start. Its text (Jackson's
   * {@code getText()} of a number token) is {@code b[result, p)}.
   */
  int number() {
    int k = scalar();
    if (k != INTEGER && k != NUMBER) {
      throw DECLINE;
    }
    return scalarStart;
  }

  private int digits(int i) {
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i;
  }

  /** Whether only whitespace is left. */
  boolean atEnd() {
    return ws() < 0;
  }
}
