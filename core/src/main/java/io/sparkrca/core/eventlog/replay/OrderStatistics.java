package io.sparkrca.core.eventlog.replay;

import java.util.Arrays;

/**
 * Order statistics without a full sort: {@link #select} puts at each wanted position the value a
 * sort would put there, by partitioning only the parts that hold a wanted position (a
 * quickselect for several positions at once, with three-way partitions for repeated values and a
 * sort as the fallback when partitions stay unbalanced). For the five quantiles of a summary it
 * does a few passes over the values instead of sorting them.
 */
final class OrderStatistics {
  /** Ranges this short are sorted. */
  private static final int SORT_BELOW = 48;

  private OrderStatistics() {}

  /**
   * Rearranges {@code a[0, n)} so that {@code a[k]} is the value {@code Arrays.sort(a, 0, n)} would
   * put at {@code k}, for every {@code k} of {@code positions} (ascending) below {@code n};
   * positions at or above {@code n} are ignored.
   */
  static void select(long[] a, int n, long[] positions) {
    int depth = 2 * (32 - Integer.numberOfLeadingZeros(Math.max(1, n)));
    select(a, 0, n, positions, 0, positions.length, depth);
  }

  private static void select(long[] a, int from, int to, long[] ks, int kFrom, int kTo, int depth) {
    while (true) {
      while (kFrom < kTo && ks[kFrom] < from) {
        kFrom++;
      }
      while (kTo > kFrom && ks[kTo - 1] >= to) {
        kTo--;
      }
      if (kFrom >= kTo) {
        return;
      }
      if (to - from < SORT_BELOW || depth == 0) {
        Arrays.sort(a, from, to);
        return;
      }
      depth--;
      long x = a[from];
      long y = a[(from + to) >>> 1];
      long z = a[to - 1];
      long p = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
      // [from, lt) < p, [lt, i) == p, [gt, to) > p
      int lt = from;
      int i = from;
      int gt = to;
      while (i < gt) {
        long v = a[i];
        if (v < p) {
          a[i++] = a[lt];
          a[lt++] = v;
        } else if (v > p) {
          a[i] = a[--gt];
          a[gt] = v;
        } else {
          i++;
        }
      }
      int left = kFrom;
      while (left < kTo && ks[left] < lt) {
        left++;
      }
      int right = left;
      while (right < kTo && ks[right] < gt) {
        right++;
      }
      select(a, from, lt, ks, kFrom, left, depth);
      from = gt;
      kFrom = right;
    }
  }
}
