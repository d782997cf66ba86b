package io.sparkrca.benchmarks.replay;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.ref.Reference;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Runs one replay workload once in this (fresh) JVM and prints one {@code RESULT {json}} line:
 * wall and CPU time, GC activity, the peak heap after any collection (an upper bound of the live
 * set during the replay) and the heap still retained by the replayed model afterwards.
 *
 * <p>Uses only the JDK, so the same class drives our replay, the tokenize-only floor and Spark's
 * replay (whose class path cannot hold sparkrca-core). A workload is a public class with a no-arg
 * constructor implementing {@code Function<String, Supplier<Map<String, Object>>>}: {@code apply}
 * (timed) replays the file and returns a supplier that keeps the model reachable and, untimed,
 * describes it.
 *
 * <p>With {@code --warmup N} the workload first replays the same file N times in this JVM (each
 * model dropped and collected before the next), so that the timed replay runs warm, as in a
 * long-running process such as the History Server; GC counts and the peak heap are then those of
 * the timed replay alone.
 *
 * <pre>{@code java -Xmx512m -cp ... io.sparkrca.benchmarks.replay.Measure [--warmup N] <workload-class> <file>}</pre>
 */
public final class Measure {
  private Measure() {}

  public static void main(String[] args) throws Exception {
    int warmup = 0;
    if (args.length == 4 && args[0].equals("--warmup")) {
      warmup = Integer.parseInt(args[1]);
      args = new String[] {args[2], args[3]};
    }
    if (args.length != 2 || warmup < 0) {
      System.err.println("usage: Measure [--warmup N] <workload-class> <file>");
      System.exit(2);
    }
    Set<String> heapPools = new HashSet<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    AtomicLong peakAfterGc = new AtomicLong();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (n, h) -> {
                if (!"com.sun.management.gc.notification".equals(n.getType())) {
                  return;
                }
                CompositeData info = (CompositeData) n.getUserData();
                CompositeData gcInfo = (CompositeData) info.get("gcInfo");
                long used = 0;
                for (Object row : ((javax.management.openmbean.TabularData) gcInfo.get("memoryUsageAfterGc")).values()) {
                  CompositeData entry = (CompositeData) row;
                  if (heapPools.contains((String) entry.get("key"))) {
                    used += MemoryUsage.from((CompositeData) entry.get("value")).getUsed();
                  }
                }
                peakAfterGc.accumulateAndGet(used, Math::max);
              },
              null,
              null);
    }

    @SuppressWarnings("unchecked")
    Function<String, Supplier<Map<String, Object>>> workload =
        (Function<String, Supplier<Map<String, Object>>>)
            Class.forName(args[0]).getDeclaredConstructor().newInstance();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    StringBuilder warmupSeconds = new StringBuilder();
    for (int i = 0; i < warmup; i++) {
      long w0 = System.nanoTime();
      workload.apply(args[1]); // the model is dropped at once
      warmupSeconds.append(warmupSeconds.length() == 0 ? "" : " ")
          .append(String.format(java.util.Locale.ROOT, "%.2f", (System.nanoTime() - w0) / 1e9));
      System.gc();
    }
    if (warmup > 0) {
      Thread.sleep(200); // let the warm-up's GC notifications arrive before the peak is reset
      peakAfterGc.set(0);
    }

    long gcCount0 = gcCount();
    long gcTime0 = gcTime();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Supplier<Map<String, Object>> model = workload.apply(args[1]);
    long t1 = System.nanoTime();
    long cpu1 = os.getProcessCpuTime();
    long gcCount1 = gcCount();
    long gcTime1 = gcTime();
    Thread.sleep(200); // GC notifications arrive on a service thread
    long peak = peakAfterGc.get();

    System.gc();
    System.gc();
    Thread.sleep(200);
    Runtime rt = Runtime.getRuntime();
    long retained = rt.totalMemory() - rt.freeMemory();
    Map<String, Object> facts = new LinkedHashMap<>();
    facts.put("workload", args[0]);
    facts.put("file", args[1]);
    facts.put("warmupReplays", warmup);
    facts.put("warmupSeconds", warmupSeconds.toString());
    facts.put("wallSeconds", (t1 - t0) / 1e9);
    facts.put("cpuSeconds", (cpu1 - cpu0) / 1e9);
    facts.put("gcCount", gcCount1 - gcCount0);
    facts.put("gcSeconds", (gcTime1 - gcTime0) / 1e3);
    facts.put("peakHeapAfterGcMiB", peak / 1048576.0);
    facts.put("retainedHeapMiB", retained / 1048576.0);
    facts.put("maxHeapMiB", rt.maxMemory() / 1048576.0);
    facts.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    StringBuilder gcs = new StringBuilder();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs.append(gcs.length() == 0 ? "" : ", ").append(gc.getName());
    }
    facts.put("collectors", gcs.toString());
    facts.put("jvmFlags", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("-X") && !a.startsWith("-XX:StartFlightRecording")).toList()));
    facts.put("availableProcessors", rt.availableProcessors());
    facts.putAll(model.get());
    Reference.reachabilityFence(model);
    System.out.println("RESULT " + toJson(facts));
    System.out.flush();
    System.exit(0); // Spark leaves non-daemon threads behind
  }

  private static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  private static long gcTime() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionTime());
    }
    return n;
  }

  /** Flat JSON of scalars (numbers, booleans, strings); anything else is written as a string. */
  static String toJson(Map<String, Object> map) {
    StringBuilder sb = new StringBuilder("{");
    for (Map.Entry<String, Object> e : map.entrySet()) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      quote(sb, e.getKey());
      sb.append(':');
      Object v = e.getValue();
      if (v instanceof Number || v instanceof Boolean) {
        sb.append(v);
      } else {
        quote(sb, String.valueOf(v));
      }
    }
    return sb.append('}').toString();
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }
}
