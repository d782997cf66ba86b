package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Small helpers the standard analyzers share. */
final class Support {
  private Support() {}

  /** A finding whose id, fallout and cause the engine fills in. */
  static Finding finding(RootCauseKind kind, Severity severity, String title, String summary, Culprit culprit,
      List<Metric> metrics, long costMs, double share, List<EvidenceRef> evidence, String analyzer) {
    return new Finding("", kind, severity, title, summary, culprit, metrics, Math.max(0, costMs),
        Double.isFinite(share) ? Math.max(0, share) : 0, false, Optional.empty(), evidence, analyzer);
  }

  static Recommendation fix(String action, String rationale, List<PropertyChange> properties) {
    return new Recommendation(Recommendation.Priority.IMMEDIATE_FIX, action, properties, rationale, Optional.empty());
  }

  static Recommendation tune(String action, String rationale, List<PropertyChange> properties) {
    return new Recommendation(Recommendation.Priority.TUNING, action, properties, rationale, Optional.empty());
  }

  static Recommendation investigate(String action, String rationale) {
    return new Recommendation(Recommendation.Priority.INVESTIGATE, action, List.of(), rationale, Optional.empty());
  }

  /** A property change with its current effective value. */
  static PropertyChange prop(EffectiveConf conf, String key, String value) {
    return new PropertyChange(key, conf.get(key), value);
  }

  /** The History Server path of a stage attempt, relative to the application. */
  static String stagePath(StageData s) {
    return "stages/" + s.stageId() + "/" + s.attemptId();
  }

  /** The value at quantile index {@code i} of {@link AnalysisContext#QUANTILES} (0 min, 2 median, 4 max). */
  static double quantileAt(List<Double> values, int i) {
    if (values == null || values.size() <= i) {
      return Double.NaN;
    }
    Double v = values.get(i);
    return v == null ? Double.NaN : v;
  }

  /** A share as a whole percentage: {@code percent(0.234) == "23%"}. */
  static String percent(double share) {
    return Formats.fixed(100 * share, 0) + "%";
  }

  /** Stages by id, the noun agreeing: {@code stages(List.of(0)) == "stage 0"}, {@code stages(List.of(0, 2)) == "stages 0, 2"}. */
  static String stages(List<Integer> ids) {
    StringBuilder sb = new StringBuilder(Formats.noun(ids.size(), "stage"));
    for (int i = 0; i < ids.size(); i++) {
      sb.append(i == 0 ? " " : ", ").append(ids.get(i));
    }
    return sb.toString();
  }

  /** The text with its first letter upper-case, to begin a sentence: {@code capitalised("stage 0") == "Stage 0"}. */
  static String capitalised(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** A ratio as a multiple: {@code times(2.54) == "2.5x"}. */
  static String times(double ratio) {
    return Formats.fixed(ratio, 1) + "x";
  }

  /** The cost's share of the application's run time. */
  static double share(AnalysisContext ctx, long costMs) {
    long d = ctx.durationMs();
    return d > 0 ? Math.min(1.0, costMs / (double) d) : 0;
  }

  /**
   * The stage name, with Spark 4's generic names ({@code $anonfun$withThreadLocalCaptured$2 at
   * CompletableFuture.java:1768}, AQE's asynchronous stages) replaced by the user call site: the
   * first user frame of the stage's details, else the description of its SQL execution ({@code
   * collectAsList at Job.java:88}).
   */
  static String stageName(AnalysisContext ctx, StageData s) {
    String name = s.name();
    if (!name.startsWith("$anonfun$") && !name.contains("withThreadLocalCaptured")) {
      return name;
    }
    java.util.Optional<String> site = ctx.derived(CallSites.class, c -> new CallSites()).of(s.details());
    if (site.isPresent()) {
      return site.get();
    }
    return ctx.executionOf(s.stageId()).map(x -> x.description()).filter(d -> !d.isBlank())
        .map(d -> d.length() > 160 ? d.substring(0, 160) : d).orElse(name);
  }

  /**
   * The user call site of each distinct call-site text, found once per analysis: the stages of a
   * loop share their call site, and finding it runs a regular expression over every frame.
   */
  private static final class CallSites {
    private final Map<String, java.util.Optional<String>> bySite = new HashMap<>();

    java.util.Optional<String> of(String details) {
      return bySite.computeIfAbsent(details, io.sparkrca.core.evidence.StackFrame::firstUserCallSite);
    }
  }

  private static final java.util.regex.Pattern PORT = java.util.regex.Pattern.compile(":\\d+$");

  /** The host of an executor's {@code host:port}, as its block manager registered it. */
  static String host(String hostPort) {
    return PORT.matcher(hostPort).replaceFirst("");
  }

  /** Whether a {@code host:port} is on the loopback interface: the driver's own machine. */
  static boolean loopback(String hostPort) {
    return io.sparkrca.core.io.Loopback.isLoopbackHostPort(hostPort);
  }

  /** Effective parallelism of a stage: how many task slots its tasks kept busy on average. */
  static double parallelism(StageData s, int cores) {
    long wall = AnalysisContext.wallMs(s);
    if (wall <= 0) {
      return 1;
    }
    double p = s.executorRunTime() / (double) wall;
    return Math.max(1, Math.min(Math.max(1, cores), p));
  }

  static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
