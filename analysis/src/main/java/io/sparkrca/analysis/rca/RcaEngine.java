package io.sparkrca.analysis.rca;

import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.ApplicationEvidence;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.report.Alternative;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.ChainLink;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.MissingEvidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.analysis.rca.internal.ApplicationStopAnalyzer;
import io.sparkrca.analysis.rca.internal.Chronology;
import io.sparkrca.analysis.rca.internal.ComparisonAnalyzer;
import io.sparkrca.analysis.rca.internal.DriverFailureAnalyzer;
import io.sparkrca.analysis.rca.internal.LogFamilyAnalyzer;
import io.sparkrca.analysis.rca.internal.DriverTimeAnalyzer;
import io.sparkrca.analysis.rca.internal.ExecutorLossAnalyzer;
import io.sparkrca.analysis.rca.internal.FlakyNodeAnalyzer;
import io.sparkrca.analysis.rca.internal.Integrity;
import io.sparkrca.analysis.rca.internal.JoinStrategyAnalyzer;
import io.sparkrca.analysis.rca.internal.LaunchWaitAnalyzer;
import io.sparkrca.analysis.rca.internal.MemoryPressureAnalyzer;
import io.sparkrca.analysis.rca.internal.MetricInsightsAnalyzer;
import io.sparkrca.analysis.rca.internal.SkewAnalyzer;
import io.sparkrca.analysis.rca.internal.TaskCountAnalyzer;
import io.sparkrca.analysis.rca.internal.TaskFailureAnalyzer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names the root cause of an application's failure or slowness from its {@link Evidence}: runs
 * the analyzers (failed tasks, lost executors, driver-side failures, out-of-memory errors, skew,
 * partition counts, spill, GC, join strategy, driver time, the comparison with a baseline,
 * Dataproc's metric insights), then
 * ranks what they found. The earliest failure that explains the application's failure is the root
 * cause, and the failures after it are its fallout; a run that did not fail has as root cause the
 * finding that cost the most time above a significance floor, or is {@link RootCauseKind#HEALTHY}
 * when nothing clears the floor and the evidence is complete. Nothing collected that explains a
 * failure is {@link RootCauseKind#UNDETERMINED}, never healthy.
 *
 * <pre>{@code
 * Evidence evidence = EvidenceCollector.builder().application("/tmp/spark-events/app-1").build().collect();
 * RcaReport report = RcaEngine.standard().analyze(evidence);
 * System.out.println(report.toMarkdown());
 * }</pre>
 *
 * <p>Immutable and thread-safe. Analyzers found with {@link ServiceLoader} join the standard ones.
 */
public final class RcaEngine {
  private static final Logger LOG = LoggerFactory.getLogger(RcaEngine.class);
  private static final RcaEngine STANDARD = builder().build();
  /** The most findings a report lists. */
  public static final int MAX_FINDINGS = 100;

  private final List<Analyzer> analyzers;
  private final double minCostShare;
  private final long minCostMs;
  private final boolean charts;
  private final KnowledgeBase knowledge;

  private RcaEngine(Builder b, List<Analyzer> analyzers) {
    this.analyzers = List.copyOf(analyzers);
    this.knowledge = b.knowledge;
    this.minCostShare = b.minCostShare;
    this.minCostMs = b.minCost.toMillis();
    this.charts = b.charts;
  }

  /** The standard analyzers, those on the class path, and the default significance floor. */
  public static RcaEngine standard() {
    return STANDARD;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The failure knowledge base failures are classified with, and logs scanned for. */
  public KnowledgeBase knowledgeBase() {
    return knowledge;
  }

  /** The analyzers, in the order they run. */
  public List<Analyzer> analyzers() {
    return analyzers;
  }

  /** Analyzes an application already in hand, with no logs. */
  public RcaReport analyze(SparkApplication app) {
    return analyze(Evidence.of(app, app.info().id()));
  }

  /** Analyzes the evidence and writes the report. */
  public RcaReport analyze(Evidence evidence) {
    Objects.requireNonNull(evidence, "evidence");
    AnalysisContext ctx = AnalysisContext.of(evidence, knowledge);
    List<String> notes = new ArrayList<>(evidence.notes()); // how the evidence was gathered, first
    List<Candidate> candidates = new ArrayList<>();
    for (Analyzer a : analyzers) {
      try {
        candidates.addAll(a.analyze(ctx));
      } catch (RuntimeException e) {
        LOG.debug("analyzer {} failed", a.name(), e);
        notes.add("The " + a.name() + " analysis could not run (" + e.getClass().getSimpleName()
            + (e.getMessage() == null ? "" : ": " + e.getMessage()) + "); its findings are missing.");
      }
    }
    candidates = merge(candidates);
    RcaReport report = assemble(ctx, candidates, notes);
    if (charts && ctx.app().isPresent()) {
      report = report.withCharts(io.sparkrca.core.report.html.ChartSource.of(ctx.app().get()));
    }
    Optional<io.sparkrca.analysis.compare.Comparison> comparison = ctx.derivedIfComputed(io.sparkrca.analysis.compare.Comparison.class);
    if (comparison.isPresent()) {
      report = report.withSection(comparison.get());
    }
    return report;
  }

  private RcaReport assemble(AnalysisContext ctx, List<Candidate> candidates, List<String> notes) {
    Integrity integrity = Integrity.of(ctx);
    ApplicationRef.Outcome outcome = ctx.outcome();
    if (outcome == ApplicationRef.Outcome.SUCCEEDED && !integrity.unfinished().isEmpty()) {
      outcome = ApplicationRef.Outcome.INCOMPLETE; // a job or query that never ended may have failed
    }
    long floor = Math.max(minCostMs, Math.round(minCostShare * ctx.durationMs()));
    List<Candidate> fatal = candidates.stream().filter(Candidate::explainsFailure).sorted(byTime()).toList();
    Candidate root = null;
    boolean failureRoot = false;
    String rootWhy;
    if (!fatal.isEmpty()) {
      root = earliestNotExplained(fatal);
      failureRoot = true;
      rootWhy = "the earliest failure that explains the application's failure";
    } else if (outcome == ApplicationRef.Outcome.FAILED) {
      rootWhy = "the application failed and nothing collected explains it";
    } else {
      Optional<Candidate> comparison = candidates.stream()
          .filter(c -> c.kind().category() == RootCauseKind.Category.COMPARISON).findFirst();
      List<Candidate> failures = candidates.stream()
          .filter(c -> c.kind().category() == RootCauseKind.Category.FAILURE).sorted(byTime()).toList();
      Optional<Candidate> costliest = candidates.stream()
          .filter(c -> c.kind().category() == RootCauseKind.Category.PERFORMANCE)
          .filter(c -> c.finding().estimatedCostMs() >= floor)
          .max(Comparator.comparingLong(c -> c.finding().estimatedCostMs()));
      if (comparison.isPresent()) {
        root = comparison.get();
        rootWhy = "the comparison with the baseline";
      } else if (costliest.isPresent() && (failures.isEmpty()
          || costliest.get().finding().estimatedCostMs() > failures.stream().mapToLong(c -> c.finding().estimatedCostMs()).sum())) {
        root = costliest.get();
        rootWhy = "the finding that cost the most time";
      } else if (!failures.isEmpty()) {
        root = earliestNotExplained(failures);
        failureRoot = true;
        rootWhy = "the earliest failure (the application recovered from it)";
      } else {
        rootWhy = "no finding clears the significance floor of " + Formats.humanMillis(floor);
      }
    }

    // Rank: the root first, then failures in time order, then the rest by the time they cost.
    List<Candidate> ranked = new ArrayList<>();
    if (root != null) {
      ranked.add(root);
    }
    Candidate r0 = root;
    candidates.stream().filter(c -> c != r0 && c.kind().category() != RootCauseKind.Category.PERFORMANCE)
        .sorted(byTime()).forEach(ranked::add);
    candidates.stream().filter(c -> c != r0 && c.kind().category() == RootCauseKind.Category.PERFORMANCE)
        .sorted(Comparator.comparingLong((Candidate c) -> c.finding().estimatedCostMs()).reversed()).forEach(ranked::add);
    // By identity: a candidate is a record, and hashing one hashes all its evidence.
    Map<Candidate, Finding> findings = new java.util.IdentityHashMap<>();
    List<Candidate> reported = ranked.subList(0, Math.min(ranked.size(), MAX_FINDINGS));
    for (int i = 0; i < reported.size(); i++) {
      Candidate c = ranked.get(i);
      boolean fallout = root != null && c != root && isFallout(root, c);
      findings.put(c, withId(c.finding(), "F" + (i + 1), fallout, fallout ? Optional.of("F1") : Optional.empty()));
    }
    if (ranked.size() > MAX_FINDINGS) {
      notes.add((ranked.size() - MAX_FINDINGS) + " more findings were left out of the report.");
    }

    RootCause rc;
    Verdict verdict;
    List<ChainLink> chain;
    if (root != null) {
      Finding rf = withEvidence(findings.get(root), distinct(concat(findings.get(root).evidence(), codeEvidence(ctx, root))));
      findings.put(root, rf);
      rc = new RootCause(root.kind(), rf.title(), root.confidence(), root.explanation(), rf.culprit(), root.codeLocation(),
          rf.evidence(), root.evidenceAgainst(), alternatives(root, ranked, findings, floor, failureRoot), root.toConfirm(),
          Optional.of(rf.id()));
      // An analyzer may itself conclude that the evidence does not settle the cause (a driver killed mid-job).
      verdict = root.kind() == RootCauseKind.UNDETERMINED ? Verdict.UNDETERMINED : Verdict.PROBLEM;
      chain = Chronology.chain(ctx, withFinding(root, rf), failureRoot);
    } else if (outcome != ApplicationRef.Outcome.FAILED && insufficiency(ctx, integrity).isEmpty()) {
      // The event log records jobs, not the driver's own code: an exception outside any job (an
      // analysis error, a failure after the last job) is only in the driver log.
      boolean driverLog = ctx.evidence().hasDriverLog();
      // Damaged records can hide a failure (a deleted task end, a repeated job end): health is then a hypothesis.
      List<String> damage = integrity.damage();
      boolean confirmed = driverLog && damage.isEmpty();
      List<String> confirm = new ArrayList<>();
      if (!damage.isEmpty()) {
        confirm.add("an undamaged copy of the event log (its records contradict each other, so a failure may be "
            + "missing from them)");
      }
      if (!driverLog) {
        confirm.add("the driver log: the driver's exit and any exception outside a job are recorded only there");
      }
      rc = new RootCause(RootCauseKind.HEALTHY, "No problem found",
          confirmed ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS,
          "The application " + (outcome == ApplicationRef.Outcome.SUCCEEDED ? "succeeded" : "ran") + " and no analysis "
              + "found a failure or a problem that cost at least " + Formats.humanMillis(floor) + " ("
              + Formats.fixed(100 * minCostShare, 0) + "% of its " + Formats.humanMillis(ctx.durationMs())
              + " run time, and at least " + Formats.humanMillis(minCostMs) + ")."
              + (damage.isEmpty() ? "" : " But its records are damaged (" + String.join("; ", damage) + "): what is "
                  + "missing or repeated may hide a failure, so this is not confirmed.")
              + (driverLog ? "" : " Without the driver log, a failure outside any job (an exception in the driver's "
                  + "own code before, between or after the jobs) cannot be ruled out."),
          Culprit.none(), Optional.empty(), healthyEvidence(ctx), List.of(), alternatives(null, ranked, findings, floor, false),
          confirm.isEmpty() ? Optional.empty() : Optional.of(String.join("; and ", confirm)), Optional.empty());
      verdict = Verdict.HEALTHY;
      chain = List.of();
    } else {
      List<String> reasons = insufficiency(ctx, integrity);
      rc = new RootCause(RootCauseKind.UNDETERMINED,
          outcome == ApplicationRef.Outcome.FAILED ? "The application failed; the evidence does not say why"
              : "Not enough evidence to judge the application", Confidence.INSUFFICIENT_EVIDENCE,
          (outcome == ApplicationRef.Outcome.FAILED ? Character.toUpperCase(rootWhy.charAt(0)) + rootWhy.substring(1) + "."
              : "The evidence is "
              + "not complete enough to call the application healthy: " + String.join("; ", reasons) + ".")
              + " See the missing evidence for what to collect.",
          Culprit.none(), Optional.empty(), List.of(), List.of(), alternatives(null, ranked, findings, floor, false),
          Optional.of(toConfirmWhenUndetermined(ctx)),
          Optional.empty());
      verdict = Verdict.UNDETERMINED;
      chain = List.of();
    }
    List<Recommendation> recs = io.sparkrca.analysis.rca.internal.ServerlessLimits.apply(ctx,
        recommendations(root, ranked, findings), notes);
    List<MissingEvidence> missing = missingEvidence(ctx, root, ranked, verdict);
    damaged(ctx, integrity).ifPresent(m -> missing.add(0, m));
    if (!integrity.foundInModel().isEmpty()) {
      notes.add("The application's records do not add up: " + String.join("; ", integrity.foundInModel()) + ".");
    }
    ctx.interactiveSession().ifPresent(why -> notes.add("The application is " + why + ": time with no job running is "
        + "the time between the user's commands, so it was not read as driver work."));
    if (ctx.evidence().baseline().isEmpty() && root != null && root.kind().category() == RootCauseKind.Category.PERFORMANCE) {
      notes.add("No baseline run was given: the run was judged on its own. Comparing it with a healthy run of the same "
          + "job would tell a regression from growth in its input.");
    }
    ctx.app().ifPresent(a -> {
      if (!a.completeness().isComplete()) {
        notes.add("The application's data is partial: " + a.completeness().describe() + ".");
      }
    });
    return new RcaReport(applicationRef(ctx, outcome), verdict, rc, chain, Chronology.timeline(ctx),
        reported.stream().map(findings::get).toList(), recs, missing, notes);
  }

  /** Anti-patterns linked to a root-cause kind: code findings that are likely part of the story. */
  private static final Map<RootCauseKind, Set<String>> RELATED_PATTERNS = Map.of(
      RootCauseKind.DRIVER_OOM, Set.of("collect-unbounded", "broadcast-driver-collection"),
      RootCauseKind.DRIVER_BOTTLENECK, Set.of("collect-unbounded", "action-in-loop", "lineage-in-loop"),
      RootCauseKind.EXECUTOR_OOM_HEAP, Set.of("broadcast-driver-collection", "cache-without-reuse"),
      RootCauseKind.EXECUTOR_OOM_GC_OVERHEAD, Set.of("broadcast-driver-collection", "cache-without-reuse"),
      RootCauseKind.PYTHON_UDF_FAILURE, Set.of("row-wise-python-udf"),
      RootCauseKind.TOO_MANY_SMALL_TASKS, Set.of("repartition-where-coalesce-fits"),
      RootCauseKind.UNDERPARTITIONED, Set.of("repartition-where-coalesce-fits"));

  /** Where the root cause's code frame is in the code given, and the related anti-patterns found there. */
  private static List<EvidenceRef> codeEvidence(AnalysisContext ctx, Candidate root) {
    List<EvidenceRef> out = new ArrayList<>();
    for (io.sparkrca.core.evidence.CodeEvidence code : ctx.evidence().code()) {
      for (io.sparkrca.core.evidence.CodeLocation l : code.locations()) {
        String frame = l.frame().file() + (l.frame().line().isPresent() ? ":" + l.frame().line().getAsInt() : "");
        if (root.codeLocation().map(c -> c.startsWith(frame) && c.contains(l.frame().method())).orElse(false)) {
          String detail = (l.note().isEmpty() ? "" : l.note()) + (l.snippet().isEmpty() ? "" : "\n" + String.join("\n", l.snippet()));
          out.add(new EvidenceRef(EvidenceRef.Kind.CODE, l.file(), l.line().orElse(0), detail.strip()));
        }
      }
      for (io.sparkrca.core.evidence.CodeFinding f : code.findings()) {
        if (RELATED_PATTERNS.getOrDefault(root.kind(), Set.of()).contains(f.id()) && out.size() < 8) {
          out.add(new EvidenceRef(EvidenceRef.Kind.CODE, f.location(), 0, f.title() + ": " + f.evidence()));
        }
      }
    }
    return out;
  }

  private static Finding withEvidence(Finding f, List<EvidenceRef> evidence) {
    return new Finding(f.id(), f.kind(), f.severity(), f.title(), f.summary(), f.culprit(), f.metrics(), f.estimatedCostMs(),
        f.costShare(), f.fallout(), f.causedBy(), evidence, f.analyzer());
  }

  /** The earliest candidate that no other, earlier-or-equal candidate declares as its fallout. */
  private static Candidate earliestNotExplained(List<Candidate> sorted) {
    for (Candidate c : sorted) {
      boolean explained = sorted.stream().anyMatch(o -> o != c && o.explains().contains(c.kind())
          && (o.time() <= c.time() || c.time() < 0));
      if (!explained) {
        return c;
      }
    }
    return sorted.get(0);
  }

  private static boolean isFallout(Candidate root, Candidate c) {
    if (root.explains().contains(c.kind())) {
      return true;
    }
    // A later failure of the same kind is the same cause striking again.
    return c.kind() == root.kind() && c.time() >= root.time() && root.time() > 0;
  }

  /** Candidates of one analyzer and kind that concern the same stages are one finding. */
  private static List<Candidate> merge(List<Candidate> in) {
    List<Candidate> out = new ArrayList<>();
    for (Candidate c : in) {
      if (c.kind().category() != RootCauseKind.Category.FAILURE) {
        out.add(c); // only failures merge (below): skip the search
        continue;
      }
      Optional<Candidate> same = out.stream().filter(o -> o.kind() == c.kind()
          && o.finding().analyzer().equals(c.finding().analyzer())
          && c.kind().category() == RootCauseKind.Category.FAILURE
          && !java.util.Collections.disjoint(o.finding().culprit().stageIds(), c.finding().culprit().stageIds())).findFirst();
      if (same.isEmpty()) {
        out.add(c);
        continue;
      }
      Candidate first = same.get().time() <= c.time() || c.time() < 0 ? same.get() : c;
      Candidate second = first == c ? same.get() : c;
      Set<String> executors = new LinkedHashSet<>(first.finding().culprit().executorIds());
      executors.addAll(second.finding().culprit().executorIds());
      Finding f = first.finding();
      Finding merged = new Finding(f.id(), f.kind(), f.severity(), f.title(), f.summary(),
          f.culprit().withExecutors(new ArrayList<>(executors)), f.metrics(),
          f.estimatedCostMs() + second.finding().estimatedCostMs(), f.costShare() + second.finding().costShare(),
          f.fallout(), f.causedBy(), concat(f.evidence(), second.finding().evidence()), f.analyzer());
      out.set(out.indexOf(same.get()), new Candidate(merged, first.confidence(), first.explanation(),
          concat(first.evidenceAgainst(), second.evidenceAgainst()), first.toConfirm(), first.codeLocation(), first.time(),
          first.explainsFailure() || second.explainsFailure(), first.explains(), first.recommendations(), first.wants()));
    }
    return out;
  }

  private static List<Alternative> alternatives(Candidate root, List<Candidate> ranked, Map<Candidate, Finding> findings,
      long floor, boolean failureRoot) {
    List<Alternative> out = new ArrayList<>();
    for (Candidate c : ranked) {
      if (c == root || out.size() >= 6) {
        continue;
      }
      Finding f = findings.get(c);
      String why;
      if (root == null) {
        why = c.kind().category() != RootCauseKind.Category.PERFORMANCE ? "it does not explain what the evidence shows"
            : f.estimatedCostMs() <= 0 ? "no time cost could be estimated for it"
            : f.estimatedCostMs() < floor ? "it explains only " + Formats.humanMillis(f.estimatedCostMs())
                + ", under the significance floor of " + Formats.humanMillis(floor)
            : "it explains " + Formats.humanMillis(f.estimatedCostMs()) + ", but the evidence does not show it as the cause";
      } else if (f.fallout()) {
        why = "it is fallout of the root cause (it follows from it)";
      } else if (root.explainsFailure() && !c.explainsFailure()) {
        why = c.kind().category() == RootCauseKind.Category.PERFORMANCE
            ? (f.estimatedCostMs() > 0 ? "it cost time (about " + Formats.humanMillis(f.estimatedCostMs()) + ") but "
                : "it ") + "did not fail the application"
            : "the application recovered from it; it does not explain the failure";
      } else if (failureRoot && c.time() > root.time() && root.time() > 0) {
        why = "it happened later (" + Instant.ofEpochMilli(c.time()) + ") than the root cause ("
            + Instant.ofEpochMilli(root.time()) + ")";
      } else if (root.kind().category() == RootCauseKind.Category.COMPARISON) {
        why = "the comparison with the baseline explains the slowdown better: this finding is in both runs or explains less";
      } else {
        long rootMs = findings.get(root).estimatedCostMs();
        String rootCost = Formats.humanMillis(rootMs);
        why = f.estimatedCostMs() <= 0
            ? "no time cost could be estimated for it" + (rootMs > 0 ? " (the root cause explains " + rootCost + ")" : "")
            : rootMs <= 0 ? "it explains about " + Formats.humanMillis(f.estimatedCostMs()) + " and ranks below the root cause"
            : "it explains less time (about " + Formats.humanMillis(f.estimatedCostMs()) + " against " + rootCost + ")"
                + (f.estimatedCostMs() < floor ? ", under the significance floor" : "");
      }
      out.add(new Alternative(c.kind(), f.title(), why));
    }
    return out;
  }

  private static List<Recommendation> recommendations(Candidate root, List<Candidate> ranked, Map<Candidate, Finding> findings) {
    List<Recommendation> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Set<String> settings = new java.util.HashSet<>(); // property=value already recommended
    if (root != null) {
      for (Recommendation r : root.recommendations()) {
        if (seen.add(r.action())) {
          out.add(new Recommendation(r.priority(), r.action(), changes(r.properties()), r.rationale(),
              Optional.of(findings.get(root).id())));
          r.properties().forEach(pc -> settings.add(pc.property() + "=" + pc.recommended()));
        }
      }
    }
    int others = 0;
    // Slower only because the input grew: the other findings are in the baseline too, and tuning them
    // is not what the comparison asked (the slow-job playbook's common wrong answer).
    boolean growthOnly = root != null && root.kind() == RootCauseKind.NO_REGRESSION_INPUT_GROWTH;
    for (Candidate c : growthOnly ? List.<Candidate>of() : ranked) {
      Finding f = findings.get(c);
      if (c == root || f == null || f.fallout() || others >= 3) {
        continue;
      }
      others++;
      for (Recommendation r : c.recommendations()) {
        // Another finding's advice that only repeats settings already given (two views of one flaky host) is left out.
        boolean repeatsSettings = !r.properties().isEmpty()
            && r.properties().stream().allMatch(pc -> settings.contains(pc.property() + "=" + pc.recommended()));
        if (!repeatsSettings && seen.add(r.action())) {
          r.properties().forEach(pc -> settings.add(pc.property() + "=" + pc.recommended()));
          Recommendation.Priority p = r.priority() == Recommendation.Priority.INVESTIGATE
              ? Recommendation.Priority.INVESTIGATE : Recommendation.Priority.TUNING;
          out.add(new Recommendation(p, r.action(), changes(r.properties()), r.rationale(), Optional.of(f.id())));
        }
      }
    }
    return out;
  }

  /** The properties that change something: one already at the recommended value is no advice. */
  private static List<PropertyChange> changes(List<PropertyChange> properties) {
    return properties.stream().filter(pc -> pc.current().map(c -> !sameValue(c, pc.recommended())).orElse(true)).toList();
  }

  /** The same setting: equal ignoring case, the same number ({@code 0.50}, {@code 0.5}) or the same size ({@code 1g}, {@code 1024m}). */
  private static boolean sameValue(String a, String b) {
    String x = a.trim();
    String y = b.trim();
    if (x.equalsIgnoreCase(y)) {
      return true;
    }
    String number = "-?\\d+(\\.\\d+)?";
    if (x.matches(number) && y.matches(number)) {
      return new java.math.BigDecimal(x).compareTo(new java.math.BigDecimal(y)) == 0;
    }
    String size = "\\d+[kmgtKMGT][bB]?";
    if (x.matches(size) || y.matches(size)) {
      java.util.OptionalLong p = EffectiveConf.parseBytes(x);
      java.util.OptionalLong q = EffectiveConf.parseBytes(y);
      return p.isPresent() && q.isPresent() && p.getAsLong() == q.getAsLong();
    }
    return false;
  }

  private static List<MissingEvidence> missingEvidence(AnalysisContext ctx, Candidate root, List<Candidate> ranked,
      Verdict verdict) {
    Map<EvidenceKind, String> wanted = new LinkedHashMap<>();
    List<Candidate> relevant = new ArrayList<>();
    if (root != null) {
      relevant.add(root);
    }
    ranked.stream().filter(c -> c != root).limit(3).forEach(relevant::add);
    for (Candidate c : relevant) {
      for (Candidate.Want w : c.wants()) {
        wanted.putIfAbsent(w.kind(), w.why());
      }
    }
    if (verdict == Verdict.UNDETERMINED && (ctx.app().isEmpty() || ctx.rebuiltFromLogs())) {
      wanted.putIfAbsent(EvidenceKind.EVENT_LOG, "it records every job, stage and task with its error and metrics; "
          + "logs hold only what was logged, and excerpts less");
    }
    if (verdict == Verdict.HEALTHY) {
      wanted.putIfAbsent(EvidenceKind.DRIVER_LOG, "a failure outside any job (the driver's own exception) is recorded "
          + "only there");
    }
    if (verdict == Verdict.UNDETERMINED) {
      wanted.putIfAbsent(EvidenceKind.DRIVER_LOG, "failures outside any task, and the driver's last words, are only there");
      wanted.putIfAbsent(EvidenceKind.EXECUTOR_LOGS, "an executor that died says why only in its own log");
    }
    List<MissingEvidence> out = new ArrayList<>();
    Set<EvidenceKind> covered = new LinkedHashSet<>();
    for (EvidenceGap g : ctx.evidence().gaps()) {
      boolean asked = g.reason() != GapReason.NOT_REQUESTED;
      // A want is for a kind as a whole: a gap about one piece of it (one provider's records) does not answer it.
      String why = g.specific() ? null : wanted.get(g.kind());
      if (why == null && !asked) {
        continue;
      }
      if (!g.specific()) {
        covered.add(g.kind());
      }
      boolean contradicting = g.detail().contains("records contradict each other"); // Completeness.describe()'s words
      out.add(new MissingEvidence(g.what() + (g.uri().isEmpty() ? "" : " (" + g.uri() + ")"), g.reason(), g.detail(),
          why != null ? why : contradicting ? "records lost, repeated or contradicting each other can hide a failure: the "
              + "verdict covers only what adds up" : "it was asked for and could not be read, so the analysis went without it",
          contradicting ? DAMAGE_TO_DO : g.whatToDo()));
    }
    for (Map.Entry<EvidenceKind, String> w : wanted.entrySet()) {
      if (covered.contains(w.getKey())) {
        continue;
      }
      boolean collected = switch (w.getKey()) {
        case DRIVER_LOG -> ctx.evidence().hasDriverLog();
        case EXECUTOR_LOGS -> !ctx.evidence().executorLogs().isEmpty();
        case CODE -> !ctx.evidence().code().isEmpty();
        case CLUSTER_RECORDS -> !ctx.evidence().clusterEvents().isEmpty();
        case EVENT_LOG -> ctx.app().isPresent() && !ctx.rebuiltFromLogs();
        default -> true;
      };
      if (!collected) {
        out.add(new MissingEvidence(w.getKey().displayName(), GapReason.NOT_REQUESTED, "not collected", w.getValue(),
            w.getKey().howToGet()));
      }
    }
    return out;
  }

  private static String toConfirmWhenUndetermined(AnalysisContext ctx) {
    List<String> missing = new ArrayList<>();
    if (!ctx.evidence().hasDriverLog()) {
      missing.add("the driver log");
    }
    if (ctx.evidence().executorLogs().isEmpty()) {
      missing.add("the executors' logs");
    }
    return missing.isEmpty()
        ? "the cluster manager's records of the application's processes (exit statuses, kills, evictions), which hold "
            + "what neither the event log nor the logs record"
        : String.join(" and ", missing) + ", which hold failures the event log does not record";
  }

  /**
   * The damage in the application's records, as one missing piece of evidence: an intact record of
   * the run. Empty when the records add up, or when the collector already stated the same damage.
   */
  private static Optional<MissingEvidence> damaged(AnalysisContext ctx, Integrity integrity) {
    if (integrity.sound()) {
      return Optional.empty();
    }
    List<String> stated = ctx.evidence().gaps().stream().map(g -> g.detail()).toList();
    List<String> unstated = integrity.all().stream().filter(d -> stated.stream().noneMatch(g -> g.contains(d))).toList();
    if (unstated.isEmpty()) {
      return Optional.empty();
    }
    String uri = ctx.source().map(ApplicationEvidence::uri).orElse("");
    return Optional.of(new MissingEvidence("an intact record of the run" + (uri.isEmpty() ? "" : " (" + uri + ")"),
        GapReason.PARTIAL, String.join("; ", unstated),
        integrity.unfinished().isEmpty()
            ? "records lost, repeated or contradicting each other can hide a failure: the verdict covers only what adds up"
            : "a job or query whose end is not recorded may have failed: the application's outcome is unknown",
        DAMAGE_TO_DO));
  }

  /** How to get records that add up: another copy, or find out why the driver lost events. */
  private static final String DAMAGE_TO_DO = "read the application from another copy of its event log or from the History "
      + "Server that served it; if every copy is the same, the driver dropped events (its log's AsyncEventQueue warnings "
      + "'Dropped N events from eventLog'): raise spark.scheduler.listenerbus.eventqueue.capacity";

  private static List<String> insufficiency(AnalysisContext ctx, Integrity integrity) {
    List<String> out = new ArrayList<>();
    if (ctx.app().isEmpty()) {
      out.add("the application itself could not be read");
      return out;
    }
    if (ctx.rebuiltFromLogs()) {
      out.add("there is no event log: the application was rebuilt from its logs, which record only some of what it did");
      return out;
    }
    if (!ctx.completed()) {
      out.add("its log ends before the application did");
    }
    if (ctx.app().get().completeness().cutOff()) {
      out.add("its log is cut off");
    }
    if (ctx.jobs().isEmpty()) {
      out.add("it ran no job");
    }
    out.addAll(integrity.unfinished());
    return out;
  }

  private static List<EvidenceRef> healthyEvidence(AnalysisContext ctx) {
    return List.of(ctx.apiRef("jobs", Formats.count(ctx.jobs().size(), "job") + ", none failed"),
        ctx.apiRef("stages", Formats.count(ctx.stages().size(), "stage attempt") + "; "
            + Formats.count(ctx.facts().tasksFailed(), "failed task")));
  }

  private static ApplicationRef applicationRef(AnalysisContext ctx, ApplicationRef.Outcome outcome) {
    Optional<SparkApplication> app = ctx.app();
    Optional<ApplicationEvidence> src = ctx.source();
    long start = ctx.startMs();
    long end = ctx.completed() ? ctx.endMs() : -1;
    return new ApplicationRef(
        app.map(a -> a.info().id()).orElse(""),
        app.map(a -> a.info().name()).orElse(""),
        app.flatMap(SparkApplication::attemptId),
        app.map(SparkApplication::sparkVersion).orElse(""),
        app.map(a -> a.info().latestAttempt().sparkUser()).orElse(""),
        src.map(ApplicationEvidence::uri).orElse(ctx.evidence().logs().isEmpty() ? "" : ctx.evidence().logs().get(0).uri()),
        src.map(ApplicationEvidence::provider).orElse("logs"),
        ctx.conf().set("spark.master").orElse(""),
        start > 0 ? Optional.of(Instant.ofEpochMilli(start)) : Optional.empty(),
        end > 0 ? Optional.of(Instant.ofEpochMilli(end)) : Optional.empty(),
        start > 0 && end >= start ? Optional.of(end - start) : Optional.empty(),
        outcome);
  }

  private static Comparator<Candidate> byTime() {
    return Comparator.comparingLong(c -> c.time() < 0 ? Long.MAX_VALUE : c.time());
  }

  private static Finding withId(Finding f, String id, boolean fallout, Optional<String> causedBy) {
    return new Finding(id, f.kind(), f.severity(), f.title(), f.summary(), f.culprit(), f.metrics(), f.estimatedCostMs(),
        f.costShare(), fallout, causedBy, distinct(f.evidence()), f.analyzer());
  }

  /**
   * One reference per line of a source: a record cited again (one removal line for each executor a
   * finding merges, a failed task and the abort read from it) is one piece of evidence. What a later
   * citation adds is kept in the first one's detail, in order; references without a line (metrics,
   * API paths, settings) are kept as they are.
   */
  static List<EvidenceRef> distinct(List<EvidenceRef> refs) {
    Map<String, Integer> at = new java.util.HashMap<>();
    List<EvidenceRef> out = new ArrayList<>();
    for (EvidenceRef e : refs) {
      if (e.line() <= 0 || e.source().isEmpty()) {
        out.add(e);
        continue;
      }
      Integer i = at.putIfAbsent(e.source() + "\u0000" + e.line(), out.size());
      if (i == null) {
        out.add(e);
      } else if (!out.get(i).detail().contains(e.detail())) {
        EvidenceRef first = out.get(i);
        out.set(i, new EvidenceRef(first.kind(), first.source(), first.line(), first.detail() + "\n" + e.detail()));
      }
    }
    return out;
  }

  private static Candidate withFinding(Candidate c, Finding f) {
    return new Candidate(f, c.confidence(), c.explanation(), c.evidenceAgainst(), c.toConfirm(), c.codeLocation(), c.time(),
        c.explainsFailure(), c.explains(), c.recommendations(), c.wants());
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** Builder for an {@link RcaEngine}. */
  public static final class Builder {
    private final List<Analyzer> extra = new ArrayList<>();
    private boolean standardAnalyzers = true;
    private boolean serviceAnalyzers = true;
    private double minCostShare = 0.05;
    private Duration minCost = Duration.ofMillis(500);
    private boolean charts = true;
    private KnowledgeBase knowledge = KnowledgeBase.standard();

    private Builder() {}

    /** Adds an analyzer, run after the standard ones. */
    public Builder analyzer(Analyzer a) {
      extra.add(Objects.requireNonNull(a, "analyzer"));
      return this;
    }

    /** Leaves the standard analyzers out (only those added, and those on the class path, run). */
    public Builder withoutStandardAnalyzers() {
      this.standardAnalyzers = false;
      return this;
    }

    /** Whether to add the analyzers found with {@link ServiceLoader} (default true). */
    public Builder loadServiceAnalyzers(boolean load) {
      this.serviceAnalyzers = load;
      return this;
    }

    /**
     * The significance floor for performance findings: a finding is a root-cause candidate when it
     * explains at least {@code minShare} of the run time and at least {@code minCost} (defaults 5%
     * and 500 ms). Failures have no floor.
     */
    public Builder significance(double minShare, Duration minCost) {
      if (!(minShare >= 0 && minShare < 1)) {
        throw new InvalidRequestException("the significance share must be between 0 and 1, not " + minShare);
      }
      Objects.requireNonNull(minCost, "minCost");
      if (minCost.isNegative()) {
        throw new InvalidRequestException("the significance floor must not be negative, not " + minCost);
      }
      this.minCostShare = minShare;
      this.minCost = minCost;
      return this;
    }

    /**
     * Whether reports can draw charts on their HTML page ({@link RcaReport#charts()}; default
     * true): they then keep the application, which is profiled when the page is rendered. Turn it
     * off where reports are kept many at a time and never drawn (a fleet scan's rows, a
     * listener's report), so that they do not hold their applications.
     */
    public Builder charts(boolean charts) {
      this.charts = charts;
      return this;
    }

    /**
     * The failure knowledge base (default {@link KnowledgeBase#standard()}): what failures in logs
     * and task errors are classified by. A base with a team's own families:
     *
     * <pre>{@code
     * RcaEngine engine = RcaEngine.builder()
     *     .knowledgeBase(KnowledgeBase.builder().add(Path.of("our-failures.json")).standard().build())
     *     .build();
     * }</pre>
     */
    public Builder knowledgeBase(KnowledgeBase knowledge) {
      this.knowledge = Objects.requireNonNull(knowledge, "knowledge");
      return this;
    }

    public RcaEngine build() {
      List<Analyzer> all = new ArrayList<>();
      if (standardAnalyzers) {
        all.addAll(List.of(new TaskFailureAnalyzer(), new ExecutorLossAnalyzer(), new FlakyNodeAnalyzer(), new DriverFailureAnalyzer(), new ApplicationStopAnalyzer(), new LogFamilyAnalyzer(),
            new SkewAnalyzer(), new TaskCountAnalyzer(), new LaunchWaitAnalyzer(), new MemoryPressureAnalyzer(), new JoinStrategyAnalyzer(),
            new DriverTimeAnalyzer(), new ComparisonAnalyzer(), new MetricInsightsAnalyzer()));
      }
      all.addAll(extra);
      if (serviceAnalyzers) {
        ServiceLoader.load(Analyzer.class).forEach(all::add);
      }
      return new RcaEngine(this, all);
    }
  }
}
