package io.sparkrca.benchmarks.fleet;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.fleet.FleetScan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How {@link FleetScan} scales from 1 to 2 threads once the JIT has done its work, measured in one
 * JVM so that the two thread counts see the same machine: after {@code --warmup} scans it runs
 * {@code --rounds} rounds of three timed runs over the same listing, back to back:
 *
 * <ol>
 *   <li>{@code t1}: one scan with 1 thread;
 *   <li>{@code t2}: one scan with 2 threads;
 *   <li>{@code pair}: two independent 1-thread scans at once, each over the whole listing. They
 *       share nothing but the JVM (heap, GC, memory budget) and the machine, so {@code 2 x t1 /
 *       pair} is what this machine gives to twice the same work run perfectly in parallel: the
 *       ceiling for {@code t1 / t2}.
 * </ol>
 *
 * <p>Each round prints one line; the last line is {@code RESULT {json}} with the medians. Running
 * the three back to back in every round is what makes the ratios comparable on a shared machine
 * whose speed drifts by tens of percent from one minute to the next.
 *
 * <pre>{@code java -Xmx1g -cp ... io.sparkrca.benchmarks.fleet.ScanScaling \
 *     [--warmup 4] [--rounds 5] benchmarks/data/fleet/small}</pre>
 */
public final class ScanScaling {
  private ScanScaling() {}

  public static void main(String[] args) throws Exception {
    int warmup = 4;
    int rounds = 5;
    String root = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        default -> root = args[i];
      }
    }
    if (root == null || warmup < 0 || rounds < 1) {
      System.err.println("usage: ScanScaling [--warmup N] [--rounds N] <fleet-root>");
      System.exit(2);
    }
    FleetLogs.Listing listing = FleetLogs.discover(ByteSources.defaults(), root, FleetLogs.DEFAULT_MAX_DEPTH);
    for (int i = 0; i < warmup; i++) {
      scan(listing, 1 + i % 2);
    }
    double[] scanRatio = new double[rounds];
    double[] ceiling = new double[rounds];
    List<String> perRound = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      double t1 = scan(listing, 1);
      double t2 = scan(listing, 2);
      double pair = pair(listing);
      scanRatio[r] = t1 / t2;
      ceiling[r] = 2 * t1 / pair;
      String line = String.format(Locale.ROOT,
          "{\"round\":%d,\"t1\":%.2f,\"t2\":%.2f,\"pair\":%.2f,\"scan\":%.2f,\"ceiling\":%.2f}",
          r + 1, t1, t2, pair, scanRatio[r], ceiling[r]);
      System.out.println("ROUND " + line);
      perRound.add(line);
    }
    System.out.printf(Locale.ROOT,
        "RESULT {\"logs\":%d,\"warmup\":%d,\"rounds\":%d,\"medianScan1to2\":%.2f,\"medianCeiling\":%.2f,"
            + "\"medianScanOverCeiling\":%.2f,\"perRound\":[%s]}%n",
        listing.logs().size(), warmup, rounds, median(scanRatio), median(ceiling),
        median(divide(scanRatio, ceiling)), String.join(",", perRound));
  }

  /** Seconds one scan of the listing takes with the given threads; rows are counted and dropped. */
  private static double scan(FleetLogs.Listing listing, int threads) {
    System.gc();
    long t0 = System.nanoTime();
    run(listing, threads);
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Seconds until two independent 1-thread scans of the listing, started together, are both done. */
  private static double pair(FleetLogs.Listing listing) {
    System.gc();
    long t0 = System.nanoTime();
    CompletableFuture<Void> other = CompletableFuture.runAsync(() -> run(listing, 1), r -> new Thread(r).start());
    run(listing, 1);
    other.join();
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void run(FleetLogs.Listing listing, int threads) {
    AtomicLong rows = new AtomicLong();
    FleetScan.Result result = FleetScan.builder().threads(threads).build().run(listing, row -> rows.incrementAndGet());
    if (result.rows() != listing.logs().size()) {
      throw new AssertionError("scan gave " + result.rows() + " rows for " + listing.logs().size() + " logs");
    }
  }

  private static double[] divide(double[] a, double[] b) {
    double[] q = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      q[i] = a[i] / b[i];
    }
    return q;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
