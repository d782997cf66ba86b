package io.sparkrca.analysis.compare.internal;

import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.format.Formats;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The configuration diff of two runs: every Spark property set differently (identity and per-run
 * paths left out, secrets redacted), each with how plausibly it explains the divergence and, when
 * the stage evidence shows it, what it did (a raised {@code spark.sql.shuffle.partitions} shows as
 * a reduce stage of that many tasks; a smaller heap as spill that was not there).
 */
final class Configs {
  private Configs() {}

  /** Properties that identify a run rather than configure it. */
  private static final Set<String> IDENTITY = Set.of("spark.app.id", "spark.app.name", "spark.app.startTime",
      "spark.app.submitTime", "spark.driver.host", "spark.driver.port", "spark.driver.appUIAddress",
      "spark.local.dir", "spark.executor.id", "spark.sql.warehouse.dir", "spark.app.initial.jar.urls",
      "spark.app.initial.file.urls", "spark.repl.class.uri", "spark.repl.class.outputDir", "spark.submit.pyFiles",
      "spark.jars", "spark.files", "spark.app.attempt.id");
  private static final Pattern IDENTITY_PATTERN = Pattern.compile(
      "spark\\.(eventLog|ui|history|yarn\\.app|kubernetes\\.driver\\.pod\\.name|dataproc\\.(batch|session)|driver\\.extraJavaOptions"
          + "|executor\\.extraJavaOptions|sql\\.execution\\.id)\\b.*|.*\\.(port|host|Address)$|.*(uuid|Uuid|UUID).*");
  private static final Pattern RESOURCES = Pattern.compile(
      "spark\\.(master|executor\\.instances|executor\\.cores|cores\\.max|task\\.cpus|dynamicAllocation\\..*"
          + "|deploy\\.defaultCores|kubernetes\\.executor\\.request\\.cores|executor\\.resource\\..*)");
  private static final Set<String> MEMORY = Set.of("spark.executor.memory", "spark.driver.memory", "spark.memory.fraction",
      "spark.memory.storageFraction", "spark.executor.memoryOverhead", "spark.memory.offHeap.size",
      "spark.memory.offHeap.enabled");
  private static final Pattern GENERIC_PERFORMANCE = Pattern.compile(
      "spark\\.(speculation.*|serializer|kryo.*|sql\\.codegen.*|shuffle\\..*|io\\.compression.*|rdd\\.compress"
          + "|sql\\.adaptive\\..*|sql\\.inMemoryColumnarStorage.*|locality\\.wait.*|reducer\\..*|sql\\.join.*"
          + "|sql\\.sources\\.bucketing.*|sql\\.cbo.*|network\\.timeout|sql\\.broadcastTimeout)");

  static List<Comparison.ConfigChange> diff(AnalysisContext base, AnalysisContext cand,
      Optional<Comparison.StagePair> first, List<Comparison.StagePair> pairs, Comparison.Run rc, Comparison.Run rb) {
    Map<String, String> a = base.conf().setProperties();
    Map<String, String> b = cand.conf().setProperties();
    TreeSet<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    Redactor r = Redactor.standard();
    List<Comparison.ConfigChange> out = new ArrayList<>();
    for (String k : keys) {
      if (IDENTITY.contains(k) || IDENTITY_PATTERN.matcher(k).matches()) {
        continue;
      }
      String va = a.get(k);
      String vb = b.get(k);
      if (va == null ? vb == null : va.equals(vb)) {
        continue;
      }
      Link link = link(k, base.conf(), cand.conf(), first, pairs, rc, rb, cand.localMode());
      out.add(new Comparison.ConfigChange(k, Optional.ofNullable(va).map(v -> r.redactProperty(k, v)),
          Optional.ofNullable(vb).map(v -> r.redactProperty(k, v)), category(k), link.relevance, link.text));
    }
    out.sort(Comparator.comparingDouble(Comparison.ConfigChange::relevance).reversed()
        .thenComparing(Comparison.ConfigChange::property));
    return out;
  }

  static String category(String k) {
    if (RESOURCES.matcher(k).matches()) {
      return "resources";
    }
    if (MEMORY.contains(k) || k.startsWith("spark.sql.") || GENERIC_PERFORMANCE.matcher(k).matches()
        || k.equals("spark.default.parallelism")) {
      return "performance";
    }
    return "other";
  }

  private record Link(double relevance, Optional<String> text) {
    static Link of(double r, String text) {
      return new Link(r, Optional.of(text));
    }

    static Link weak(double r) {
      return new Link(r, Optional.empty());
    }
  }

  private static Link link(String k, EffectiveConf base, EffectiveConf cand, Optional<Comparison.StagePair> first,
      List<Comparison.StagePair> pairs, Comparison.Run rc, Comparison.Run rb, boolean local) {
    switch (k) {
      case "spark.sql.shuffle.partitions" -> {
        OptionalLong n = cand.number(k);
        OptionalLong was = base.number(k);
        if (n.isPresent()) {
          Optional<Comparison.StagePair> p = prefer(first, pairs, x -> x.candidate().role().contains("shuffle-read")
              && x.candidate().tasks() == n.getAsLong() && x.baseline().tasks() != n.getAsLong());
          if (p.isPresent()) {
            Comparison.StagePair x = p.get();
            boolean many = was.isPresent() && n.getAsLong() > was.getAsLong();
            return Link.of(isFirst(first, x) ? 0.95 : 0.7, x.candidate().label() + " ran "
                + Formats.count(n.getAsLong(), "task") + ", one per shuffle partition, where the baseline's "
                + x.baseline().label() + " ran " + x.baseline().tasks() + "; median task " + Formats.humanMillis(x.candidate().medianTaskMs())
                + " against " + Formats.humanMillis(x.baseline().medianTaskMs()) + ", "
                + Formats.humanMillis(x.candidate().wallMs()) + " against " + Formats.humanMillis(x.baseline().wallMs())
                + (many ? ": many small tasks pay their scheduling and start-up cost each" : ": fewer, larger "
                    + "partitions each hold more of the shuffle"));
          }
        }
        return Link.weak(0.4);
      }
      case "spark.sql.adaptive.enabled", "spark.sql.adaptive.coalescePartitions.enabled" -> {
        if (!cand.isTrue(k) && base.isTrue(k)) {
          Optional<Comparison.StagePair> p = prefer(first, pairs, x -> x.candidate().role().contains("shuffle-read")
              && x.candidate().tasks() > x.baseline().tasks());
          if (p.isPresent()) {
            Comparison.StagePair x = p.get();
            return Link.of(isFirst(first, x) ? 0.9 : 0.65, (k.endsWith("enabled") && k.contains("coalesce")
                ? "partition coalescing is off" : "adaptive query execution is off") + " in this run, so the shuffle's "
                + x.candidate().tasks() + " partitions of " + x.candidate().label() + " were not coalesced (the baseline's "
                + x.baseline().label() + " ran " + Formats.count(x.baseline().tasks(), "task") + " after coalescing)");
          }
        }
        return Link.weak(0.4);
      }
      case "spark.sql.autoBroadcastJoinThreshold" -> {
        long extraShuffles = rc.stages() - rb.stages();
        OptionalLong now = cand.bytes(k);
        OptionalLong before = base.bytes(k);
        boolean lower = now.isPresent() && before.isPresent() && now.getAsLong() < before.getAsLong();
        if (lower && extraShuffles > 0) {
          return Link.of(0.7, "broadcast joins were limited to " + cand.get(k).orElse("?") + " (baseline "
              + base.get(k).orElse("?") + "), and this run ran " + extraShuffles + " more stages: a join that was "
              + "broadcast now shuffles both sides");
        }
        return Link.weak(0.4);
      }
      case "spark.sql.adaptive.skewJoin.enabled" -> {
        if (!cand.isTrue(k) && first.isPresent() && first.get().candidate().skew() >= 2 * Math.max(1, first.get()
            .baseline().skew())) {
          return Link.of(0.8, "AQE's skew-join splitting is off, and the slowest task of "
              + first.get().candidate().label() + " took " + Formats.fixed(first.get().candidate().skew(), 1)
              + "x the median (baseline " + Formats.fixed(first.get().baseline().skew(), 1) + "x)");
        }
        return Link.weak(0.35);
      }
      case "spark.sql.files.maxPartitionBytes", "spark.default.parallelism", "spark.sql.files.openCostInBytes" -> {
        Optional<Comparison.StagePair> p = prefer(first, pairs, x -> x.candidate().role().contains("input")
            && x.candidate().tasks() != x.baseline().tasks());
        if (p.isPresent()) {
          Comparison.StagePair x = p.get();
          return Link.of(isFirst(first, x) ? 0.8 : 0.55, x.candidate().label() + " read its input in "
              + x.candidate().tasks() + " tasks against the baseline's " + x.baseline().tasks());
        }
        return Link.weak(0.35);
      }
      default -> {
        // fall through to the families below
      }
    }
    if (MEMORY.contains(k) && (!local || !k.startsWith("spark.executor."))) {
      OptionalLong now = k.contains("fraction") ? OptionalLong.empty() : cand.bytes(k);
      OptionalLong before = k.contains("fraction") ? OptionalLong.empty() : base.bytes(k);
      boolean smaller = now.isPresent() && before.isPresent() ? now.getAsLong() < before.getAsLong()
          : fraction(cand.get(k)) < fraction(base.get(k));
      Optional<Comparison.StagePair> p = prefer(first, pairs, x -> x.candidate().diskSpilled() + x.candidate().memorySpilled()
          > 2 * (x.baseline().diskSpilled() + x.baseline().memorySpilled()) || x.candidate().gcShare()
          >= 2 * Math.max(0.02, x.baseline().gcShare()));
      if (smaller && p.isPresent()) {
        Comparison.StagePair x = p.get();
        return Link.of(isFirst(first, x) ? 0.85 : 0.6, "with less memory, " + x.candidate().label() + " spilled "
            + Formats.humanBytes(x.candidate().diskSpilled()) + " to disk (baseline "
            + Formats.humanBytes(x.baseline().diskSpilled()) + ") and spent " + Formats.percent(x.candidate().gcMs(),
                Math.max(1, x.candidate().taskTimeMs())) + " of its task time in GC (baseline "
            + Formats.percent(x.baseline().gcMs(), Math.max(1, x.baseline().taskTimeMs())) + ")");
      }
      return Link.weak(0.3);
    }
    if (RESOURCES.matcher(k).matches()) {
      if (rc.maxCores() > 0 && rb.maxCores() > 0 && rc.maxCores() < rb.maxCores()) {
        return Link.of(0.6, "this run had " + rc.maxCores() + " cores at most, against the baseline's " + rb.maxCores());
      }
      return Link.weak(0.2);
    }
    if (category(k).equals("performance")) {
      return Link.weak(0.3);
    }
    return Link.weak(0.05);
  }

  private static double fraction(Optional<String> v) {
    try {
      return v.map(s -> Double.parseDouble(s.trim().toLowerCase(Locale.ROOT))).orElse(Double.NaN);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  private static boolean isFirst(Optional<Comparison.StagePair> first, Comparison.StagePair p) {
    return first.isPresent() && first.get().candidate().stageId() == p.candidate().stageId();
  }

  /** The first divergent pair when it satisfies {@code test}, else the first pair that does. */
  private static Optional<Comparison.StagePair> prefer(Optional<Comparison.StagePair> first,
      List<Comparison.StagePair> pairs, java.util.function.Predicate<Comparison.StagePair> test) {
    if (first.isPresent() && test.test(first.get())) {
      return first;
    }
    return pairs.stream().filter(test).findFirst();
  }
}
