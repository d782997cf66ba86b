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

  /** A ratio as a percentage with one decimal, e.g. {@code "12.5%"}; 0 when the whole is 0. */
  public static String percent(double part, double whole) {
    return fixed(whole == 0 ? 0 : 100.0 * part / whole, 1) + "%";
  }
}
