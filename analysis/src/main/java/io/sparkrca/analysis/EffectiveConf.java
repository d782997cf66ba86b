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

  /** How far (as a share of the default) a heap the JVM shows may be from the default and still be it. */
  private static final double HEAP_TOLERANCE = 0.2;

  private final Map<String, String> set;
  private final Map<String, String> effective;
  private final boolean fromLogs;
  private final Map<String, Long> heaps;

  private EffectiveConf(Map<String, String> set, Optional<String> sparkVersion) {
    this.set = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(set));
    Map<String, String> e = new LinkedHashMap<>(SparkDefaults.effective(set, sparkVersion));
    MORE_DEFAULTS.forEach(e::putIfAbsent);
    this.effective = java.util.Collections.unmodifiableMap(e);
    this.fromLogs = false;
    this.heaps = Map.of();
  }

  private EffectiveConf(EffectiveConf c, boolean fromLogs, Map<String, Long> heaps) {
    this.set = c.set;
    this.effective = c.effective;
    this.fromLogs = fromLogs;
    this.heaps = Map.copyOf(heaps);
  }

  /**
   * These properties as the run showed them: {@code fromLogs} when the application was rebuilt
   * from its logs (which show few settings, so an unset one is unknown rather than Spark's
   * default), and the heap the JVMs of a memory property actually had, e.g.
   * {@code spark.driver.memory -> 629145600} (600 MiB) read from the driver's storage memory. A
   * citation then says what is known instead of claiming the default.
   *
   * <pre>{@code
   * EffectiveConf c = EffectiveConf.of(Map.of(), Optional.of("3.5.1"))
   *     .observed(false, Map.of("spark.driver.memory", 600L << 20));
   * c.cite("spark.driver.memory"); // "spark.driver.memory (unset; the JVM's heap was about 600.0 MiB, not the 1g default)"
   * }</pre>
   */
  public EffectiveConf observed(boolean fromLogs, Map<String, Long> heaps) {
    return new EffectiveConf(this, fromLogs, heaps);
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

  /**
   * The value in effect: set, or the heap the JVMs showed (see {@link #observed}) when that is not
   * Spark's default, or Spark's default; empty when none is known.
   */
  public Optional<String> get(String key) {
    if (!set.containsKey(key) && heaps.containsKey(key) && !nearDefault(key, heaps.get(key))) {
      return Optional.of(sparkSize(heaps.get(key)));
    }
    String v = effective.get(key);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** Whether a heap the JVM showed is Spark's default for {@code key}, within what a JVM's reported heap differs by. */
  private boolean nearDefault(String key, long seen) {
    String d = effective.get(key);
    OptionalLong dflt = d == null ? OptionalLong.empty() : parseBytes(d);
    return dflt.isEmpty() || Math.abs(seen - dflt.getAsLong()) <= HEAP_TOLERANCE * dflt.getAsLong();
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

  /**
   * {@code key=value} as a citation, e.g. {@code spark.memory.fraction=0.1}; Spark's default marked
   * {@code (default)}, unless the run showed otherwise (see {@link #observed}); {@code key (unset)}
   * when neither is known.
   */
  public String cite(String key) {
    if (set.containsKey(key)) {
      return key + "=" + set.get(key);
    }
    Optional<String> heap = Optional.ofNullable(heaps.get(key)).map(h -> "the JVM's heap was about " + humanBytes(h));
    if (fromLogs) {
      return key + " (not shown in the logs" + heap.map(h -> "; " + h).orElse("") + ")";
    }
    if (heaps.containsKey(key) && !nearDefault(key, heaps.get(key))) {
      return key + " (unset; " + heap.get() + ", not the " + effective.get(key) + " default)";
    }
    return get(key).map(v -> key + "=" + v + " (default)").orElse(key + " (unset)");
  }

  private static String humanBytes(long bytes) {
    return io.sparkrca.core.format.Formats.humanBytes(bytes);
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
