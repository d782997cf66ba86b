package io.sparkrca.core.report;

import java.util.Objects;
import java.util.Optional;

/**
 * A Spark property to set, with its effective value now.
 *
 * <pre>{@code
 * rec.properties().forEach(p -> System.out.println("--conf " + p.property() + "=" + p.recommended()));
 * }</pre>
 *
 * @param property e.g. {@code spark.executor.memoryOverhead}
 * @param current the effective value now (set, or Spark's default), when known
 * @param recommended the value to set
 */
public record PropertyChange(String property, Optional<String> current, String recommended) {
  public PropertyChange {
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(current, "current");
    Objects.requireNonNull(recommended, "recommended");
  }
}
