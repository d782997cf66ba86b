package io.sparkrca.core.format;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Human formats shared by every report, matching the Python troubleshooting tools' output (Python's
 * half-even rounding, not Java's half-up): {@code humanBytes(1536) == "1.5 KiB"}, {@code
 * humanMillis(90000) == "1.5 min"}.
 *
 * <pre>{@code
 * String size = Formats.humanBytes(stage.diskBytesSpilled());
 * }</pre>
 */
public final class Formats {
  private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

  private Formats() {}

  /** Bytes in binary units; negative (Spark's "unavailable") is {@code n/a}. */
  public static String humanBytes(double n) {
    if (n < 0) {
      return "n/a";
    }
    int unit = 0;
    while (n >= 1024 && unit < UNITS.length - 1) {
      n /= 1024;
      unit++;
    }
    return unit == 0 ? fixed(n, 0) + " B" : fixed(n, 1) + " " + UNITS[unit];
  }

  /** Milliseconds as ms, s or min; negative is {@code n/a}. */
  public static String humanMillis(double ms) {
    if (ms < 0) {
      return "n/a";
    }
    if (ms < 1000) {
      return fixed(ms, 0) + " ms";
    }
    if (ms < 60000) {
      return fixed(ms / 1000, 1) + " s";
    }
    return fixed(ms / 60000, 1) + " min";
  }

  /** {@code value} with {@code decimals} digits, rounded half-even on the exact binary value. */
  public static String fixed(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return Double.toString(value);
    }
    if (decimals >= 0 && decimals < POWERS.length) {
      // Reports format thousands of numbers: away from a tie, rounding the scaled double gives the
      // digits the exact expansion would (its error is far below the margin kept), without BigDecimal.
      double scaled = value * POWERS[decimals];
      if (Math.abs(scaled) < 1e12) {
        double floor = Math.floor(scaled);
        double fraction = scaled - floor;
        if (Math.abs(fraction - 0.5) > 1e-3) {
          return plain((long) floor + (fraction > 0.5 ? 1 : 0), decimals);
        }
      }
    }
    return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  private static final double[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

  /** {@code units / 10^decimals} as BigDecimal's plain string writes it (no sign for zero). */
  private static String plain(long units, int decimals) {
    String digits = Long.toString(Math.abs(units));
    StringBuilder out = new StringBuilder(digits.length() + decimals + 3);
    if (units < 0) {
      out.append('-');
    }
    if (decimals == 0) {
      return out.append(digits).toString();
    }
    if (digits.length() <= decimals) {
      out.append("0.");
      out.append("0".repeat(decimals - digits.length())).append(digits);
      return out.toString();
    }
    int point = digits.length() - decimals;
    return out.append(digits, 0, point).append('.').append(digits, point, digits.length()).toString();
  }

  /**
   * A count and its noun, agreeing in number: {@code count(1, "stage") == "1 stage"}, {@code
   * count(3, "task attempt") == "3 task attempts"}, {@code count(0, "executor") == "0 executors"}.
   * The plural is the English regular one ({@link #plural}); give it for an irregular noun.
   */
  public static String count(long n, String singular) {
    return n + " " + noun(n, singular);
  }

  /** A count and its noun, with the plural given: {@code count(2, "child", "children") == "2 children"}. */
  public static String count(long n, String singular, String plural) {
    return n + " " + (n == 1 ? singular : plural);
  }

  /** The noun as {@code n} of it reads: {@code noun(1, "stage") == "stage"}, {@code noun(2, "stage") == "stages"}. */
  public static String noun(long n, String singular) {
    return n == 1 ? singular : plural(singular);
  }

  /**
   * The regular English plural of a noun (of its last word): {@code stage} → {@code stages},
   * {@code class} → {@code classes}, {@code retry} → {@code retries}; reports never write {@code stage(s)}.
   */
  public static String plural(String singular) {
    String s = singular;
    if (s.endsWith("s") || s.endsWith("x") || s.endsWith("ch") || s.endsWith("sh")) {
      return s + "es";
    }
    if (s.length() > 1 && s.endsWith("y") && "aeiou".indexOf(s.charAt(s.length() - 2)) < 0) {
      return s.substring(0, s.length() - 1) + "ies";
    }
    return s + "s";
  }

  /** A ratio as a percentage with one decimal, e.g. {@code "12.5%"}; 0 when the whole is 0. */
  public static String percent(double part, double whole) {
    return fixed(whole == 0 ? 0 : 100.0 * part / whole, 1) + "%";
  }
}
