package io.sparkrca.benchmarks.fleet;

import io.sparkrca.core.io.ByteSources;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.fleet.FleetScan;
import io.sparkrca.fleet.MemoryBudget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The fleet benchmark's {@code sparkrca scan} workload, for {@link
 * io.sparkrca.benchmarks.replay.Measure}: {@link FleetScan} over the root given as the file, with
 * {@code -Dfleet.threads=N} threads (default 1) and no index, rows counted and dropped (as {@code
 * scan --output} streams them to a file). {@code secondsPerTenthOfLogs} says how long each tenth of
 * the rows took to arrive (listing not included): in a fresh JVM the first tenth carries the JIT's
 * warm-up, which is why a short scan scales less from 1 to 2 threads than a long one.
 *
 * <pre>{@code java -Xmx1g -Dfleet.threads=2 -cp ... io.sparkrca.benchmarks.replay.Measure \
 *     io.sparkrca.benchmarks.fleet.ScanWorkload benchmarks/data/fleet/small}</pre>
 */
public final class ScanWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String root) {
    int threads = Integer.getInteger("fleet.threads", 1);
    AtomicLong rows = new AtomicLong();
    FleetLogs.Listing listing = FleetLogs.discover(ByteSources.defaults(), root, FleetLogs.DEFAULT_MAX_DEPTH);
    int total = listing.logs().size();
    // When each tenth of the rows had arrived: the first tenth carries the JVM's warm-up.
    long[] tenths = new long[11];
    tenths[0] = System.nanoTime();
    FleetScan.Result r = FleetScan.builder().threads(threads).build().run(listing, row -> {
      long k = rows.incrementAndGet();
      if (k * 10 / total != (k - 1) * 10 / total) {
        tenths[(int) (k * 10 / total)] = System.nanoTime();
      }
    });
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("threads", threads);
    facts.put("logs", r.rows());
    facts.put("errors", r.errors());
    facts.put("bytesOnDisk", r.bytesAnalysed());
    List<Double> perTenth = new ArrayList<>();
    for (int i = 1; i < tenths.length && total >= 10; i++) {
      perTenth.add(Math.round((tenths[i] - tenths[i - 1]) / 1e7) / 100.0);
    }
    facts.put("secondsPerTenthOfLogs", perTenth);
    facts.put("budgetCapacityMiB", MemoryBudget.shared().capacity() / 1048576.0);
    facts.put("budgetPeakMiB", MemoryBudget.shared().peakInUse() / 1048576.0);
    facts.put("budgetPeakLeases", MemoryBudget.shared().peakLeases());
    return () -> facts;
  }
}
