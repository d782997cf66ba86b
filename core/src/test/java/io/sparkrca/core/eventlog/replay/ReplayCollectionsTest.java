package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The replay's own small collections against the JDK's, on random operations. */
class ReplayCollectionsTest {

  @Test
  void longObjectMapBehavesLikeAHashMap() {
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 20; round++) {
      LongObjectMap<Long> map = new LongObjectMap<>();
      Map<Long, Long> expected = new HashMap<>();
      // Few distinct keys (many collisions and removals), sometimes clustered, sometimes spread.
      long range = round % 2 == 0 ? 64 : 5000;
      long base = round % 3 == 0 ? Long.MIN_VALUE + 10 : (long) round << 32;
      for (int i = 0; i < 20000; i++) {
        long key = base + random.nextLong(range);
        switch (random.nextInt(3)) {
          case 0:
            long value = random.nextLong();
            map.put(key, value);
            expected.put(key, value);
            break;
          case 1:
            assertThat(map.remove(key)).isEqualTo(expected.remove(key));
            break;
          default:
            assertThat(map.get(key)).isEqualTo(expected.get(key));
        }
        assertThat(map.size()).isEqualTo(expected.size());
      }
      for (long k = base; k < base + range; k++) {
        assertThat(map.get(k)).isEqualTo(expected.get(k));
      }
      List<Long> values = new ArrayList<>();
      map.forEachValue(values::add);
      assertThat(values).containsExactlyInAnyOrderElementsOf(expected.values());
    }
  }

  @Test
  void packedColumnsKeepEveryValueThroughWideningAndGrowth() {
    SplittableRandom random = new SplittableRandom(8);
    for (int round = 0; round < 50; round++) {
      PackedLongColumn column = new PackedLongColumn(1 + random.nextInt(40));
      long[] expected = new long[300];
      boolean[] set = new boolean[expected.length];
      for (int i = 0; i < 2000; i++) {
        int row = random.nextInt(expected.length);
        long value;
        switch (random.nextInt(6)) {
          case 0:
            value = random.nextInt(256) - 128;
            break;
          case 1:
            value = random.nextInt(65536) - 32768;
            break;
          case 2:
            value = random.nextInt();
            break;
          case 3:
            value = 1_600_000_000_000L + random.nextInt(1_000_000);
            break;
          case 4:
            value = random.nextBoolean() ? Long.MAX_VALUE - random.nextInt(10) : Long.MIN_VALUE + random.nextInt(10);
            break;
          default:
            value = random.nextLong();
        }
        column.set(row, value);
        expected[row] = value;
        set[row] = true;
        int probe = random.nextInt(expected.length);
        if (set[probe]) {
          assertThat(column.get(probe)).isEqualTo(expected[probe]);
        }
      }
      for (int row = 0; row < expected.length; row++) {
        if (set[row]) {
          assertThat(column.get(row)).as("row %d", row).isEqualTo(expected[row]);
        }
      }
    }
  }
}
