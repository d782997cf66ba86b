package io.sparkrca.rules.rca.internal;

import static io.sparkrca.rules.rca.internal.Support.finding;
import static io.sparkrca.rules.rca.internal.Support.ms;
import static io.sparkrca.rules.rca.internal.Support.x;

import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.rules.rca.AnalysisContext;
import io.sparkrca.rules.rca.Analyzer;
import io.sparkrca.rules.rca.Candidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The comparison with a healthy baseline run (seed 001): normalises for input size before calling
 * anything a regression. A run whose job time per input record is flat or better is slower only
 * because its input grew; otherwise the changed Spark properties are the first suspects, ranked by
 * how plausibly they explain the time (a raised shuffle partition count that shows up as a stage of
 * that many tasks first).
 */
public final class BaselineAnalyzer implements Analyzer {
  /** Slower than this is a regression worth explaining. */
  static final double MIN_SLOWDOWN = 1.2;
  /** Input growth from which time per record decides. */
  static final double MIN_GROWTH = 1.5;
  /** Time per input record up to this ratio counts as flat. */
  static final double FLAT_PER_RECORD = 1.1;

  /** Properties that identify a run rather than configure it. */
  private static final Set<String> IDENTITY = Set.of("spark.app.id", "spark.app.name", "spark.app.startTime",
      "spark.app.submitTime", "spark.driver.host", "spark.driver.port", "spark.driver.appUIAddress",
      "spark.local.dir", "spark.executor.id", "spark.sql.warehouse.dir", "spark.app.initial.jar.urls",
      "spark.app.initial.file.urls", "spark.repl.class.uri", "spark.repl.class.outputDir", "spark.submit.pyFiles");
  private static final Pattern IDENTITY_PREFIX = Pattern.compile(
      "spark\\.(eventLog|ui|history|yarn\\.app|kubernetes\\.driver\\.pod\\.name|dataproc\\.(batch|session))\\b.*|.*\\.(port|host|Address)$");
  /** Properties whose change commonly moves run time, in order of how often they explain a regression. */
  private static final List<String> PERFORMANCE_KEYS = List.of("spark.sql.shuffle.partitions", "spark.sql.adaptive.enabled",
      "spark.sql.adaptive.coalescePartitions.enabled", "spark.sql.autoBroadcastJoinThreshold", "spark.sql.adaptive.skewJoin.enabled",
      "spark.executor.memory", "spark.executor.cores", "spark.executor.instances", "spark.dynamicAllocation.enabled",
      "spark.dynamicAllocation.maxExecutors", "spark.default.parallelism", "spark.memory.fraction",
      "spark.sql.files.maxPartitionBytes", "spark.serializer", "spark.speculation", "spark.driver.memory");

  @Override
  public String name() {
    return "baseline";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    Optional<AnalysisContext> base = ctx.baseline();
    if (base.isEmpty() || ctx.app().isEmpty()) {
      return List.of();
    }
    AnalysisContext b = base.get();
    long jobTime = jobTime(ctx);
    long baseJobTime = jobTime(b);
    if (jobTime <= 0 || baseJobTime <= 0) {
      return List.of();
    }
    double slowdown = jobTime / (double) baseJobTime;
    if (slowdown < MIN_SLOWDOWN) {
      return List.of();
    }
    long rows = inputRecords(ctx);
    long baseRows = inputRecords(b);
    double growth = baseRows > 0 && rows > 0 ? rows / (double) baseRows : 1;
    double perRecord = slowdown / growth;
    long cost = jobTime - baseJobTime;
    List<Metric> metrics = List.of(new Metric("slowdown", slowdown, "ratio"), new Metric("inputGrowth", growth, "ratio"),
        new Metric("jobTimeMs", jobTime, "ms"), new Metric("baselineJobTimeMs", baseJobTime, "ms"),
        new Metric("inputRecords", rows, "count"), new Metric("baselineInputRecords", baseRows, "count"));
    String baseId = b.app().get().info().id();
    List<EvidenceRef> evidence = new ArrayList<>(List.of(
        ctx.apiRef("jobs", "job time " + ms(jobTime) + " for " + rows + " input records"),
        new EvidenceRef(EvidenceRef.Kind.API, "applications/" + baseId + "/jobs", 0,
            "baseline job time " + ms(baseJobTime) + " for " + baseRows + " input records")));
    if (growth >= MIN_GROWTH && perRecord <= FLAT_PER_RECORD) {
      return List.of(Candidate.builder(finding(RootCauseKind.NO_REGRESSION_INPUT_GROWTH, Severity.INFO,
              "Slower than the baseline only because the input grew",
              x(slowdown) + " the baseline's job time for " + x(growth) + " its input: " + x(perRecord) + " the time per record",
              Culprit.none(), metrics, cost, Support.share(ctx, cost), evidence, name()))
          .confidence(Confidence.CONFIRMED)
          .explanation("This run's jobs took " + ms(jobTime) + " against the baseline " + baseId + "'s " + ms(baseJobTime)
              + " (" + x(slowdown) + "), but it read " + rows + " input records against " + baseRows + " (" + x(growth)
              + "): per record it took " + x(perRecord) + " the baseline's time, so the job itself did not regress.")
          .time(ctx.startMs())
          .recommend(Support.investigate("Nothing regressed. If the run time matters, scale the resources (executors, "
              + "partitions) with the input.", "Time grew no faster than the input."))
          .build());
    }
    Map<String, String[]> changed = changedSettings(ctx, b);
    if (changed.isEmpty()) {
      return List.of();
    }
    List<String> ranked = new ArrayList<>(changed.keySet());
    ranked.sort(Comparator.comparingInt(k -> {
      int i = PERFORMANCE_KEYS.indexOf(k);
      return i < 0 ? PERFORMANCE_KEYS.size() : i;
    }));
    List<PropertyChange> restore = new ArrayList<>();
    List<String> described = new ArrayList<>();
    for (String k : ranked) {
      String[] v = changed.get(k);
      described.add(k + ": " + (v[0] == null ? "unset" : v[0]) + " -> " + (v[1] == null ? "unset" : v[1]));
      evidence.add(new EvidenceRef(EvidenceRef.Kind.CONFIG, "applications/" + ctx.app().get().info().id() + "/environment",
          0, k + "=" + (v[1] == null ? "(unset)" : v[1]) + " (baseline: " + (v[0] == null ? "unset" : v[0]) + ")"));
      if (PERFORMANCE_KEYS.contains(k)) {
        restore.add(new PropertyChange(k, Optional.ofNullable(v[1]), v[0] == null ? "(unset, Spark's default)" : v[0]));
      }
    }
    String link = stageLink(ctx, b, changed);
    String why = "This run's jobs took " + ms(jobTime) + " against the baseline " + baseId + "'s " + ms(baseJobTime)
        + " (" + x(slowdown) + ") on " + (Math.abs(growth - 1) < 0.05 ? "the same input (" + rows + " records)"
            : x(growth) + " the input") + ", and its configuration differs: " + String.join("; ", described) + "."
        + link;
    Candidate.Builder c = Candidate.builder(finding(RootCauseKind.CONFIG_REGRESSION, Severity.HIGH,
            "Regression after a configuration change", x(slowdown) + " slower than the baseline; changed: "
                + String.join(", ", ranked), Culprit.none(), metrics, cost, Support.share(ctx, cost), evidence, name()))
        .confidence(Confidence.LEADING_HYPOTHESIS)
        .explanation(why)
        .toConfirm("a run with the baseline's values of " + String.join(", ", ranked.subList(0, Math.min(3, ranked.size())))
            + " that is as fast as the baseline")
        .time(ctx.startMs());
    if (!restore.isEmpty()) {
      c.recommend(Support.fix("Restore the baseline's values of the changed settings that move run time.",
          "They changed between the healthy run and this one, on the same input.", restore));
    } else {
      c.recommend(Support.investigate("Review the changed settings: " + String.join(", ", ranked) + ".",
          "They changed between the healthy run and this one."));
    }
    return List.of(c.build());
  }

  /** Ties a changed setting to the stage evidence it shows up in. */
  private static String stageLink(AnalysisContext ctx, AnalysisContext base, Map<String, String[]> changed) {
    StringBuilder sb = new StringBuilder();
    String[] parts = changed.get("spark.sql.shuffle.partitions");
    if (parts != null && parts[1] != null) {
      try {
        int n = Integer.parseInt(parts[1].trim());
        Optional<StageData> s = ctx.completedStages().stream().filter(st -> st.numTasks() == n).findFirst();
        int baseMax = base.completedStages().stream().filter(st -> st.shuffleReadBytes() > 0).mapToInt(StageData::numTasks).max().orElse(0);
        s.ifPresent(st -> sb.append(" Stage ").append(st.stageId()).append(" ran ").append(n).append(" tasks (spark.sql.shuffle.partitions=")
            .append(n).append(")").append(baseMax > 0 ? " where the baseline's reduce stages ran at most " + baseMax : "")
            .append(": ").append(ms(AnalysisContext.wallMs(st))).append(" for ").append(ms(st.executorRunTime()))
            .append(" of task time, most of it scheduling tiny tasks."));
      } catch (NumberFormatException e) {
        // not a number: nothing to link
      }
    }
    if (changed.containsKey("spark.sql.adaptive.enabled") && "false".equalsIgnoreCase(String.valueOf(changed.get("spark.sql.adaptive.enabled")[1]))) {
      sb.append(" AQE is off in this run, so small shuffle partitions were not coalesced.");
    }
    return sb.toString();
  }

  /** Settings that differ (identity and per-run paths left out): key to {baseline, this run}. */
  static Map<String, String[]> changedSettings(AnalysisContext ctx, AnalysisContext base) {
    Map<String, String> a = base.conf().setProperties();
    Map<String, String> b = ctx.conf().setProperties();
    Map<String, String[]> out = new LinkedHashMap<>();
    java.util.TreeSet<String> keys = new java.util.TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    for (String k : keys) {
      if (IDENTITY.contains(k) || IDENTITY_PREFIX.matcher(k).matches()) {
        continue;
      }
      String va = a.get(k);
      String vb = b.get(k);
      if (va == null ? vb != null : !va.equals(vb)) {
        out.put(k, new String[] {va, vb});
      }
    }
    return out;
  }

  /** The time jobs ran: the union of the jobs' intervals. */
  static long jobTime(AnalysisContext ctx) {
    List<long[]> spans = new ArrayList<>();
    for (JobData j : ctx.jobs()) {
      if (j.submissionTime().isPresent() && j.completionTime().isPresent()) {
        spans.add(new long[] {j.submissionTime().get().toEpochMilli(), j.completionTime().map(Instant::toEpochMilli).get()});
      }
    }
    spans.sort(Comparator.comparingLong(s -> s[0]));
    long total = 0;
    long start = -1;
    long end = -1;
    for (long[] s : spans) {
      if (s[0] > end) {
        total += end - start;
        start = s[0];
        end = s[1];
      } else {
        end = Math.max(end, s[1]);
      }
    }
    return total + (end - start);
  }

  /** Input records of the stages' first attempts (re-runs would count twice). */
  static long inputRecords(AnalysisContext ctx) {
    return ctx.stages().stream().filter(s -> s.attemptId() == 0).mapToLong(StageData::inputRecords).sum();
  }
}
