package io.sparkrca.testkit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a scenario's event log is written: Spark's own settings, plus an optional change made to the
 * finished log afterwards.
 */
public enum EventLogFormat {
  /** One uncompressed file (Spark 3.5's default). */
  PLAIN("single-file", "none", null, false),
  /** One zstd-compressed file. */
  ZSTD("single-file", "zstd", "zstd", false),
  /** One lz4-compressed file (Spark's LZ4 block stream). */
  LZ4("single-file", "lz4", "lz4", false),
  /** One snappy-compressed file (snappy-java's stream format). */
  SNAPPY("single-file", "snappy", "snappy", false),
  /** One lzf-compressed file. */
  LZF("single-file", "lzf", "lzf", false),
  /**
   * Spark 4.0's default: a rolling {@code eventlog_v2_<app>} directory of zstd files plus an
   * {@code appstatus} marker. On Spark 4.0 nothing is set, so the default itself is exercised.
   */
  ROLLING_ZSTD("rolling", "zstd", "zstd", true),
  /** A rolling directory of lz4 files, set explicitly. */
  ROLLING_LZ4("rolling", "lz4", "lz4", true),
  /** One plain file, gzip-compressed after Spark finished (as archiving jobs do). */
  GZIP_AFTERWARDS("single-file", "gzip", null, false);

  private final String layout;
  private final String codecLabel;
  private final String sparkCodec;
  private final boolean rolling;

  EventLogFormat(String layout, String codecLabel, String sparkCodec, boolean rolling) {
    this.layout = layout;
    this.codecLabel = codecLabel;
    this.sparkCodec = sparkCodec;
    this.rolling = rolling;
  }

  /** {@code single-file} or {@code rolling}. */
  public String layout() {
    return layout;
  }

  /** The codec of the files as committed: none, zstd, lz4, snappy, lzf or gzip. */
  public String codec() {
    return codecLabel;
  }

  /** Whether the generator gzips the log after the run. */
  public boolean gzipAfterwards() {
    return this == GZIP_AFTERWARDS;
  }

  /** The {@code spark.eventLog.*} settings that produce this format on {@code spark}. */
  public Map<String, String> sparkConf(SparkDistribution spark) {
    Map<String, String> c = new LinkedHashMap<>();
    if (this == ROLLING_ZSTD && spark.isSpark4()) {
      return c; // Spark 4's defaults, deliberately untouched.
    }
    c.put("spark.eventLog.compress", Boolean.toString(sparkCodec != null));
    if (sparkCodec != null) {
      c.put("spark.eventLog.compression.codec", sparkCodec);
    }
    c.put("spark.eventLog.rolling.enabled", Boolean.toString(rolling));
    return c;
  }
}
