package io.sparkrca.core.logs.replay.internal;

/**
 * Log levels, read from a header's bytes or a JSON field and normalised to log4j's names (the same
 * string instances, so they compare with {@code ==}): {@code WARNING} is WARN, {@code SEVERE},
 * {@code CRITICAL} and Cloud Logging's {@code ALERT} and {@code EMERGENCY} are ERROR or FATAL,
 * {@code DEFAULT} and {@code NOTICE} are INFO.
 *
 * <pre>{@code
 * String level = Levels.at(buf, p, end); // null: no level here
 * }</pre>
 */
final class Levels {
  static final String TRACE = "TRACE";
  static final String DEBUG = "DEBUG";
  static final String INFO = "INFO";
  static final String WARN = "WARN";
  static final String ERROR = "ERROR";
  static final String FATAL = "FATAL";

  private Levels() {}

  /** The level written at {@code p} and ended by a space, a tab, {@code ]} or the line end; null when there is none. */
  static String at(byte[] b, int p, int end) {
    int q = p;
    while (q < end && q - p < 10 && b[q] >= 'A' && b[q] <= 'Z') {
      q++;
    }
    if (q == p || q < end && b[q] != ' ' && b[q] != ']' && b[q] != '\t') {
      return null;
    }
    return named(b, p, q - p);
  }

  /** A level named in any case (a JSON field), or INFO when the name is not one. */
  static String of(String name) {
    if (name == null || name.isEmpty()) {
      return INFO;
    }
    byte[] upper = name.toUpperCase(java.util.Locale.ROOT).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    String l = named(upper, 0, upper.length);
    return l == null ? INFO : l;
  }

  private static String named(byte[] b, int p, int n) {
    switch (n) {
      case 4:
        // INFO and WARN: most headers; told apart by their first byte
        if (b[p] == 'I') {
          return b[p + 1] == 'N' && b[p + 2] == 'F' && b[p + 3] == 'O' ? INFO : null;
        }
        return b[p] == 'W' && b[p + 1] == 'A' && b[p + 2] == 'R' && b[p + 3] == 'N' ? WARN : null;
      case 5:
        if (is(b, p, "ERROR")) {
          return ERROR;
        }
        if (is(b, p, "DEBUG")) {
          return DEBUG;
        }
        if (is(b, p, "TRACE")) {
          return TRACE;
        }
        if (is(b, p, "FATAL") || is(b, p, "ALERT")) {
          return FATAL;
        }
        return null;
      case 6:
        if (is(b, p, "SEVERE")) {
          return ERROR;
        }
        return is(b, p, "NOTICE") ? INFO : null;
      case 7:
        if (is(b, p, "WARNING")) {
          return WARN;
        }
        return is(b, p, "DEFAULT") ? INFO : null;
      case 8:
        return is(b, p, "CRITICAL") ? FATAL : null;
      case 9:
        return is(b, p, "EMERGENCY") ? FATAL : null;
      default:
        return null;
    }
  }

  private static boolean is(byte[] b, int p, String s) {
    // the names are ASCII: compare their chars with the bytes without making the name's bytes
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (b[p + i] != (byte) s.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
