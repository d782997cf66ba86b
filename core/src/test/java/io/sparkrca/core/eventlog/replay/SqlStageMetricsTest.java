package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Spark's {@code LiveStageMetrics} semantics in the compact store. */
class SqlStageMetricsTest {
  private static final Map<Long, String> TYPES = Map.of(1L, "sum", 2L, "size", 3L, "average");

  private static void update(SqlStageMetrics s, long task, int index, boolean ok, long... pairs) {
    long[] ids = new long[pairs.length / 2];
    long[] values = new long[pairs.length / 2];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = pairs[2 * i];
      values[i] = pairs[2 * i + 1];
    }
    s.update(task, index, ok, ids, values, ids.length);
  }

  private static long sum(SqlStageMetrics s, long id) {
    return ((SqlStageMetrics.SumSlot) s.slots().get(id)).sum;
  }

  private static long value(SqlStageMetrics s, long id, int index) {
    return ((SqlStageMetrics.ValuesSlot) s.slots().get(id)).values.get(index);
  }

  @Test
  void theLatestReportOfAnIndexWinsUntilItCompletes() {
    SqlStageMetrics s = new SqlStageMetrics(0, 0, 3, TYPES);
    update(s, 10, 0, false, 1, 100, 2, 900);   // failed attempt
    update(s, 11, 0, true, 1, 7, 2, 50);       // retry succeeds: replaces
    update(s, 12, 0, true, 1, 1000, 2, 5000);  // a late duplicate: ignored
    update(s, 13, 1, false, 1, 9);             // failed, never retried: stays
    assertThat(sum(s, 1)).isEqualTo(16);
    assertThat(value(s, 2, 0)).isEqualTo(50);
    // The largest report ever seen names its task, even when later replaced.
    SqlStageMetrics.ValuesSlot v = (SqlStageMetrics.ValuesSlot) s.slots().get(2L);
    assertThat(v.maxValue).isEqualTo(900);
    assertThat(v.maxTaskId).isEqualTo(10);
  }

  @Test
  void aValueLeftByAFailedAttemptStaysWhenTheRetryDoesNotReportTheMetric() {
    SqlStageMetrics s = new SqlStageMetrics(0, 0, 2, TYPES);
    update(s, 1, 0, false, 1, 5);
    update(s, 2, 0, true, 2, 3);
    update(s, 3, 0, true, 1, 100);  // completed: ignored
    assertThat(sum(s, 1)).isEqualTo(5);
  }

  @Test
  void theSameAccumulatorTwiceInOneReportKeepsTheLast() {
    SqlStageMetrics s = new SqlStageMetrics(0, 0, 2, TYPES);
    update(s, 1, 0, true, 1, 5, 1, 8);
    update(s, 2, 1, false, 1, 2, 1, 3);
    update(s, 3, 1, true, 1, 4);
    assertThat(sum(s, 1)).isEqualTo(12);
  }

  @Test
  void heartbeatsFindTheIndexOfRunningTasksOnly() {
    SqlStageMetrics s = new SqlStageMetrics(0, 0, 2, TYPES);
    s.registerTask(40, 1);
    update(s, 40, -1, false, 1, 6);
    update(s, 41, -1, false, 1, 100); // never started: ignored
    assertThat(sum(s, 1)).isEqualTo(6);
    update(s, 40, 1, true, 1, 7);
    s.taskEnded(40);
    assertThat(sum(s, 1)).isEqualTo(7);
  }

  @Test
  void unknownAccumulatorsAndIndicesBeyondTheStageAreIgnored() {
    SqlStageMetrics s = new SqlStageMetrics(0, 0, 1, TYPES);
    update(s, 1, 0, true, 99, 5);
    update(s, 2, 3, true, 1, 5);
    assertThat(s.slots()).isEmpty();
  }

  @Test
  void packedValuesWidenAsNeeded() {
    SqlStageMetrics.PackedValues p = new SqlStageMetrics.PackedValues(4);
    p.set(0, -1);
    p.set(1, 300);
    p.set(2, 70_000);
    p.set(3, 1L << 40);
    assertThat(new long[] {p.get(0), p.get(1), p.get(2), p.get(3)}).containsExactly(-1, 300, 70_000, 1L << 40);
    assertThat(p.retainedBytes()).isEqualTo(16 + 4 * 8);
  }

  @Test
  void theTaskMapAgreesWithAHashMap() {
    Random r = new Random(7);
    SqlStageMetrics.LongIntMap m = new SqlStageMetrics.LongIntMap();
    Map<Long, Integer> ref = new HashMap<>();
    for (int i = 0; i < 200_000; i++) {
      long k = r.nextInt(5000) * 0x10001L;
      if (r.nextInt(3) == 0) {
        m.remove(k);
        ref.remove(k);
      } else {
        m.put(k, i);
        ref.put(k, i);
      }
      if (i % 1000 == 0) {
        for (long q = 0; q < 5000; q += 7) {
          assertThat(m.get(q * 0x10001L)).isEqualTo(ref.getOrDefault(q * 0x10001L, -1));
        }
      }
    }
    assertThat(m.size()).isEqualTo(ref.size());
  }
}
