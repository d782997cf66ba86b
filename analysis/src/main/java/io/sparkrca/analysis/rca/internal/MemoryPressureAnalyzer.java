package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.core.format.Formats.humanBytes;
import static io.sparkrca.analysis.rca.internal.Support.finding;
import static io.sparkrca.core.format.Formats.humanMillis;
import static io.sparkrca.analysis.rca.internal.Support.percent;
import static io.sparkrca.analysis.rca.internal.Support.prop;

import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory pressure that slows a run without failing it (the slow-job playbook's steps 3 and 6):
 * spill to disk (with the memory settings that explain it: {@code spark.memory.fraction}, the heap,
 * the partition count) and garbage-collection pressure (GC time against task time, with the heap
 * size). Each is one finding over the stages it affects; the time cost of spill is the stage time
 * in proportion to the bytes spilled against the bytes processed, that of GC the GC time spread
 * over the stage's parallelism.
 */
public final class MemoryPressureAnalyzer implements Analyzer {
  /** Disk spill below this, per stage, is noise. */
  static final long MIN_SPILL_BYTES = 32L << 20;
  /** GC share of task time from which a stage counts as under GC pressure. */
  static final double GC_SHARE = 0.20;
  static final long MIN_GC_STAGE_RUN_MS = 2000;

  @Override
  public String name() {
    return "memory-pressure";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    List<Candidate> out = new ArrayList<>();
    spill(ctx).ifPresent(out::add);
    gc(ctx).ifPresent(out::add);
    return out;
  }

  private java.util.Optional<Candidate> spill(AnalysisContext ctx) {
    List<Integer> stages = new ArrayList<>();
    long disk = 0;
    long memory = 0;
    long cost = 0;
    List<EvidenceRef> evidence = new ArrayList<>();
    for (StageData s : ctx.completedStages()) {
      if (s.diskBytesSpilled() < MIN_SPILL_BYTES) {
        continue;
      }
      long processed = s.inputBytes() + s.shuffleReadBytes() + s.shuffleWriteBytes() + s.outputBytes();
      double share = s.diskBytesSpilled() / (double) (s.diskBytesSpilled() + Math.max(1, processed));
      cost += Math.round(AnalysisContext.wallMs(s) * share);
      stages.add(s.stageId());
      disk += s.diskBytesSpilled();
      memory += s.memoryBytesSpilled();
      evidence.add(ctx.apiRef(Support.stagePath(s), humanBytes(s.diskBytesSpilled()) + " spilled to disk ("
          + humanBytes(s.memoryBytesSpilled()) + " in memory) by " + Formats.count(s.numTasks(), "task") + " processing " + humanBytes(processed)));
    }
    if (stages.isEmpty()) {
      return java.util.Optional.empty();
    }
    EffectiveConf conf = ctx.conf();
    String heapKey = ctx.heapProperty();
    StringBuilder why = new StringBuilder(Support.capitalised(Support.stages(stages)) + " spilled " + humanBytes(disk) + " to disk ("
        + humanBytes(memory) + " in memory): sorts, aggregations or joins outgrew the execution memory, so their data was "
        + "written to disk and read back.");
    List<PropertyChange> props = new ArrayList<>();
    List<String> causes = new ArrayList<>();
    if (conf.isNonDefault("spark.memory.fraction")) {
      double f = Double.parseDouble(conf.get("spark.memory.fraction").orElse("0.6"));
      if (f < 0.6) {
        causes.add("the application sets spark.memory.fraction=" + conf.get("spark.memory.fraction").get()
            + " (default 0.6), leaving " + percent(f) + " of the heap for execution and storage");
        evidence.add(ctx.confRef("spark.memory.fraction"));
        props.add(new PropertyChange("spark.memory.fraction", conf.get("spark.memory.fraction"), "0.6"));
      }
    }
    long heap = conf.bytes(heapKey).orElse(1L << 30);
    causes.add("tasks run in " + conf.cite(heapKey));
    evidence.add(ctx.confRef(heapKey));
    why.append(" Memory available: ").append(String.join("; ", causes)).append(".");
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.SPILL, disk >= (1L << 30) ? Severity.HIGH : Severity.MEDIUM,
            "Spill to disk in " + Support.stages(stages), humanBytes(disk) + " spilled to disk (" + humanBytes(memory) + " in memory)",
            Culprit.stages(stages), List.of(new Metric("diskBytesSpilled", disk, "bytes"),
                new Metric("memoryBytesSpilled", memory, "bytes")), cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why.toString())
        .time(-1);
    if (!props.isEmpty()) {
      b.recommend(Support.fix("Give execution its normal share of the heap back.",
          "A low spark.memory.fraction is the direct cause of the spill.", props));
    }
    b.recommend(Support.tune("Give each task less data: more shuffle partitions (or a smaller AQE advisory partition "
            + "size) so that sorts and aggregations fit in memory; then, if needed, more memory per task.",
        conf.cite("spark.sql.shuffle.partitions") + ", " + conf.cite(heapKey),
        List.of(prop(conf, "spark.sql.shuffle.partitions", Long.toString(Math.max(400,
            2 * conf.number("spark.sql.shuffle.partitions").orElse(200)))))));
    if (props.isEmpty()) {
      b.recommend(Support.tune("If the partitions are already small, raise the heap tasks run in.",
          conf.cite(heapKey), List.of(new PropertyChange(heapKey, conf.get(heapKey), EffectiveConf.sparkSize(heap * 2)))));
    }
    return java.util.Optional.of(b.build());
  }

  private java.util.Optional<Candidate> gc(AnalysisContext ctx) {
    List<Integer> stages = new ArrayList<>();
    long gcTime = 0;
    long runTime = 0;
    long cost = 0;
    int cores = Math.max(1, ctx.totalCores());
    List<EvidenceRef> evidence = new ArrayList<>();
    for (StageData s : ctx.completedStages()) {
      if (s.executorRunTime() < MIN_GC_STAGE_RUN_MS || s.jvmGcTime() < GC_SHARE * s.executorRunTime()) {
        continue;
      }
      stages.add(s.stageId());
      gcTime += s.jvmGcTime();
      runTime += s.executorRunTime();
      cost += Math.round(s.jvmGcTime() / Support.parallelism(s, cores));
      evidence.add(ctx.apiRef(Support.stagePath(s), "GC " + humanMillis(s.jvmGcTime()) + " of " + humanMillis(s.executorRunTime())
          + " task time (" + percent(s.jvmGcTime() / (double) s.executorRunTime()) + ")"));
    }
    if (stages.isEmpty()) {
      return java.util.Optional.empty();
    }
    EffectiveConf conf = ctx.conf();
    String heapKey = ctx.heapProperty();
    long heap = conf.bytes(heapKey).orElse(1L << 30);
    evidence.add(ctx.confRef(heapKey));
    double share = gcTime / (double) runTime;
    String why = "Garbage collection took " + percent(share) + " of the task time of " + Support.stages(stages) + " ("
        + humanMillis(gcTime) + " of " + humanMillis(runTime) + "): tasks keep so many objects alive that the JVM spends much of its "
        + "time reclaiming memory. Tasks run in " + conf.cite(heapKey)
        + (ctx.localMode() ? " (local mode: tasks share the driver's heap)" : "") + ".";
    Candidate.Builder b = Candidate.builder(finding(RootCauseKind.GC_PRESSURE, share >= 0.4 ? Severity.HIGH : Severity.MEDIUM,
            "Garbage-collection pressure in " + Support.stages(stages), percent(share) + " of task time in GC",
            Culprit.stages(stages), List.of(new Metric("gcShare", share, "share"), new Metric("gcTimeMs", gcTime, "ms"),
                new Metric("taskTimeMs", runTime, "ms")),
            cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.CONFIRMED)
        .explanation(why)
        .time(-1);
    b.recommend(Support.fix("Keep fewer objects alive per task: avoid building large collections in UDFs or "
            + "mapPartitions, prefer built-in functions over boxed objects, cache less, and split the data into more "
            + "partitions so each task holds less.", "GC time grows with the live set, not with the work.", List.of()));
    b.recommend(Support.tune("Give the tasks' JVM a larger heap.", conf.cite(heapKey),
        List.of(new PropertyChange(heapKey, conf.get(heapKey), EffectiveConf.sparkSize(heap * 2)))));
    return java.util.Optional.of(b.build());
  }

}
