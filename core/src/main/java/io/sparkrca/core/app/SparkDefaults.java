package io.sparkrca.core.app;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The effective value of the Spark properties that remediations depend on: the value the
 * application set, or else Spark's default for the application's Spark version. The RCA
 * analyzers' effective configuration and the CEL rules' advice conditions (their {@code conf})
 * both read these, so the two agree on what a run had set.
 *
 * <pre>{@code
 * Map<String, String> conf = SparkDefaults.effective(Map.of(), Optional.of("3.5.1"));
 * conf.get("spark.sql.adaptive.enabled"); // "true": AQE is on by default since Spark 3.2
 * }</pre>
 */
public final class SparkDefaults {
  private SparkDefaults() {}

  /** The keys with a known default, and that default for a recent Spark (3.2 and later). */
  public static final Map<String, String> DEFAULTS;

  static {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("spark.sql.adaptive.enabled", "true");
    m.put("spark.sql.adaptive.skewJoin.enabled", "true");
    m.put("spark.sql.adaptive.coalescePartitions.enabled", "true");
    m.put("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m");
    m.put("spark.sql.shuffle.partitions", "200");
    m.put("spark.sql.files.maxPartitionBytes", "128m");
    m.put("spark.sql.files.openCostInBytes", "4m");
    m.put("spark.sql.autoBroadcastJoinThreshold", "10m");
    m.put("spark.default.parallelism", "");
    m.put("spark.executor.memory", "1g");
    m.put("spark.executor.cores", "");
    m.put("spark.memory.fraction", "0.6");
    m.put("spark.dynamicAllocation.enabled", "false");
    m.put("spark.shuffle.service.enabled", "false");
    m.put("spark.speculation", "false");
    m.put("spark.serializer", "org.apache.spark.serializer.JavaSerializer");
    m.put("spark.shuffle.compress", "true");
    m.put("spark.io.compression.codec", "lz4");
    DEFAULTS = java.util.Collections.unmodifiableMap(m);
  }

  /**
   * The set properties, with Spark's default added for every key of {@link #DEFAULTS} that is not
   * set. Before Spark 3.2 AQE was off by default; an unknown version is taken as recent.
   * Boolean-looking values are lower-cased so that conditions can compare with {@code 'true'}.
   */
  public static Map<String, String> effective(Map<String, String> set, Optional<String> sparkVersion) {
    Map<String, String> out = new LinkedHashMap<>();
    set.forEach((k, v) -> out.put(k, normalise(v)));
    boolean before32 = sparkVersion.map(SparkDefaults::before32).orElse(false);
    DEFAULTS.forEach(
        (k, v) -> {
          if (!out.containsKey(k)) {
            String value = v;
            if (before32 && k.equals("spark.sql.adaptive.enabled")) {
              value = "false";
            }
            out.put(k, value);
          }
        });
    return out;
  }

  private static String normalise(String v) {
    String t = v == null ? "" : v.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    return lower.equals("true") || lower.equals("false") ? lower : t;
  }

  static boolean before32(String version) {
    String[] parts = version.trim().split("[.-]");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major < 3 || (major == 3 && minor < 2);
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
