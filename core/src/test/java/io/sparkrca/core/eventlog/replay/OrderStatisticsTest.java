package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link OrderStatistics#select} puts at every wanted position what a full sort puts there. */
class OrderStatisticsTest {
  @Test
  void selectedPositionsHoldTheSortedValues() {
    Random random = new Random(11);
    for (int round = 0; round < 3000; round++) {
      int n = round < 200 ? round : random.nextInt(round % 3 == 0 ? 20_000 : 600);
      long[] a = new long[n + 5];
      int shape = round % 6;
      for (int i = 0; i < n; i++) {
        a[i] = switch (shape) {
          case 0 -> random.nextLong() >>> 1;                 // distinct
          case 1 -> random.nextInt(4);                       // few values, many repeats
          case 2 -> i;                                       // ascending
          case 3 -> n - i;                                   // descending
          case 4 -> i % 2 == 0 ? i : n - i;                  // organ pipe
          default -> (long) Math.exp(random.nextGaussian() * 2 + 8); // log-normal, as task times
        };
      }
      long[] sorted = Arrays.copyOf(a, n);
      Arrays.sort(sorted);
      long[] positions = positions(n, random, round);
      long[] selected = a.clone();
      OrderStatistics.select(selected, n, positions);
      for (long k : positions) {
        if (k < n) {
          assertThat(selected[(int) k]).as("n %d shape %d position %d", n, shape, k).isEqualTo(sorted[(int) k]);
        }
      }
      // the values are only rearranged, and nothing past n is touched
      long[] rest = Arrays.copyOf(selected, n);
      Arrays.sort(rest);
      assertThat(rest).isEqualTo(sorted);
      assertThat(Arrays.copyOfRange(selected, n, n + 5)).isEqualTo(new long[5]);
    }
  }

  /** The History Server's positions for the usual quantiles, some random ones, and past the end. */
  private static long[] positions(int n, Random random, int round) {
    double[] q = round % 2 == 0 ? new double[] {0, 0.25, 0.5, 0.75, 1.0}
        : new double[] {0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0, random.nextDouble(), random.nextDouble()};
    Arrays.sort(q);
    long[] k = new long[q.length + 1];
    for (int i = 0; i < q.length; i++) {
      k[i] = Math.max(0, Math.min((long) (q[i] * n), n - 1L));
    }
    k[q.length] = n + 3L;
    Arrays.sort(k);
    return k;
  }
}
