package io.sparkrca.core.report;

import io.sparkrca.core.format.Formats;
import java.util.Objects;

/**
 * A measured number a finding rests on.
 *
 * <pre>{@code
 * new Metric("maxToMedianTaskDuration", 29.6, "ratio")
 * }</pre>
 *
 * @param name camelCase, e.g. {@code diskBytesSpilled}
 * @param value the number
 * @param unit {@code ms}, {@code bytes}, {@code ratio}, {@code count}, {@code share} (0-1), ...
 */
public record Metric(String name, double value, String unit) {
  public Metric {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(unit, "unit");
  }

  /** The value for people: {@code 1.5 GiB}, {@code 3.2 s}, {@code 41.0%}, {@code 29.6x}. */
  public String display() {
    return switch (unit) {
      case "bytes" -> Formats.humanBytes(value);
      case "ms" -> Formats.humanMillis(value);
      case "share" -> Formats.fixed(100 * value, 1) + "%";
      case "ratio" -> Formats.fixed(value, 1) + "x";
      default -> value == Math.rint(value) && Math.abs(value) < 1e15
          ? Long.toString((long) value) : Formats.fixed(value, 2);
    };
  }
}
