package io.sparkrca.benchmarks.fleet;

import io.sparkrca.rules.fleet.FleetScan;
import io.sparkrca.rules.fleet.MemoryBudget;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The fleet benchmark's {@code sparkrca scan} workload, for {@link
 * io.sparkrca.benchmarks.replay.Measure}: {@link FleetScan} over the root given as the file, with
 * {@code -Dfleet.threads=N} threads (default 1) and no index, rows counted and dropped (as {@code
 * scan --output} streams them to a file).
 *
 * <pre>{@code java -Xmx1g -Dfleet.threads=2 -cp ... io.sparkrca.benchmarks.replay.Measure \
 *     io.sparkrca.benchmarks.fleet.ScanWorkload benchmarks/data/fleet/small}</pre>
 */
public final class ScanWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String root) {
    int threads = Integer.getInteger("fleet.threads", 1);
    AtomicLong rows = new AtomicLong();
    FleetScan.Result r = FleetScan.builder().threads(threads).build().run(root, row -> rows.incrementAndGet());
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("threads", threads);
    facts.put("logs", r.rows());
    facts.put("errors", r.errors());
    facts.put("bytesOnDisk", r.bytesAnalysed());
    facts.put("budgetCapacityMiB", MemoryBudget.shared().capacity() / 1048576.0);
    facts.put("budgetPeakMiB", MemoryBudget.shared().peakInUse() / 1048576.0);
    facts.put("budgetPeakLeases", MemoryBudget.shared().peakLeases());
    return () -> facts;
  }
}
