package io.sparkrca.core.logs.replay.internal;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * Reads the time at the start of a line's header, from its bytes: log4j's default {@code
 * yy/MM/dd HH:mm:ss}, ISO-8601 with a space, a {@code T} or Airflow's {@code ", "} between date
 * and time, a comma or a dot before up to nine fraction digits, and an optional {@code Z}, offset
 * or {@code UTC}; {@code yyyy/MM/dd HH:mm:ss}; and a bare {@code HH:mm:ss.SSS} (a header, but no
 * date). Times without a zone are in the zone given (the writing JVM's, which the line does not
 * say). Consecutive lines share their second, so the last second's conversion is cached.
 *
 * <pre>{@code
 * TimeParser t = new TimeParser(ZoneOffset.UTC);
 * int after = t.parse(buf, start, end);   // -1: no time here
 * long epochMs = t.millis();              // NO_TIME for a time without a date
 * }</pre>
 */
final class TimeParser {
  /** The value of {@link #millis()} when the header has a time of day but no date. */
  static final long NO_TIME = Long.MIN_VALUE;

  /** Which layout the last parse read, for naming a log's layout. */
  enum Kind {
    SLASHED_SHORT("yy/MM/dd HH:mm:ss"),
    SLASHED_LONG("yyyy/MM/dd HH:mm:ss"),
    ISO("yyyy-MM-dd HH:mm:ss"),
    ISO_T("yyyy-MM-ddTHH:mm:ss"),
    AIRFLOW("yyyy-MM-dd, HH:mm:ss"),
    TIME_ONLY("HH:mm:ss");

    final String pattern;

    Kind(String pattern) {
      this.pattern = pattern;
    }
  }

  private final ZoneRules rules;
  private long millis;
  private Kind kind;
  private long cachedKey = Long.MIN_VALUE;
  private long cachedEpochSecond;
  private int nanos;
  // The date and time (to the second, without a zone) of the last line read, as bytes, and its
  // value: most lines share their second with the line before, and are read by comparing bytes.
  private final byte[] prefix = new byte[32];
  private int prefixLength;
  private long prefixMillis;
  private Kind prefixKind;

  TimeParser(ZoneId zone) {
    this.rules = zone.getRules();
  }

  long millis() {
    return millis;
  }

  Kind kind() {
    return kind;
  }

  /** Parses a time at {@code p}; returns the position after it, or -1 when none is there. */
  int parse(byte[] b, int p, int end) {
    if (end - p < 8 || !digit(b, p)) {
      return -1;
    }
    if (prefixLength > 0 && end - p >= prefixLength && java.util.Arrays.equals(prefix, 0, prefixLength, b, p, p + prefixLength)) {
      nanos = 0;
      int q = fraction(b, p + prefixLength, end);
      if (!zoneAt(b, q, end)) {
        millis = prefixMillis + nanos / 1_000_000;
        kind = prefixKind;
        return q;
      }
    }
    if (end - p >= 17 && b[p + 2] == '/' && b[p + 5] == '/' && b[p + 8] == ' ' && b[p + 11] == ':' && b[p + 14] == ':') {
      kind = Kind.SLASHED_SHORT;
      return dateTime(b, p, p + 17, end, 2000 + num(b, p, 2), num(b, p + 3, 2), num(b, p + 6, 2),
          num(b, p + 9, 2), num(b, p + 12, 2), num(b, p + 15, 2));
    }
    if (end - p >= 19 && (b[p + 4] == '-' || b[p + 4] == '/') && b[p + 7] == b[p + 4]) {
      int t = p + 10;
      byte sep = b[t];
      if (sep == ',' && t + 1 < end && b[t + 1] == ' ') {
        kind = Kind.AIRFLOW;
        t++;
      } else if (sep == 'T') {
        kind = Kind.ISO_T;
      } else if (sep == ' ') {
        kind = b[p + 4] == '/' ? Kind.SLASHED_LONG : Kind.ISO;
      } else {
        return -1;
      }
      if (t + 9 > end || b[t + 3] != ':' || b[t + 6] != ':') {
        return -1;
      }
      return dateTime(b, p, t + 9, end, num(b, p, 4), num(b, p + 5, 2), num(b, p + 8, 2),
          num(b, t + 1, 2), num(b, t + 4, 2), num(b, t + 7, 2));
    }
    if (b[p + 2] == ':' && b[p + 5] == ':' && num(b, p, 2) >= 0 && num(b, p + 3, 2) >= 0 && num(b, p + 6, 2) >= 0) {
      kind = Kind.TIME_ONLY;
      int q = fraction(b, p + 8, end);
      millis = NO_TIME;
      return q;
    }
    return -1;
  }

  /** Reads the fraction and zone after the seconds (which end at {@code q}), and converts. */
  private int dateTime(byte[] b, int p, int q, int end, int y, int mo, int d, int h, int mi, int s) {
    if ((y | mo | d | h | mi | s) < 0) {
      return -1;
    }
    int seconds = q;
    nanos = 0;
    q = fraction(b, q, end);
    int offsetSeconds = Integer.MIN_VALUE;
    if (q < end && b[q] == 'Z') {
      offsetSeconds = 0;
      q++;
    } else if (q + 2 < end && (b[q] == '+' || b[q] == '-') && digit(b, q + 1) && digit(b, q + 2)) {
      int sign = b[q] == '-' ? -1 : 1;
      int oh = num(b, q + 1, 2);
      int om = 0;
      int r = q + 3;
      if (r < end && b[r] == ':') {
        r++;
      }
      if (r + 1 < end && digit(b, r) && digit(b, r + 1)) {
        om = num(b, r, 2);
        r += 2;
      }
      offsetSeconds = sign * (oh * 3600 + om * 60);
      q = r;
    } else if (q + 3 < end && b[q] == ' ' && b[q + 1] == 'U' && b[q + 2] == 'T' && b[q + 3] == 'C') {
      offsetSeconds = 0;
      q += 4;
    }
    long key = ((((((long) y * 13 + mo) * 32 + d) * 24 + h) * 60 + mi) * 60 + s) * 100_000L
        + (offsetSeconds == Integer.MIN_VALUE ? 99_999 : offsetSeconds / 60 + 50_000);
    if (key != cachedKey) {
      try {
        LocalDateTime t = LocalDateTime.of(y, mo, d, h, mi, s);
        ZoneOffset offset = offsetSeconds == Integer.MIN_VALUE ? rules.getOffset(t) : ZoneOffset.ofTotalSeconds(offsetSeconds);
        cachedEpochSecond = t.toEpochSecond(offset);
        cachedKey = key;
      } catch (DateTimeException e) {
        return -1; // digits where a date would be, but not a date: no header
      }
    }
    millis = cachedEpochSecond * 1000 + nanos / 1_000_000;
    if (offsetSeconds == Integer.MIN_VALUE && seconds - p <= prefix.length) {
      prefixLength = seconds - p;
      System.arraycopy(b, p, prefix, 0, prefixLength);
      prefixMillis = cachedEpochSecond * 1000;
      prefixKind = kind;
    }
    return q;
  }

  /** Whether a zone ({@code Z}, an offset, {@code UTC}) is written at {@code q}. */
  private static boolean zoneAt(byte[] b, int q, int end) {
    if (q >= end) {
      return false;
    }
    byte c = b[q];
    return c == 'Z' || (c == '+' || c == '-') && q + 1 < end && digit(b, q + 1)
        || c == ' ' && q + 3 < end && b[q + 1] == 'U' && b[q + 2] == 'T' && b[q + 3] == 'C';
  }

  /** Skips {@code [.,]digits} at {@code q}; their value in nanoseconds goes to {@link #nanos}. */
  private int fraction(byte[] b, int q, int end) {
    if (q + 1 < end && (b[q] == '.' || b[q] == ',') && digit(b, q + 1)) {
      int r = q + 1;
      int v = 0;
      int digits = 0;
      while (r < end && digit(b, r)) {
        if (digits < 9) {
          v = v * 10 + (b[r] - '0');
          digits++;
        }
        r++;
      }
      for (int i = digits; i < 9; i++) {
        v *= 10;
      }
      nanos = v;
      return r;
    }
    return q;
  }

  private static boolean digit(byte[] b, int i) {
    return b[i] >= '0' && b[i] <= '9';
  }

  /** The number of {@code n} digits at {@code p}, or -1 when one is not a digit. */
  private static int num(byte[] b, int p, int n) {
    int v = 0;
    for (int i = p; i < p + n; i++) {
      if (!digit(b, i)) {
        return -1;
      }
      v = v * 10 + (b[i] - '0');
    }
    return v;
  }
}
