package io.sparkrca.benchmarks.rca;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Wall and process CPU seconds of a workload's phases (replay, analysis, rendering...), taken at
 * the phase boundaries inside the timed call. Process CPU counts every thread of the JVM (the
 * replay's reading thread, the JIT compiler, the collector), as {@code Measure} does for the whole.
 */
final class Phases {
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private final Map<String, double[]> phases = new LinkedHashMap<>();
  private long wall = System.nanoTime();
  private long cpu = OS.getProcessCpuTime();

  /** Ends the phase that started at the last mark (or at construction) and names it. */
  void mark(String name) {
    long w = System.nanoTime();
    long c = OS.getProcessCpuTime();
    phases.put(name, new double[] {(w - wall) / 1e9, (c - cpu) / 1e9});
    wall = w;
    cpu = c;
  }

  /** {@code <name>WallSeconds} and {@code <name>CpuSeconds} for every phase, in order. */
  Map<String, Object> facts() {
    Map<String, Object> m = new LinkedHashMap<>();
    phases.forEach((name, v) -> {
      m.put(name + "WallSeconds", v[0]);
      m.put(name + "CpuSeconds", v[1]);
    });
    m.put("phases", String.join(" ", phases.keySet()));
    return m;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    phases.forEach((name, v) -> sb.append(String.format(Locale.ROOT, "%s %.2f s (%.2f CPU s) ", name, v[0], v[1])));
    return sb.toString().trim();
  }
}
