package io.sparkrca.core.evidence.internal;

import io.sparkrca.core.evidence.LogTime;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads the time at the start of a log line, in the layouts Spark's logs use: log4j's default
 * {@code yy/MM/dd HH:mm:ss}, ISO-8601 with a space or a {@code T}, a comma or a dot before the
 * milliseconds, and an optional {@code Z} or offset (Cloud Logging, Kubernetes, structured logs).
 * No allocation for lines that do not start with a digit.
 */
public final class LogTimes {
  private LogTimes() {}

  public static Optional<LogTime> parse(String line) {
    if (line.length() < 17 || !Character.isDigit(line.charAt(0))) {
      return Optional.empty();
    }
    try {
      // yy/MM/dd HH:mm:ss
      if (line.charAt(2) == '/' && line.charAt(5) == '/' && line.charAt(8) == ' ' && line.charAt(11) == ':') {
        LocalDateTime t = LocalDateTime.of(2000 + num(line, 0, 2), num(line, 3, 5), num(line, 6, 8),
            num(line, 9, 11), num(line, 12, 14), num(line, 15, 17));
        return Optional.of(new LogTime(t, Optional.empty()));
      }
      // yyyy-MM-dd[ T]HH:mm:ss[.,SSS][Z|+hh:mm]
      if (line.length() >= 19 && line.charAt(4) == '-' && line.charAt(7) == '-'
          && (line.charAt(10) == ' ' || line.charAt(10) == 'T') && line.charAt(13) == ':') {
        int nanos = 0;
        int i = 19;
        if (i < line.length() && (line.charAt(i) == '.' || line.charAt(i) == ',')) {
          int start = ++i;
          while (i < line.length() && Character.isDigit(line.charAt(i)) && i - start < 9) {
            i++;
          }
          String frac = (line.substring(start, i) + "000000000").substring(0, 9);
          nanos = Integer.parseInt(frac);
        }
        LocalDateTime t = LocalDateTime.of(num(line, 0, 4), num(line, 5, 7), num(line, 8, 10),
            num(line, 11, 13), num(line, 14, 16), num(line, 17, 19), nanos);
        Optional<ZoneOffset> offset = Optional.empty();
        if (i < line.length() && line.charAt(i) == 'Z') {
          offset = Optional.of(ZoneOffset.UTC);
        } else if (i + 1 < line.length() && (line.charAt(i) == '+' || line.charAt(i) == '-')
            && Character.isDigit(line.charAt(i + 1))) {
          int end = i + 1;
          while (end < line.length() && (Character.isDigit(line.charAt(end)) || line.charAt(end) == ':')) {
            end++;
          }
          String o = line.substring(i, end);
          if (o.length() == 5 && o.indexOf(':') < 0) {
            o = o.substring(0, 3) + ":" + o.substring(3);
          }
          offset = Optional.of(ZoneOffset.of(o));
        }
        return Optional.of(new LogTime(t, offset));
      }
    } catch (RuntimeException e) {
      // Digits where a date would be but not a date (DateTimeException, NumberFormatException):
      // the line carries no usable time.
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static int num(String s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new DateTimeParseException("not a digit", s, i);
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
