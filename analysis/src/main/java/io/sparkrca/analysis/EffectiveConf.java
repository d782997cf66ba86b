package io.sparkrca.analysis;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkDefaults;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An application's Spark properties as analysis reads them: what it set, and Spark's default for
 * what it did not (for the application's Spark version). Recommendations check their
 * preconditions here ("no 'enable AQE' when it is on") and cite the setting that is the problem.
 *
 * <pre>{@code
 * EffectiveConf conf = EffectiveConf.of(app);
 * if (!conf.isTrue("spark.sql.adaptive.enabled")) { ... }
 * long heap = conf.bytes("spark.executor.memory").orElse(1L << 30);
 * }</pre>
 */
public final class EffectiveConf {
  /** Defaults of properties analysis reads beyond {@link SparkDefaults#DEFAULTS}. */
  private static final Map<String, String> MORE_DEFAULTS = Map.ofEntries(
      Map.entry("spark.driver.memory", "1g"),
      Map.entry("spark.driver.maxResultSize", "1g"),
      Map.entry("spark.task.maxFailures", "4"),
      Map.entry("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "5"),
      Map.entry("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "256m"),
      Map.entry("spark.memory.storageFraction", "0.5"),
      Map.entry("spark.executor.memoryOverheadFactor", "0.1"),
      Map.entry("spark.reducer.maxSizeInFlight", "48m"),
      Map.entry("spark.decommission.enabled", "false"),
      Map.entry("spark.shuffle.service.enabled", "false"));

  private final Map<String, String> set;
  private final Map<String, String> effective;

  private EffectiveConf(Map<String, String> set, Optional<String> sparkVersion) {
    this.set = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(set));
    Map<String, String> e = new LinkedHashMap<>(SparkDefaults.effective(set, sparkVersion));
    MORE_DEFAULTS.forEach(e::putIfAbsent);
    this.effective = java.util.Collections.unmodifiableMap(e);
  }

  /** The properties of {@code app} (empty when its environment is unknown). */
  public static EffectiveConf of(SparkApplication app) {
    String v = app.sparkVersion();
    return new EffectiveConf(app.sparkConf().orElse(Map.of()), v.isEmpty() ? Optional.empty() : Optional.of(v));
  }

  /** Properties set explicitly, with no defaults. */
  public static EffectiveConf of(Map<String, String> set, Optional<String> sparkVersion) {
    return new EffectiveConf(set, sparkVersion);
  }

  /** Whether the environment was known at all (an event log always has it; a cut one may not). */
  public boolean known() {
    return !set.isEmpty();
  }

  /** The value the application set. */
  public Optional<String> set(String key) {
    return Optional.ofNullable(set.get(key));
  }

  /** The value in effect: set, or Spark's default; empty when neither is known. */
  public Optional<String> get(String key) {
    String v = effective.get(key);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** Whether the effective value is {@code true}. */
  public boolean isTrue(String key) {
    return get(key).map(v -> v.trim().equalsIgnoreCase("true")).orElse(false);
  }

  /** Whether the application set it to something other than Spark's default. */
  public boolean isNonDefault(String key) {
    String v = set.get(key);
    if (v == null) {
      return false;
    }
    String d = SparkDefaults.DEFAULTS.getOrDefault(key, MORE_DEFAULTS.get(key));
    return d == null || !normalise(d).equals(normalise(v));
  }

  /** A size property in bytes ({@code 512m}, {@code 10485760}, {@code 1g}); empty when unset or not a size. */
  public OptionalLong bytes(String key) {
    return get(key).map(EffectiveConf::parseBytes).orElse(OptionalLong.empty());
  }

  /** A numeric property. */
  public OptionalLong number(String key) {
    try {
      return get(key).map(v -> OptionalLong.of(Long.parseLong(v.trim()))).orElse(OptionalLong.empty());
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Every property set explicitly. */
  public Map<String, String> setProperties() {
    return set;
  }

  /** {@code key=value} as a citation, e.g. {@code spark.memory.fraction=0.1}, or {@code key (unset)}. */
  public String cite(String key) {
    return get(key).map(v -> key + "=" + v + (set.containsKey(key) ? "" : " (default)")).orElse(key + " (unset)");
  }

  /** Spark's size syntax: a number of bytes or a number with k, m, g, t (binary units), case-insensitive. */
  public static OptionalLong parseBytes(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.isEmpty()) {
      return OptionalLong.empty();
    }
    if (t.endsWith("b") && t.length() > 1 && !Character.isDigit(t.charAt(t.length() - 2))) {
      t = t.substring(0, t.length() - 1);
    }
    long mult = 1;
    char last = t.charAt(t.length() - 1);
    switch (last) {
      case 'k' -> mult = 1L << 10;
      case 'm' -> mult = 1L << 20;
      case 'g' -> mult = 1L << 30;
      case 't' -> mult = 1L << 40;
      case 'b' -> mult = 1;
      default -> {
        if (!Character.isDigit(last)) {
          return OptionalLong.empty();
        }
      }
    }
    String num = Character.isDigit(last) ? t : t.substring(0, t.length() - 1);
    try {
      return OptionalLong.of(Math.round(Double.parseDouble(num) * mult));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Bytes as a Spark size, e.g. {@code 1g}, {@code 768m}. */
  public static String sparkSize(long bytes) {
    if (bytes % (1L << 30) == 0 && bytes > 0) {
      return (bytes >> 30) + "g";
    }
    return Math.max(1, Math.round(bytes / (double) (1L << 20))) + "m";
  }

  private static String normalise(String v) {
    String t = v.trim().toLowerCase(Locale.ROOT);
    if (t.matches("\\d+(\\.\\d+)?[kmgt]b?")) {
      return Long.toString(parseBytes(t).getAsLong());
    }
    try {
      return new java.math.BigDecimal(t).stripTrailingZeros().toPlainString();
    } catch (NumberFormatException e) {
      return t;
    }
  }
}
