package io.sparkrca.fleet;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.report.Report;
import io.sparkrca.fleet.internal.FleetJson;
import io.sparkrca.fleet.internal.SummaryMarkdown;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The summary of a fleet's rows: how many applications, how each ended, how many per root-cause
 * kind and what each kind wasted, the worst offenders by wasted core-hours, the regressions (runs
 * slower than, or failing after, earlier runs of the same application name in the set), and the
 * logs that could not be analysed. The same rows give the same summary whatever order they come
 * in: counts and core-hours are summed exactly (in millionths of a core-hour), and every list has
 * a total order.
 *
 * <pre>{@code
 * FleetSummary.Builder b = FleetSummary.builder("/tmp/spark-events");
 * rows.forEach(b::add);
 * FleetSummary s = b.build();
 * System.out.println(s.toMarkdown());
 * }</pre>
 *
 * @param root what was scanned
 * @param totals the counts, sums, worst offenders and errors
 * @param regressions the regressions, worst first (at most {@value #MAX_REGRESSIONS})
 * @param regressionCount how many regressions there are in all
 * @param notes what the reader should know (skipped files, cut lists)
 */
public record FleetSummary(
    String root, Totals totals, List<Regression> regressions, long regressionCount, List<String> notes)
    implements Report {
  /** The version of the JSON shape. */
  public static final int SCHEMA_VERSION = 1;
  /** The most worst offenders listed. */
  public static final int MAX_OFFENDERS = 20;
  /** The most regressions listed. */
  public static final int MAX_REGRESSIONS = 50;
  /** The most error rows listed (by path). */
  public static final int MAX_ERRORS = 20;
  /** A run this many times slower than the median of its earlier successful runs is a regression. */
  public static final double MIN_SLOWDOWN = 1.5;
  /** ... and at least this much slower, so that jitter in short runs is not one. */
  public static final long MIN_EXTRA_MS = 30_000;
  /** How many earlier successful runs the median is taken over. */
  public static final int BASELINE_RUNS = 10;

  public FleetSummary {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(totals, "totals");
    regressions = List.copyOf(regressions);
    notes = List.copyOf(notes);
  }

  /** A builder that takes rows one at a time, for {@code root}. */
  public static Builder builder(String root) {
    return new Builder(root);
  }

  /**
   * The summary of totals merged from many places and regressions found per application name
   * (the way a distributed job computes it); {@code regressions} may be all or only the worst.
   */
  public static FleetSummary of(String root, Totals totals, List<Regression> regressions, long regressionCount,
      List<String> notes) {
    List<Regression> sorted = new ArrayList<>(regressions);
    sorted.sort(Regression.WORST_FIRST);
    List<String> n = new ArrayList<>(notes);
    if (regressionCount > MAX_REGRESSIONS) {
      n.add(regressionCount + " regressions were found; the " + MAX_REGRESSIONS + " worst are listed");
    }
    if (totals.errors() > MAX_ERRORS) {
      n.add(totals.errors() + " logs could not be analysed; the first " + MAX_ERRORS + " by path are listed");
    }
    return new FleetSummary(root, totals, sorted.subList(0, (int) Math.min(MAX_REGRESSIONS, sorted.size())),
        regressionCount, n);
  }

  @Override
  public String toMarkdown() {
    return SummaryMarkdown.render(this);
  }

  @Override
  public String toJson() {
    try {
      return FleetJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(tree());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new io.sparkrca.core.error.SparkRcaException("could not write the fleet summary as JSON: " + e.getOriginalMessage(), e);
    }
  }

  private ObjectNode tree() {
    ObjectNode o = FleetJson.mapper().createObjectNode();
    o.put("schemaVersion", SCHEMA_VERSION);
    o.put("root", root);
    o.put("applications", totals.applications());
    o.put("analyzed", totals.applications() - totals.errors());
    o.put("errors", totals.errors());
    o.put("inProgress", totals.inProgress());
    counts(o.putObject("byVerdict"), totals.byVerdict());
    counts(o.putObject("byOutcome"), totals.byOutcome());
    ArrayNode kinds = o.putArray("byRootCause");
    for (Map.Entry<String, Long> e : totals.kindsByCount()) {
      ObjectNode k = kinds.addObject();
      k.put("kind", e.getKey());
      k.put("applications", e.getValue());
      k.put("wastedCoreHours", hours(totals.wastedMicroHoursByKind().getOrDefault(e.getKey(), 0L)));
    }
    o.put("coreHours", hours(totals.coreMicroHours()));
    o.put("wastedCoreHours", hours(totals.wastedMicroHours()));
    o.put("wastedMs", totals.wastedMs());
    ArrayNode worst = o.putArray("worstOffenders");
    for (Offender f : totals.worstOffenders()) {
      ObjectNode n = worst.addObject();
      n.put("path", f.path());
      n.put("appId", f.appId());
      n.put("name", f.name());
      n.put("rootCause", f.kind());
      n.put("wastedCoreHours", BigDecimal.valueOf(f.wastedCoreHours()));
      n.put("wastedMs", f.wastedMs());
      n.put("durationMs", f.durationMs());
    }
    o.put("regressionCount", regressionCount);
    ArrayNode regs = o.putArray("regressions");
    for (Regression r : regressions) {
      ObjectNode n = regs.addObject();
      n.put("name", r.name());
      n.put("appId", r.appId());
      n.put("path", r.path());
      n.put("startTime", r.startTime().toString());
      n.put("durationMs", r.durationMs());
      n.put("outcome", r.outcome());
      n.put("previousOutcome", r.previousOutcome());
      if (r.baselineRuns() > 0) {
        n.put("baselineMedianMs", r.baselineMedianMs());
        n.put("slowdown", BigDecimal.valueOf(r.slowdown()));
      } else {
        n.putNull("baselineMedianMs");
        n.putNull("slowdown");
      }
      n.put("baselineRuns", r.baselineRuns());
      n.put("reason", r.reason());
    }
    ArrayNode errors = o.putArray("errorLogs");
    for (ErrorLog e : totals.errorLogs()) {
      errors.addObject().put("path", e.path()).put("error", e.error());
    }
    ArrayNode notesNode = o.putArray("notes");
    notes.forEach(notesNode::add);
    return o;
  }

  private static void counts(ObjectNode o, Map<String, Long> counts) {
    counts.forEach(o::put);
  }

  /** Millionths of a core-hour as a decimal number of core-hours. */
  public static BigDecimal hours(long micro) {
    return BigDecimal.valueOf(micro, 6).stripTrailingZeros();
  }

  /**
   * Counts and sums over rows, mergeable: each part of a fleet can be summed on its own and the
   * parts merged, in any order, to the same totals.
   */
  public static final class Totals implements Serializable {
    private static final long serialVersionUID = 1L;

    private long applications;
    private long errors;
    private long inProgress;
    private final TreeMap<String, Long> byKind = new TreeMap<>();
    private final TreeMap<String, Long> wastedByKind = new TreeMap<>();
    private final TreeMap<String, Long> byOutcome = new TreeMap<>();
    private final TreeMap<String, Long> byVerdict = new TreeMap<>();
    private long coreMicroHours;
    private long wastedMicroHours;
    private long wastedMs;
    private final ArrayList<Offender> worst = new ArrayList<>();
    private final ArrayList<ErrorLog> errorLogs = new ArrayList<>();

    /** Adds one row. */
    public Totals add(FleetRow r) {
      applications++;
      if (r.inProgress()) {
        inProgress++;
      }
      if (r.isError()) {
        errors++;
        keep(errorLogs, new ErrorLog(r.path(), r.error().orElse("")), ErrorLog.BY_PATH, MAX_ERRORS);
        return this;
      }
      r.outcome().ifPresent(o -> byOutcome.merge(o.name(), 1L, Long::sum));
      r.verdict().ifPresent(v -> byVerdict.merge(v.name(), 1L, Long::sum));
      long wastedMicro = Math.round(r.wastedCoreHours() * 1e6);
      r.rootCause().ifPresent(c -> {
        byKind.merge(c.kind().name(), 1L, Long::sum);
        wastedByKind.merge(c.kind().name(), wastedMicro, Long::sum);
      });
      coreMicroHours += Math.round(r.coreHours() * 1e6);
      wastedMicroHours += wastedMicro;
      wastedMs += r.wastedMs();
      if (r.wastedCoreHours() > 0 || r.wastedMs() > 0) {
        keep(worst, new Offender(r.path(), r.appId().orElse(""), r.name().orElse(""),
            r.rootCause().map(c -> c.kind().name()).orElse(""), r.wastedCoreHours(), r.wastedMs(),
            r.durationMs().orElse(0L)), Offender.WORST_FIRST, MAX_OFFENDERS);
      }
      return this;
    }

    /** Adds another part's totals to these. */
    public Totals merge(Totals o) {
      applications += o.applications;
      errors += o.errors;
      inProgress += o.inProgress;
      o.byKind.forEach((k, v) -> byKind.merge(k, v, Long::sum));
      o.wastedByKind.forEach((k, v) -> wastedByKind.merge(k, v, Long::sum));
      o.byOutcome.forEach((k, v) -> byOutcome.merge(k, v, Long::sum));
      o.byVerdict.forEach((k, v) -> byVerdict.merge(k, v, Long::sum));
      coreMicroHours += o.coreMicroHours;
      wastedMicroHours += o.wastedMicroHours;
      wastedMs += o.wastedMs;
      o.worst.forEach(f -> keep(worst, f, Offender.WORST_FIRST, MAX_OFFENDERS));
      o.errorLogs.forEach(e -> keep(errorLogs, e, ErrorLog.BY_PATH, MAX_ERRORS));
      return this;
    }

    private static <T> void keep(ArrayList<T> list, T item, Comparator<T> order, int max) {
      int at = java.util.Collections.binarySearch(list, item, order);
      list.add(at < 0 ? -at - 1 : at, item);
      if (list.size() > max) {
        list.remove(list.size() - 1);
      }
    }

    public long applications() {
      return applications;
    }

    public long errors() {
      return errors;
    }

    public long inProgress() {
      return inProgress;
    }

    /** Applications per root-cause kind, by kind name. */
    public Map<String, Long> byKind() {
      return java.util.Collections.unmodifiableMap(byKind);
    }

    /** The kinds, most applications first (then by name). */
    public List<Map.Entry<String, Long>> kindsByCount() {
      List<Map.Entry<String, Long>> l = new ArrayList<>(byKind.entrySet());
      l.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
      return l;
    }

    /** Millionths of a core-hour wasted per root-cause kind. */
    public Map<String, Long> wastedMicroHoursByKind() {
      return java.util.Collections.unmodifiableMap(wastedByKind);
    }

    public Map<String, Long> byOutcome() {
      return java.util.Collections.unmodifiableMap(byOutcome);
    }

    public Map<String, Long> byVerdict() {
      return java.util.Collections.unmodifiableMap(byVerdict);
    }

    /** The core-hours held, in millionths. */
    public long coreMicroHours() {
      return coreMicroHours;
    }

    /** The core-hours wasted, in millionths. */
    public long wastedMicroHours() {
      return wastedMicroHours;
    }

    public long wastedMs() {
      return wastedMs;
    }

    /** The worst offenders by wasted core-hours (at most {@value FleetSummary#MAX_OFFENDERS}). */
    public List<Offender> worstOffenders() {
      return List.copyOf(worst);
    }

    /** The first error rows by path (at most {@value FleetSummary#MAX_ERRORS}). */
    public List<ErrorLog> errorLogs() {
      return List.copyOf(errorLogs);
    }
  }

  /**
   * An application that wasted much.
   *
   * @param path its log
   * @param appId its id
   * @param name its name
   * @param kind its root cause's kind
   * @param wastedCoreHours the core-hours it wasted
   * @param wastedMs the wall time it wasted
   * @param durationMs how long it ran
   */
  public record Offender(String path, String appId, String name, String kind, double wastedCoreHours, long wastedMs,
      long durationMs) implements Serializable {
    static final Comparator<Offender> WORST_FIRST = Comparator.comparingDouble(Offender::wastedCoreHours).reversed()
        .thenComparing(Comparator.comparingLong(Offender::wastedMs).reversed()).thenComparing(Offender::path);
  }

  /**
   * A log that could not be analysed.
   *
   * @param path the log
   * @param error why
   */
  public record ErrorLog(String path, String error) implements Serializable {
    static final Comparator<ErrorLog> BY_PATH = Comparator.comparing(ErrorLog::path).thenComparing(ErrorLog::error);
  }

  /**
   * One run of an application name, as regressions compare them.
   *
   * @param name the application name
   * @param appId the application id
   * @param path its log
   * @param startMillis when it started, epoch milliseconds
   * @param durationMs how long it ran (-1 when unknown)
   * @param outcome how it ended ({@link io.sparkrca.core.report.ApplicationRef.Outcome} name)
   */
  public record Run(String name, String appId, String path, long startMillis, long durationMs, String outcome)
      implements Serializable {
    static final Comparator<Run> IN_ORDER = Comparator.comparingLong(Run::startMillis).thenComparing(Run::path);

    /** The run of a row, when it has a name and a start (error rows and unnamed runs have none). */
    public static Optional<Run> of(FleetRow r) {
      if (r.isError() || r.name().isEmpty() || r.startTime().isEmpty() || r.outcome().isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Run(r.name().get(), r.appId().orElse(""), r.path(), r.startTime().get().toEpochMilli(),
          r.durationMs().orElse(-1L), r.outcome().get().name()));
    }
  }

  /**
   * A run that regressed against earlier runs of the same name: it failed after a success, or it
   * took at least {@value FleetSummary#MIN_SLOWDOWN} times the median of the (up to {@value
   * FleetSummary#BASELINE_RUNS}) successful runs before it, and at least {@value
   * FleetSummary#MIN_EXTRA_MS} ms more.
   *
   * @param name the application name
   * @param appId the run's application id
   * @param path its log
   * @param startTime when it started
   * @param durationMs how long it ran (-1 when unknown)
   * @param outcome how it ended
   * @param previousOutcome how the run before it ended
   * @param baselineMedianMs the median duration of the successful runs before it (0 when none)
   * @param baselineRuns how many runs that median is over
   * @param slowdown the duration over that median (0 when none)
   * @param reason one sentence
   */
  public record Regression(String name, String appId, String path, Instant startTime, long durationMs, String outcome,
      String previousOutcome, long baselineMedianMs, int baselineRuns, double slowdown, String reason)
      implements Serializable {
    /** Failures first, then the largest slowdown, then by path. */
    public static final Comparator<Regression> WORST_FIRST = Comparator
        .comparing((Regression r) -> !"FAILED".equals(r.outcome()))
        .thenComparing(Comparator.comparingDouble(Regression::slowdown).reversed())
        .thenComparing(Regression::path);

    /** The regressions among the runs of one application name (in any order). */
    public static List<Regression> among(List<Run> runsOfOneName) {
      List<Run> runs = new ArrayList<>(runsOfOneName);
      runs.sort(Run.IN_ORDER);
      List<Regression> out = new ArrayList<>();
      List<Long> successes = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        Run r = runs.get(i);
        if (i > 0) {
          Run prev = runs.get(i - 1);
          List<Long> base = successes.subList(Math.max(0, successes.size() - BASELINE_RUNS), successes.size());
          long median = median(base);
          double slowdown = median > 0 && r.durationMs() >= 0 ? Math.round(100.0 * r.durationMs() / median) / 100.0 : 0;
          String reason = null;
          if ("FAILED".equals(r.outcome()) && "SUCCEEDED".equals(prev.outcome())) {
            reason = "failed; the run before it (" + prev.appId() + ") succeeded";
          } else if ("SUCCEEDED".equals(r.outcome()) && median > 0 && r.durationMs() >= MIN_SLOWDOWN * median
              && r.durationMs() - median >= MIN_EXTRA_MS) {
            reason = "took " + slowdown + "x the median of the " + base.size() + " successful runs before it ("
                + io.sparkrca.core.format.Formats.humanMillis(r.durationMs()) + " against "
                + io.sparkrca.core.format.Formats.humanMillis(median) + ")";
          }
          if (reason != null) {
            out.add(new Regression(r.name(), r.appId(), r.path(), Instant.ofEpochMilli(r.startMillis()), r.durationMs(),
                r.outcome(), prev.outcome(), median, base.size(), slowdown, reason));
          }
        }
        if ("SUCCEEDED".equals(r.outcome()) && r.durationMs() >= 0) {
          successes.add(r.durationMs());
        }
      }
      return out;
    }

    private static long median(List<Long> values) {
      if (values.isEmpty()) {
        return 0;
      }
      List<Long> s = new ArrayList<>(values);
      s.sort(null);
      int n = s.size();
      return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
  }

  /** Builds a summary from rows, one at a time; keeps the totals and each run's few fields. */
  public static final class Builder {
    private final String root;
    private final Totals totals = new Totals();
    private final Map<String, List<Run>> runs = new HashMap<>();
    private final List<String> notes = new ArrayList<>();

    private Builder(String root) {
      this.root = Objects.requireNonNull(root, "root");
    }

    /** Adds one row. */
    public synchronized Builder add(FleetRow row) {
      totals.add(row);
      Run.of(row).ifPresent(r -> runs.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r));
      return this;
    }

    /** Adds a note (what the listing skipped, for example). */
    public synchronized Builder note(String note) {
      notes.add(note);
      return this;
    }

    public synchronized FleetSummary build() {
      List<Regression> all = new ArrayList<>();
      Map<String, List<Run>> byName = new LinkedHashMap<>(new TreeMap<>(runs));
      byName.values().forEach(r -> all.addAll(Regression.among(r)));
      return FleetSummary.of(root, totals, all, all.size(), notes);
    }
  }
}
