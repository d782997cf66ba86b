package io.sparkrca.inspector;

import java.util.Locale;

/** Formatting helpers shared by the renderers. */
final class Texts {
  private Texts() {}

  /** {@code 1,234}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 12.3 MiB (12,897,484 bytes)} style, short form: {@code 12.3 MiB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** {@code n noun} with a plural s when n != 1. */
  static String plural(long n, String noun) {
    if (n == 1) {
      return count(n) + " " + noun;
    }
    if (noun.endsWith("y") && noun.length() > 1 && "aeiou".indexOf(noun.charAt(noun.length() - 2)) < 0) {
      return count(n) + " " + noun.substring(0, noun.length() - 1) + "ies";
    }
    return count(n) + " " + noun + (noun.endsWith("s") ? "es" : "s");
  }

  /**
   * Makes archive-controlled text safe for a terminal: control characters (ESC sequences, NUL,
   * carriage returns) become visible {@code \\uXXXX} escapes; tabs are kept.
   */
  static String safe(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean control = (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f)
          || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
          || (c >= '\u2066' && c <= '\u2069');
      if (control) {
        if (b == null) {
          b = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else if (b != null) {
        b.append(c);
      }
    }
    return b == null ? s : b.toString();
  }

  /** A Java string literal: quoted, escaped, cut after {@code max} characters. */
  static String quote(String s, int max) {
    StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 8).append('"');
    int n = Math.min(s.length(), max);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= '\u2028' && c <= '\u202e')
              || (c >= '\u2066' && c <= '\u2069') || Character.isSurrogate(c)
                  && !(Character.isHighSurrogate(c) && i + 1 < n
                      && Character.isLowSurrogate(s.charAt(i + 1)))
                  && !(Character.isLowSurrogate(c) && i > 0
                      && Character.isHighSurrogate(s.charAt(i - 1)))) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
    if (s.length() > max) {
      b.append("...(").append(count(s.length() - max)).append(" more chars)");
    }
    return b.toString();
  }

  /**
   * Redacts secrets with the standard {@link io.sparkrca.core.redaction.Redactor}, exactly as
   * script text is: every literal goes through it (the redactor has its own cheap gate), since a
   * token needs no {@code key=} beside it to be a secret (an AWS key id, a GitHub token, a JWT).
   */
  static String redact(String s) {
    return io.sparkrca.core.redaction.Redactor.standard().redactText(s);
  }

  /** {@code s} padded with spaces on the left to {@code width}. */
  static void padLeft(StringBuilder b, String s, int width) {
    for (int i = s.length(); i < width; i++) {
      b.append(' ');
    }
    b.append(s);
  }

  /** Printable ASCII preview of the first bytes of a file, for error messages. */
  static String preview(byte[] head) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(head.length, 8); i++) {
      int c = head[i] & 0xff;
      b.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format(Locale.ROOT, "\\x%02x", c));
    }
    return b.toString();
  }
}
