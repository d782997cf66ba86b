package io.sparkrca.testkit;

import java.util.Collection;
import java.util.List;

/** Small statistics helpers for measured numbers. */
public final class Stats {
  private Stats() {}

  /** The median (lower middle for an even count), or 0 for no values. */
  public static long median(Collection<Long> values) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Long> sorted = values.stream().sorted().toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The maximum, or 0 for no values. */
  public static long max(Collection<Long> values) {
    return values.stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** {@code a / b} rounded to two decimals, or 0 when b is 0. */
  public static double ratio(double a, double b) {
    return b == 0 ? 0 : Math.round(a / b * 100.0) / 100.0;
  }
}
