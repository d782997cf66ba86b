package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEventReasons;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Recommendations checked against what the workload already has and, on Dataproc Serverless,
 * against what Serverless allows, before they reach the report (the Dataproc troubleshooting skill:
 * "check preconditions before recommending a setting"; "validate any memory recommendation" against
 * the sizing constraints).
 *
 * <p>Everywhere: a property change to the value the application already sets is dropped (a
 * recommendation left with nothing to change is dropped with it, and the report says so).
 *
 * <p>On Dataproc Serverless, from Google's "Spark properties" page for Serverless
 * (cloud.google.com/dataproc-serverless/docs/concepts/properties, resource allocation properties)
 * and its "autoscaling" page (cloud.google.com/dataproc-serverless/docs/concepts/autoscaling):
 *
 * <ul>
 *   <li>{@code spark.driver.cores} and {@code spark.executor.cores}: 4, 8 or 16 (default 4); a
 *       recommended count is raised to the next allowed one.
 *   <li>{@code spark.driver.memory} / {@code spark.executor.memory}: the memory per core, overhead
 *       included, must be between 1024m and 7424m on the standard compute tier (24576m on the
 *       premium tier, {@code spark.dataproc.driver|executor.compute.tier=premium}); a recommended
 *       size past the cap moves to the next core count that holds it, or is capped and says so.
 *   <li>{@code spark.driver|executor.memoryOverhead}: 10% of the memory by default (at least 384m)
 *       and counted in the same per-core total.
 *   <li>Executor counts, from the autoscaling page's table of dynamic allocation properties: {@code
 *       spark.dynamicAllocation.initialExecutors} 2 to 100 (default 2), {@code minExecutors} at
 *       least 2 (default 2), {@code maxExecutors} at most 1000 (default 1000); {@code
 *       spark.executor.instances} (the properties page) 2 to 2000.
 *   <li>YARN-related and shuffle-service properties ({@code spark.master=yarn}, {@code
 *       spark.yarn.*}, {@code spark.shuffle.service.enabled}) are not supported: "if Spark
 *       application code sets a YARN or shuffle property, the application will fail", so they are
 *       never recommended.
 * </ul>
 *
 * <p>Autotuning: when the workload runs with autotuning (the provider's {@link
 * ClusterEventReasons#DATAPROC_AUTOTUNING} record, from the batch's {@code runtimeConfig.autotuningConfig}), the report
 * says so and never recommends turning it on; recommendations for what it tunes say that it
 * already adjusts them between runs.
 */
public final class ServerlessLimits {
  static final List<Integer> ALLOWED_CORES = List.of(4, 8, 16);
  static final long MIN_MB_PER_CORE = 1024;
  static final long MAX_MB_PER_CORE_STANDARD = 7424;
  static final long MAX_MB_PER_CORE_PREMIUM = 24576;
  /** An executor-count property's Serverless bounds, inclusive. */
  record Bounds(long min, long max) {
    long fit(long n) {
      return Math.max(min, Math.min(max, n));
    }
  }

  /** In name order, so that the notes come in the same order on every run. */
  static final Map<String, Bounds> EXECUTOR_BOUNDS = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(Map.of(
      "spark.executor.instances", new Bounds(2, 2000),
      "spark.dynamicAllocation.initialExecutors", new Bounds(2, 100),
      "spark.dynamicAllocation.minExecutors", new Bounds(2, 1000),
      "spark.dynamicAllocation.maxExecutors", new Bounds(2, 1000))));
  private static final long MB = 1L << 20;

  private ServerlessLimits() {}

  /** The recommendations as they may be given for this workload, with what was changed or dropped noted. */
  public static List<Recommendation> apply(AnalysisContext ctx, List<Recommendation> recs, List<String> notes) {
    boolean serverless = ctx.platform() == AnalysisContext.Platform.DATAPROC_SERVERLESS;
    EffectiveConf conf = ctx.conf();
    Optional<String> autotuning = autotuning(ctx);
    List<Recommendation> out = new ArrayList<>();
    List<String> alreadySet = new ArrayList<>();
    for (Recommendation r : recs) {
      if (autotuning.isPresent() && r.action().toLowerCase(Locale.ROOT).contains("autotuning")
          && r.action().toLowerCase(Locale.ROOT).matches(".*\\b(enable|turn on)\\b.*")) {
        continue; // it is on already
      }
      List<String> why = new ArrayList<>();
      List<PropertyChange> props = new ArrayList<>(r.properties());
      if (serverless) {
        props = fit(conf, props, why);
      }
      List<PropertyChange> kept = new ArrayList<>();
      for (PropertyChange p : props) {
        if (sameAsSet(conf, p)) {
          alreadySet.add(p.property() + "=" + p.recommended());
        } else {
          kept.add(p);
        }
      }
      if (!r.properties().isEmpty() && kept.isEmpty()) {
        continue; // everything it would change is already so
      }
      String rationale = r.rationale();
      if (!why.isEmpty()) {
        rationale += (rationale.isEmpty() ? "" : " ") + "Dataproc Serverless limits applied: " + String.join("; ", why) + ".";
      }
      if (autotuning.isPresent() && kept.stream().anyMatch(p -> tunedByAutotuning(p.property()))) {
        rationale += " Autotuning (" + autotuning.get() + ") is on and adjusts such settings between runs: compare with "
            + "what it applied before overriding it.";
      }
      out.add(new Recommendation(r.priority(), r.action(), kept, rationale, r.findingId()));
    }
    if (!alreadySet.isEmpty()) {
      notes.add("Not recommended again, already set by the application: " + String.join(", ", alreadySet.stream().distinct().toList())
          + ".");
    }
    autotuning.ifPresent(a -> notes.add("Autotuning is already on for this workload (" + a + "): it is not recommended "
        + "again; Dataproc already tunes those settings between runs."));
    return out;
  }

  /** The autotuning scenarios the provider recorded, when autotuning is on. */
  static Optional<String> autotuning(AnalysisContext ctx) {
    for (ClusterEvent e : ctx.evidence().clusterEvents()) {
      if (e.reason().equals(ClusterEventReasons.DATAPROC_AUTOTUNING)) {
        String m = e.message();
        return Optional.of(m.startsWith("scenarios=") ? m.substring("scenarios=".length()) : m);
      }
    }
    return Optional.empty();
  }

  private static boolean tunedByAutotuning(String key) {
    return key.matches("spark\\.(executor|driver)\\.(memory|memoryOverhead|cores)|spark\\.sql\\.shuffle\\.partitions"
        + "|spark\\.dynamicAllocation\\..*|spark\\.sql\\.autoBroadcastJoinThreshold");
  }

  /** Whether the application already sets {@code p}'s property to the recommended value. */
  static boolean sameAsSet(EffectiveConf conf, PropertyChange p) {
    Optional<String> set = conf.set(p.property());
    if (set.isEmpty()) {
      return false;
    }
    String a = set.get().trim().toLowerCase(Locale.ROOT);
    String b = p.recommended().trim().toLowerCase(Locale.ROOT);
    if (a.equals(b)) {
      return true;
    }
    OptionalLong x = EffectiveConf.parseBytes(a);
    OptionalLong y = EffectiveConf.parseBytes(b);
    return x.isPresent() && y.isPresent() && x.getAsLong() == y.getAsLong() && a.matches(".*\\d[kmgt]?b?")
        && b.matches(".*\\d[kmgt]?b?");
  }

  /** The property changes made to fit Serverless, each change said in {@code why}. */
  static List<PropertyChange> fit(EffectiveConf conf, List<PropertyChange> props, List<String> why) {
    Map<String, PropertyChange> byKey = new LinkedHashMap<>();
    for (PropertyChange p : props) {
      String k = p.property();
      if (k.equals("spark.shuffle.service.enabled") || k.startsWith("spark.yarn.")
          || k.equals("spark.master") && p.recommended().startsWith("yarn")) {
        why.add(k + " is not supported on Serverless (YARN and shuffle-service properties fail the application), so it "
            + "is not recommended");
        continue;
      }
      byKey.put(k, p);
    }
    for (String role : List.of("executor", "driver")) {
      fitRole(conf, role, byKey, why);
    }
    for (Map.Entry<String, Bounds> b : EXECUTOR_BOUNDS.entrySet()) {
      String k = b.getKey();
      PropertyChange p = byKey.get(k);
      if (p == null) {
        continue;
      }
      try {
        long n = Long.parseLong(p.recommended().trim());
        long fitted = b.getValue().fit(n);
        if (fitted != n) {
          why.add(k + " " + n + " is outside Serverless' " + b.getValue().min() + "-" + b.getValue().max() + " for it: "
              + fitted);
          byKey.put(k, new PropertyChange(k, p.current(), Long.toString(fitted)));
        }
      } catch (NumberFormatException ignored) {
        // not a count: left as it is
      }
    }
    return new ArrayList<>(byKey.values());
  }

  private static void fitRole(EffectiveConf conf, String role, Map<String, PropertyChange> byKey, List<String> why) {
    String coresKey = "spark." + role + ".cores";
    String memKey = "spark." + role + ".memory";
    String overKey = "spark." + role + ".memoryOverhead";
    PropertyChange coresP = byKey.get(coresKey);
    PropertyChange memP = byKey.get(memKey);
    PropertyChange overP = byKey.get(overKey);
    // Serverless' own defaults, not Spark's, for what the application does not set.
    long cores = coresP != null ? parseCount(coresP.recommended()).orElse(4)
        : conf.set(coresKey).map(ServerlessLimits::parseCount).orElse(OptionalLong.empty()).orElse(4);
    int allowed = allowedCores(cores);
    if (coresP != null && allowed != cores) {
      why.add(coresKey + " must be 4, 8 or 16: " + cores + " becomes " + allowed);
      cores = allowed;
      coresP = new PropertyChange(coresKey, conf.get(coresKey), Long.toString(cores));
      byKey.put(coresKey, coresP);
    }
    if (memP == null && overP == null) {
      return;
    }
    boolean premium = conf.get("spark.dataproc." + role + ".compute.tier").map(t -> t.equalsIgnoreCase("premium")).orElse(false);
    long maxPerCore = (premium ? MAX_MB_PER_CORE_PREMIUM : MAX_MB_PER_CORE_STANDARD) * MB;
    long mem = memP != null ? EffectiveConf.parseBytes(memP.recommended()).orElse(0)
        : conf.set(memKey).map(EffectiveConf::parseBytes).orElse(OptionalLong.empty()).orElse(9600 * MB);
    long over = overP != null ? EffectiveConf.parseBytes(overP.recommended()).orElse(0)
        : conf.set(overKey).map(EffectiveConf::parseBytes).orElse(OptionalLong.empty())
            .orElse(Math.max(384 * MB, mem / 10));
    if (mem <= 0 && over <= 0) {
      return;
    }
    long total = mem + over;
    String tier = premium ? "premium" : "standard";
    if (total > maxPerCore * cores) {
      int more = ALLOWED_CORES.stream().filter(c -> c > 0 && total <= maxPerCore * c).findFirst().orElse(-1);
      if (more > 0) {
        why.add(memKey + " + " + overKey + " = " + EffectiveConf.sparkSize(total) + " is more than "
            + EffectiveConf.sparkSize(maxPerCore) + " per core (" + tier + " tier) for " + cores + " cores, so "
            + coresKey + " rises to " + more);
        byKey.put(coresKey, new PropertyChange(coresKey, conf.get(coresKey), Integer.toString(more)));
      } else {
        long cap = maxPerCore * 16;
        if (memP != null) {
          long capped = Math.max(MIN_MB_PER_CORE * MB, cap - over);
          why.add(memKey + " is capped at " + EffectiveConf.sparkSize(capped) + ": with its overhead it may not pass "
              + EffectiveConf.sparkSize(maxPerCore) + " per core (" + tier + " tier) even at 16 cores");
          byKey.put(memKey, new PropertyChange(memKey, memP.current(), EffectiveConf.sparkSize(capped)));
        } else {
          long capped = Math.max(384 * MB, cap - mem);
          why.add(overKey + " is capped at " + EffectiveConf.sparkSize(capped) + ": with the memory it may not pass "
              + EffectiveConf.sparkSize(maxPerCore) + " per core (" + tier + " tier) even at 16 cores");
          byKey.put(overKey, new PropertyChange(overKey, overP.current(), EffectiveConf.sparkSize(capped)));
        }
        byKey.put(coresKey, new PropertyChange(coresKey, conf.get(coresKey), "16"));
      }
    } else if (total < MIN_MB_PER_CORE * MB * cores && memP != null) {
      long raised = MIN_MB_PER_CORE * MB * cores - over;
      why.add(memKey + " rises to " + EffectiveConf.sparkSize(raised) + ": Serverless needs at least 1024m per core, "
          + "overhead included");
      byKey.put(memKey, new PropertyChange(memKey, memP.current(), EffectiveConf.sparkSize(raised)));
    }
  }

  static int allowedCores(long cores) {
    for (int c : ALLOWED_CORES) {
      if (cores <= c) {
        return c;
      }
    }
    return 16;
  }

  private static OptionalLong parseCount(String v) {
    try {
      return OptionalLong.of(Long.parseLong(v.trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
