package io.sparkrca.core.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Human formats shared by every report, matching the seed tools' output (Python's half-even
 * rounding, not Java's half-up): {@code humanBytes(1536) == "1.5 KiB"}, {@code
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
    return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** A ratio as a percentage with one decimal, e.g. {@code "12.5%"}; 0 when the whole is 0. */
  public static String percent(double part, double whole) {
    return fixed(whole == 0 ? 0 : 100.0 * part / whole, 1) + "%";
  }
}
