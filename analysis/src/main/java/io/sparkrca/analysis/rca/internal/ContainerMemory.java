package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.fix;
import static io.sparkrca.analysis.rca.internal.Support.tune;

import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.model.ExecutorMetrics;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An executor container's memory budget (the OOM troubleshooter's and the failure playbook's first
 * check): the limit it was held to (the cluster's record) against what Spark sizes it at ({@code
 * spark.executor.memory} + {@code memoryOverhead}, + {@code spark.executor.pyspark.memory}, +
 * {@code spark.memory.offHeap.size} when off-heap is on), the peaks the event log recorded (JVM
 * heap, off-heap, direct buffers, process RSS), and the GC share of its task time; from which it
 * tells a heap problem from memory outside the heap (overhead, off-heap, native, Python) and
 * recommends accordingly, with the preconditions checked.
 *
 * @param heap {@code spark.executor.memory}
 * @param overhead the overhead in effect (set, or {@code max(384m, factor * heap)})
 * @param overheadSet whether the application set the overhead itself
 * @param pyspark {@code spark.executor.pyspark.memory}, 0 when unset
 * @param offHeap {@code spark.memory.offHeap.size} when off-heap memory is enabled, else 0
 * @param sized what Spark asks for the container: the sum of the above
 * @param limit the limit the cluster recorded, when it did
 * @param peakHeap the executor's peak JVM heap, when the event log recorded one
 * @param peakOffHeap the peak JVM off-heap (metaspace, code cache, threads), when recorded
 * @param peakDirect the peak direct buffer pool, when recorded
 * @param peakRss the peak resident set of the JVM's process tree, when recorded
 * @param gcShare the executor's GC time over its task time, -1 when unknown
 * @param cores tasks run at once in one executor
 */
record ContainerMemory(long heap, long overhead, boolean overheadSet, long pyspark, long offHeap, long sized,
    Optional<Long> limit, Optional<Long> peakHeap, Optional<Long> peakOffHeap, Optional<Long> peakDirect,
    Optional<Long> peakRss, double gcShare, long cores) {
  /** Below this GC share the heap was not thrashing. */
  static final double LOW_GC = 0.10;
  private static final long MIN_OVERHEAD = 384L << 20;

  /** What ran out, as far as the numbers tell. */
  enum Verdict { HEAP, OUTSIDE_HEAP, UNKNOWN }

  static ContainerMemory of(AnalysisContext ctx, String executorId, Optional<ClusterEvent> record) {
    EffectiveConf conf = ctx.conf();
    long heap = conf.bytes("spark.executor.memory").orElse(1L << 30);
    OptionalLong set = conf.bytes("spark.executor.memoryOverhead");
    double factor = conf.get("spark.executor.memoryOverheadFactor").or(() -> conf.get("spark.kubernetes.memoryOverheadFactor"))
        .map(ContainerMemory::parseDouble).orElse(0.10);
    long overhead = set.isPresent() ? set.getAsLong() : Math.max(MIN_OVERHEAD, (long) (factor * heap));
    long pyspark = conf.bytes("spark.executor.pyspark.memory").orElse(0);
    long offHeap = conf.isTrue("spark.memory.offHeap.enabled") ? conf.bytes("spark.memory.offHeap.size").orElse(0) : 0;
    Optional<ExecutorSummary> e = ctx.executors().stream().filter(x -> x.id().equals(executorId)).findFirst();
    Optional<ExecutorMetrics> peaks = e.flatMap(ExecutorSummary::peakMemoryMetrics);
    double gc = e.filter(x -> x.totalDuration() > 0).map(x -> x.totalGCTime() / (double) x.totalDuration()).orElse(-1.0);
    long cores = conf.number("spark.executor.cores").orElse(e.map(x -> (long) Math.max(1, x.totalCores())).orElse(1L));
    return new ContainerMemory(heap, overhead, set.isPresent(), pyspark, offHeap, heap + overhead + pyspark + offHeap,
        record.flatMap(r -> r.details().memoryLimitBytes()), peak(peaks, "JVMHeapMemory"), peak(peaks, "JVMOffHeapMemory"),
        peak(peaks, "DirectPoolMemory"), peak(peaks, "ProcessTreeJVMRSSMemory"), gc, Math.max(1, cores));
  }

  private static Optional<Long> peak(Optional<ExecutorMetrics> m, String name) {
    return m.map(x -> x.values().getOrDefault(name, 0L)).filter(v -> v > 0);
  }

  private static double parseDouble(String s) {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return 0.10;
    }
  }

  /** Heap when the heap was nearly full and GC busy; outside the heap when GC was quiet or the heap had room. */
  Verdict verdict() {
    boolean heapFull = peakHeap.map(p -> p >= 0.9 * heap).orElse(false);
    boolean heapRoom = peakHeap.map(p -> p < 0.8 * heap).orElse(false);
    if (heapFull && gcShare >= LOW_GC) {
      return Verdict.HEAP;
    }
    if ((gcShare >= 0 && gcShare < LOW_GC) || heapRoom) {
      return Verdict.OUTSIDE_HEAP;
    }
    return Verdict.UNKNOWN;
  }

  List<Metric> metrics() {
    List<Metric> m = new ArrayList<>();
    limit.ifPresent(l -> m.add(new Metric("containerMemoryLimit", l, "bytes")));
    m.add(new Metric("executorMemory", heap, "bytes"));
    m.add(new Metric("memoryOverhead", overhead, "bytes"));
    if (pyspark > 0) {
      m.add(new Metric("pysparkMemory", pyspark, "bytes"));
    }
    if (offHeap > 0) {
      m.add(new Metric("offHeapMemory", offHeap, "bytes"));
    }
    peakHeap.ifPresent(v -> m.add(new Metric("peakJvmHeap", v, "bytes")));
    peakOffHeap.ifPresent(v -> m.add(new Metric("peakJvmOffHeap", v, "bytes")));
    peakDirect.ifPresent(v -> m.add(new Metric("peakDirectPool", v, "bytes")));
    peakRss.ifPresent(v -> m.add(new Metric("peakProcessRss", v, "bytes")));
    if (gcShare >= 0) {
      m.add(new Metric("executorGcShare", gcShare, "share"));
    }
    return m;
  }

  /** The budget in one paragraph: the limit against Spark's sizing, the peaks, the GC share, and what that means. */
  String explain() {
    StringBuilder sb = new StringBuilder();
    String parts = b(heap) + " heap (spark.executor.memory) + " + b(overhead) + " overhead ("
        + (overheadSet ? "spark.executor.memoryOverhead" : "the default, max(384 MiB, 10% of the heap)") + ")"
        + (pyspark > 0 ? " + " + b(pyspark) + " for Python workers (spark.executor.pyspark.memory)" : "")
        + (offHeap > 0 ? " + " + b(offHeap) + " off-heap (spark.memory.offHeap.size)" : "");
    if (limit.isPresent()) {
      sb.append(" The container's memory limit was ").append(b(limit.get())).append("; Spark sizes it at ")
          .append(parts).append(" = ").append(b(sized)).append(".");
      if (limit.get() < sized * 0.98) {
        sb.append(" The limit is below Spark's sizing: a pod template, LimitRange or admission webhook lowered it.");
      }
    } else {
      sb.append(" Spark sizes the container at ").append(parts).append(" = ").append(b(sized)).append(".");
    }
    List<String> peaks = new ArrayList<>();
    peakHeap.ifPresent(p -> peaks.add("heap " + b(p) + " of " + b(heap)));
    peakOffHeap.ifPresent(p -> peaks.add("JVM off-heap " + b(p)));
    peakDirect.ifPresent(p -> peaks.add("direct buffers " + b(p)));
    peakRss.ifPresent(p -> peaks.add("process RSS " + b(p)));
    sb.append(peaks.isEmpty() ? " The event log recorded no memory peaks for it (they need executor metrics polling, "
        + "spark.executor.processTreeMetrics.enabled for the RSS)." : " Its recorded peaks: " + String.join(", ", peaks) + ".");
    if (gcShare >= 0) {
      sb.append(" GC took ").append(Formats.fixed(100 * gcShare, 1)).append("% of its task time.");
    }
    sb.append(switch (verdict()) {
      case HEAP -> " The heap was nearly full and GC busy: the heap itself is too small for what the tasks hold.";
      case OUTSIDE_HEAP -> " With " + (gcShare >= 0 && gcShare < LOW_GC ? "little GC" : "room left in the heap")
          + ", the memory that ran out was outside the heap: the overhead (Netty and shuffle buffers, thread stacks, "
          + "metaspace), off-heap or native allocations, or Python workers, not the JVM heap.";
      case UNKNOWN -> " The numbers do not tell the heap from memory outside it.";
    });
    return sb.toString();
  }

  /** What to do about a container killed for its memory, each with the precondition it rests on. */
  List<Recommendation> recommendations(AnalysisContext ctx, boolean heavyShuffleOrBroadcast) {
    EffectiveConf conf = ctx.conf();
    List<Recommendation> out = new ArrayList<>();
    Verdict v = verdict();
    if (limit.isPresent() && limit.get() < sized * 0.98) {
      out.add(fix("Give the executor pods the memory Spark sizes them at: remove the lower limit (pod template, "
              + "LimitRange or webhook) or size spark.executor.memory and the overhead to fit it.",
          "The pod's limit of " + b(limit.get()) + " is below Spark's " + b(sized) + ", so the container is killed before "
              + "Spark's own accounting sees any pressure.", List.of()));
    }
    if (v == Verdict.HEAP) {
      out.add(fix("Give the heap more room, or make the tasks hold less: the heap was nearly full when the container "
              + "was killed.", "Peak heap " + peakHeap.map(ContainerMemory::b).orElse("?") + " of " + b(heap) + " with "
              + Formats.fixed(100 * gcShare, 1) + "% of task time in GC.",
          List.of(new PropertyChange("spark.executor.memory", conf.get("spark.executor.memory"),
              EffectiveConf.sparkSize(heap + heap / 2)))));
      return out;
    }
    // Outside the heap (or not known to be the heap): the overhead is the lever.
    double share = overhead / (double) heap;
    double wanted = share < 0.15 ? 0.15 : heavyShuffleOrBroadcast ? Math.max(0.25, share * 1.5) : share * 1.5;
    long target = Math.max(MIN_OVERHEAD, roundMiB((long) (heap * wanted)));
    if (target <= overhead) {
      target = roundMiB(overhead + overhead / 2);
    }
    String why = (v == Verdict.OUTSIDE_HEAP ? "Memory outside the heap ran out (" + (gcShare >= 0 ? Formats.fixed(100 * gcShare, 1)
        + "% of task time in GC" : "the heap had room") + "). " : "The kill came from the container's limit, which the JVM "
        + "never sees. ")
        + "The overhead is " + b(overhead) + " (" + Formats.fixed(100 * share, 0) + "% of the heap); 10-15% suits most "
        + "jobs" + (heavyShuffleOrBroadcast ? ", and this job's heavy shuffle or broadcast needs more (25% and up)" : "")
        + ". The container grows by the same amount.";
    out.add(fix("Raise the executor memory overhead, where Netty and shuffle buffers, thread stacks, off-heap and native "
            + "allocations and Python workers live.", why,
        List.of(new PropertyChange("spark.executor.memoryOverhead", conf.get("spark.executor.memoryOverhead"),
            EffectiveConf.sparkSize(target)))));
    if (cores > 1) {
      out.add(tune("Or run fewer tasks per executor with the same memory: each running task adds its own shuffle, "
              + "network and native buffers outside the heap.",
          conf.cite("spark.executor.cores") + "; halving it halves that off-heap demand (and adds executors for the "
              + "same parallelism).",
          List.of(Support.prop(conf, "spark.executor.cores", Long.toString(Math.max(1, cores / 2))))));
    }
    if (pyspark == 0 && ctx.conf().setProperties().keySet().stream().anyMatch(k -> k.startsWith("spark.pyspark")
        || k.equals("spark.submit.pyFiles"))) {
      out.add(tune("Bound the Python workers' memory apart from the JVM's overhead.",
          "Python workers take their memory from the overhead unless spark.executor.pyspark.memory is set.",
          List.of(Support.prop(conf, "spark.executor.pyspark.memory", EffectiveConf.sparkSize(Math.max(MIN_OVERHEAD, heap / 4))))));
    }
    return out;
  }

  /** Whether the stages around the loss shuffle a lot (more than the heap) or broadcast. */
  static boolean heavyShuffleOrBroadcast(AnalysisContext ctx, java.util.Collection<Integer> stageIds, long heap) {
    for (StageData s : ctx.stages()) {
      if (stageIds.contains(s.stageId()) && (s.shuffleReadBytes() > heap || s.shuffleWriteBytes() > heap)) {
        return true;
      }
    }
    for (int id : stageIds) {
      if (TaskFailureAnalyzer.operators(ctx, id).stream().anyMatch(o -> o.startsWith("Broadcast"))) {
        return true;
      }
    }
    return false;
  }

  private static long roundMiB(long bytes) {
    long mib = 1L << 20;
    return ((bytes + mib - 1) / mib) * mib;
  }

  private static String b(long bytes) {
    return Formats.humanBytes(bytes);
  }
}
