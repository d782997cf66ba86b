package io.sparkrca.core.eventlog.replay;

import java.text.NumberFormat;
import java.util.Arrays;
import java.util.Locale;

/**
 * The text the History Server shows for a SQL metric: Spark's {@code MetricUtils.stringValue}
 * (4.0; {@code SQLMetrics.stringValue} in 3.5, which formats identically) with {@code
 * Utils.bytesToString} and {@code Utils.msDurationToString}.
 *
 * <ul>
 *   <li>{@code sum}: the sum with US grouping, {@code "1,234"}.
 *   <li>{@code size}, {@code timing}, {@code nsTiming}: values below 0 (never set) are dropped; one
 *       value or none prints alone ({@code "12.0 KiB"}, {@code "3 ms"}); more print {@code "total
 *       (min, med, max (stageId: taskId))\n<sum> (<min>, <med>, <max> (stage S.A: task T))"}, the
 *       last part naming the task that held the largest value, or {@code (driver)}.
 *   <li>{@code average}: values of 0 or less are dropped; each value is tenths; one or none prints
 *       alone ({@code "2.5"}), more print {@code "(min, med, max (stageId: taskId)):\n(<min>, <med>,
 *       <max> (...))"}.
 *   <li>{@code v2Custom_<class>}: a data source v2 metric, aggregated by its class. The History
 *       Server can load only the classes on its own class path: of those in Spark itself, 4.0's
 *       {@code PythonCustomMetric} prints as a size; any other prints {@code N/A}.
 * </ul>
 */
final class SqlMetricFormat {
  static final String SUM = "sum";
  static final String SIZE = "size";
  static final String TIMING = "timing";
  static final String NS_TIMING = "nsTiming";
  static final String AVERAGE = "average";
  static final String V2_CUSTOM_PREFIX = "v2Custom_";
  static final String PYTHON_CUSTOM_METRIC =
      "org.apache.spark.sql.execution.datasources.v2.python.PythonCustomMetric";
  static final String NOT_AVAILABLE = "N/A";

  private static final String SUFFIX = "(min, med, max (stageId: taskId))";
  private static final long[] SI_SIZES = {
    1L << 60, 1L << 50, 1L << 40, 1L << 30, 1L << 20, 1L << 10, 1
  };
  private static final String[] SI_SUFFIXES = {"EiB", "PiB", "TiB", "GiB", "MiB", "KiB", "B"};

  private SqlMetricFormat() {}

  /** Whether Spark tracks the task holding the largest value (every type but {@code sum}). */
  static boolean needsMax(String type) {
    return !SUM.equals(type);
  }

  /** Whether Spark can format a metric of this type at all. */
  static boolean isKnown(String type) {
    return SUM.equals(type) || SIZE.equals(type) || TIMING.equals(type) || NS_TIMING.equals(type)
        || AVERAGE.equals(type) || (type != null && type.startsWith(V2_CUSTOM_PREFIX));
  }

  /**
   * The value of a metric from all its values (one per task index of each stage, then the driver's
   * updates), in any order; {@code values} may be reordered.
   *
   * @param maxMetrics empty, or {@code [value, stageId, stageAttemptId, taskId]} of the largest
   *     task value
   */
  static String stringValue(String type, long[] values, int count, long[] maxMetrics) {
    if (type != null && type.startsWith(V2_CUSTOM_PREFIX)) {
      String className = type.substring(V2_CUSTOM_PREFIX.length());
      if (className.equals(PYTHON_CUSTOM_METRIC)) {
        return stringValue(SIZE, values, count, new long[0]);
      }
      return NOT_AVAILABLE;
    }
    String taskInfo =
        maxMetrics.length == 0
            ? "(driver)"
            : "(stage " + maxMetrics[1] + "." + maxMetrics[2] + ": task " + maxMetrics[3] + ")";
    if (SUM.equals(type)) {
      long sum = 0;
      for (int i = 0; i < count; i++) {
        sum += values[i];
      }
      return sum(sum);
    }
    if (AVERAGE.equals(type)) {
      int n = keep(values, count, 1);
      if (n <= 1) {
        return tenths(n == 0 ? 0 : values[0]);
      }
      Arrays.sort(values, 0, n);
      return SUFFIX + ":\n(" + tenths(values[0]) + ", " + tenths(values[n / 2]) + ", "
          + tenths(values[n - 1]) + " " + taskInfo + ")";
    }
    int kind;
    if (SIZE.equals(type)) {
      kind = 0;
    } else if (TIMING.equals(type)) {
      kind = 1;
    } else if (NS_TIMING.equals(type)) {
      kind = 2;
    } else {
      // Spark throws here and the execution loses all its metrics; no Spark writes such a type.
      return NOT_AVAILABLE;
    }
    int n = keep(values, count, 0);
    if (n <= 1) {
      return format(kind, n == 0 ? 0 : values[0]);
    }
    Arrays.sort(values, 0, n);
    long sum = 0;
    for (int i = 0; i < n; i++) {
      sum += values[i];
    }
    return "total " + SUFFIX + "\n" + format(kind, sum) + " (" + format(kind, values[0]) + ", "
        + format(kind, values[n / 2]) + ", " + format(kind, values[n - 1]) + " " + taskInfo + ")";
  }

  /** A {@code sum} metric's text: {@code NumberFormat.getIntegerInstance(Locale.US)}. */
  static String sum(long sum) {
    return NumberFormat.getIntegerInstance(Locale.US).format(sum);
  }

  /** Moves the values {@code >= min} to the front, keeping nothing else; returns their count. */
  private static int keep(long[] values, int count, long min) {
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (values[i] >= min) {
        values[n++] = values[i];
      }
    }
    return n;
  }

  private static String format(int kind, long v) {
    switch (kind) {
      case 0:
        return bytesToString(v);
      case 1:
        return msDurationToString(v);
      default:
        return msDurationToString(v / 1_000_000L);
    }
  }

  /** Spark's {@code toNumberFormat}: an average metric is stored in tenths. */
  static String tenths(long v) {
    return NumberFormat.getNumberInstance(Locale.US).format(v / 10.0);
  }

  /** Spark's {@code Utils.bytesToString(Long)}: binary units, one decimal. */
  static String bytesToString(long size) {
    int i = 0;
    while (i < SI_SIZES.length - 1 && size < 2 * SI_SIZES[i]) {
      i++;
    }
    return String.format(Locale.US, "%.1f %s", (double) size / SI_SIZES[i], SI_SUFFIXES[i]);
  }

  /**
   * Spark's {@code Utils.msDurationToString}. The fractions are computed in {@code float}, as
   * Spark does, which decides the rounding of values such as 1150 ms ("1.1 s", not "1.2 s").
   */
  static String msDurationToString(long ms) {
    final long second = 1000;
    final long minute = 60 * second;
    final long hour = 60 * minute;
    if (ms < second) {
      return String.format(Locale.US, "%d ms", ms);
    }
    if (ms < minute) {
      return String.format(Locale.US, "%.1f s", (float) ms / second);
    }
    if (ms < hour) {
      return String.format(Locale.US, "%.1f m", (float) ms / minute);
    }
    return String.format(Locale.US, "%.2f h", (float) ms / hour);
  }
}
