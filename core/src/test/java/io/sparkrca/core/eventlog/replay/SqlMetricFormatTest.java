package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Metric text against Spark's own formatting: every expected string below was printed by {@code
 * MetricUtils.stringValue} (Spark 4.0.4) and {@code SQLMetrics.stringValue} (Spark 3.5.9), which
 * printed the same for all of them. Rows: type | values | max task ([value, stage, attempt, task]
 * or empty for the driver) | text ({@code \\n} stands for a newline).
 */
class SqlMetricFormatTest {
  private static final String CASES = """
        sum |  |  | 0
        sum | 0 |  | 0
        sum | 1,2,3 |  | 6
        sum | 1234567,-1,5 |  | 1,234,571
        sum | -7 |  | -7
        size |  |  | 0.0 B
        size | -1 |  | 0.0 B
        size | -1,-1 |  | 0.0 B
        size | 0 |  | 0.0 B
        size | 1023 |  | 1023.0 B
        size | 2047 |  | 2047.0 B
        size | 2048 |  | 2.0 KiB
        size | 1572864 |  | 1536.0 KiB
        size | 5368709120 |  | 5.0 GiB
        size | 3458764513820540928 |  | 3.0 EiB
        size | 9223372036854775807 |  | 8.0 EiB
        size | 1126 |  | 1126.0 B
        size | 100,200,-1,0,300 | 300,3,0,17 | total (min, med, max (stageId: taskId))\\n600.0 B (0.0 B, 200.0 B, 300.0 B (stage 3.0: task 17))
        size | 100,200,300 |  | total (min, med, max (stageId: taskId))\\n600.0 B (100.0 B, 200.0 B, 300.0 B (driver))
        size | 5,7 | 7,12,1,99 | total (min, med, max (stageId: taskId))\\n12.0 B (5.0 B, 7.0 B, 7.0 B (stage 12.1: task 99))
        timing | 999 |  | 999 ms
        timing | 1000 |  | 1.0 s
        timing | 1050 |  | 1.0 s
        timing | 1150 |  | 1.1 s
        timing | 1250 |  | 1.3 s
        timing | 1350 |  | 1.4 s
        timing | 59999 |  | 60.0 s
        timing | 60000 |  | 1.0 m
        timing | 90000 |  | 1.5 m
        timing | 3599999 |  | 60.0 m
        timing | 3600000 |  | 1.00 h
        timing | 86400000 |  | 24.00 h
        timing | 10,20,30,-1 | 30,4,2,8 | total (min, med, max (stageId: taskId))\\n60 ms (10 ms, 20 ms, 30 ms (stage 4.2: task 8))
        timing | 0,0 | 0,1,0,3 | total (min, med, max (stageId: taskId))\\n0 ms (0 ms, 0 ms, 0 ms (stage 1.0: task 3))
        nsTiming | 999999 |  | 0 ms
        nsTiming | 1000000 |  | 1 ms
        nsTiming | 1150000000 |  | 1.1 s
        nsTiming | 2500000,1500000,999999 | 2500000,0,0,0 | total (min, med, max (stageId: taskId))\\n4 ms (0 ms, 1 ms, 2 ms (stage 0.0: task 0))
        average |  |  | 0
        average | 0 |  | 0
        average | 15 |  | 1.5
        average | 12345678 |  | 1,234,567.8
        average | -3,0,25,15,31 | 31,2,0,5 | (min, med, max (stageId: taskId)):\\n(1.5, 2.5, 3.1 (stage 2.0: task 5))
        average | 11,12 |  | (min, med, max (stageId: taskId)):\\n(1.1, 1.2, 1.2 (driver))
        average | 1,2,3,4 | 4,1,1,1 | (min, med, max (stageId: taskId)):\\n(0.1, 0.3, 0.4 (stage 1.1: task 1))
      """;

  @Test
  void formatsEveryTypeAsSparkDoes() {
    int n = 0;
    for (String line : CASES.strip().split("\n")) {
      String[] f = line.strip().split(" \\| ", 4);
      long[] values = parse(f[1]);
      long[] max = parse(f[2]);
      String expected = f[3].replace("\\n", "\n");
      assertThat(SqlMetricFormat.stringValue(f[0], values.clone(), values.length, max))
          .as("%s of %s", f[0], Arrays.toString(values))
          .isEqualTo(expected);
      n++;
    }
    assertThat(n).isEqualTo(45);
  }

  @Test
  void countsOnlyTheGivenValues() {
    long[] values = {300, 100, 200, 999_999};
    assertThat(SqlMetricFormat.stringValue("size", values, 3, new long[0]))
        .isEqualTo("total (min, med, max (stageId: taskId))\n600.0 B (100.0 B, 200.0 B, 300.0 B (driver))");
  }

  @Test
  void customMetricsAsTheHistoryServerCanLoadThem() {
    long[] values = {100, 200, -1};
    // Spark 4.0's PythonCustomMetric aggregates as a size; classes the server lacks print N/A.
    assertThat(SqlMetricFormat.stringValue(
            "v2Custom_org.apache.spark.sql.execution.datasources.v2.python.PythonCustomMetric", values.clone(), 3, new long[0]))
        .isEqualTo("total (min, med, max (stageId: taskId))\n300.0 B (100.0 B, 200.0 B, 200.0 B (driver))");
    assertThat(SqlMetricFormat.stringValue("v2Custom_com.example.RowsMetric", values.clone(), 3, new long[0]))
        .isEqualTo("N/A");
    assertThat(SqlMetricFormat.stringValue("bogus", values.clone(), 3, new long[0])).isEqualTo("N/A");
  }

  @Test
  void sumsUseUsGrouping() {
    assertThat(SqlMetricFormat.sum(1_234_567_890L)).isEqualTo("1,234,567,890");
    assertThat(SqlMetricFormat.sum(-1_000)).isEqualTo("-1,000");
  }

  private static long[] parse(String s) {
    if (s.isBlank()) {
      return new long[0];
    }
    return Arrays.stream(s.split(",")).mapToLong(Long::parseLong).toArray();
  }
}
