package io.sparkrca.analysis.compare.internal;

import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.report.Alternative;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.analysis.AnalysisContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Weighs the explanations of a slowdown against each other and names the verdict: first whether
 * the candidate is slower at all, then whether its time per unit of input is flat (the input grew,
 * nothing regressed), then each hypothesis (a configuration change, a change in the data's
 * distribution, fewer resources or more executor loss, a code change) scored by how directly the
 * stage evidence shows it. The best-scored is the verdict; each other one is an alternative with
 * the reason it was rejected. Recommendations avoid the slow-job playbook's common wrong answers:
 * no more memory for a skewed partition, no more executors when a stage's task count caps its
 * parallelism, no caching of data read once.
 */
final class Judge {
  /** The time per unit of input up to this ratio counts as flat. */
  static final double FLAT = 1.1;
  /** The input counts as grown from this ratio. */
  static final double GREW = 1.1;
  /** A hypothesis needs at least this score to be the verdict. */
  static final double MIN_SCORE = 0.3;
  /** A slowest task this many times the median is skew. */
  static final double SKEWED = 4.0;

  private final AnalysisContext c;
  private final AnalysisContext b;
  private final Comparison.Run rc;
  private final Comparison.Run rb;
  private final double slowdown;
  private final double growth;
  private final double normalized;
  private final List<Comparison.StagePair> pairs;
  private final Optional<Comparison.StagePair> first;
  private final Aligner.Alignment alignment;
  private final List<Comparison.ConfigChange> config;
  private final Optional<CodeDiff> code;
  private final double minSlowdown;

  Judge(AnalysisContext c, AnalysisContext b, Comparison.Run rc, Comparison.Run rb, double slowdown, double growth,
      double normalized, List<Comparison.StagePair> pairs, Optional<Comparison.StagePair> first,
      Aligner.Alignment alignment, List<Comparison.ConfigChange> config, Optional<CodeDiff> code, double minSlowdown) {
    this.c = c;
    this.b = b;
    this.rc = rc;
    this.rb = rb;
    this.slowdown = slowdown;
    this.growth = growth;
    this.normalized = normalized;
    this.pairs = pairs;
    this.first = first;
    this.alignment = alignment;
    this.config = config;
    this.code = code;
    this.minSlowdown = minSlowdown;
  }

  /** One explanation, scored. */
  private record Hypothesis(RootCauseKind kind, double score, String title, String explanation, String whyNot,
      Confidence confidence, List<EvidenceRef> evidence, List<Recommendation> recommendations, Optional<String> toConfirm) {}

  Comparison.Verdict verdict() {
    List<EvidenceRef> runs = List.of(
        ref(c, "jobs", "job time " + Formats.humanMillis(rc.jobTimeMs()) + " for " + input(rc)),
        ref(b, "jobs", "baseline job time " + Formats.humanMillis(rb.jobTimeMs()) + " for " + input(rb)));
    String times = Formats.humanMillis(rc.jobTimeMs()) + " of jobs against the baseline " + rb.applicationId() + "'s "
        + Formats.humanMillis(rb.jobTimeMs()) + " (" + x(slowdown) + ")";
    if (slowdown < minSlowdown) {
      return new Comparison.Verdict(RootCauseKind.HEALTHY, "Not slower than the baseline", Confidence.CONFIRMED,
          "This run took " + times + ", under the " + x(minSlowdown) + " from which a run counts as slower"
              + (Math.abs(growth - 1) >= 0.05 ? ", on " + x(growth) + " the input" : "") + ".",
          runs, List.of(), List.of(), Optional.empty());
    }
    if (growth >= GREW && normalized <= FLAT) {
      List<Recommendation> recs = new ArrayList<>();
      recs.add(rec(Recommendation.Priority.INVESTIGATE, "Nothing regressed: the job did the same work "
          + "per record. " + scaling(), "Its time grew no faster than its input (" + x(normalized) + " per unit of input).",
          List.of(), Optional.empty()));
      return new Comparison.Verdict(RootCauseKind.NO_REGRESSION_INPUT_GROWTH, "Slower than the baseline only because "
          + "the input grew", Confidence.CONFIRMED, "This run took " + times + ", but it read " + input(rc)
          + " against " + input(rb) + ": the input grew " + x(growth) + ", and per unit of input it took " + x(normalized)
          + " the baseline's time, so the job itself did not regress." + firstNote(), runs,
          List.of(new Alternative(RootCauseKind.CONFIG_REGRESSION, "Regression caused by a configuration change",
              "the time per unit of input did not grow (" + x(normalized) + "), so nothing made the job slower"
                  + (config.isEmpty() ? "; and no property changed" : "; the " + config.size()
                      + " changed properties did not slow it down"))),
          recs, Optional.empty());
    }
    List<Hypothesis> hs = new ArrayList<>(List.of(configHypothesis(), infrastructure(), distribution(), codeChange()));
    hs.sort(Comparator.comparingDouble(Hypothesis::score).reversed());
    Hypothesis best = hs.get(0);
    List<Alternative> alternatives = new ArrayList<>();
    if (growth >= GREW) {
      alternatives.add(new Alternative(RootCauseKind.NO_REGRESSION_INPUT_GROWTH, "Slower only because the input grew",
          "the input grew " + x(growth) + " but the time per unit of input grew too (" + x(normalized) + ")"));
    } else {
      alternatives.add(new Alternative(RootCauseKind.NO_REGRESSION_INPUT_GROWTH, "Slower only because the input grew",
          growth <= 1 / GREW ? "the input shrank (" + x(growth) + ")" : "the input is the same (" + input(rc) + " against "
              + input(rb) + ")"));
    }
    if (best.score() < MIN_SCORE) {
      for (Hypothesis h : hs) {
        alternatives.add(new Alternative(h.kind(), h.title(), h.whyNot()));
      }
      return new Comparison.Verdict(RootCauseKind.UNDETERMINED, "Slower than the baseline, for no reason the evidence "
          + "shows", Confidence.INSUFFICIENT_EVIDENCE, "This run took " + times + " on " + x(growth) + " the input ("
          + x(normalized) + " per unit of input)." + firstNote() + " Neither a configuration change, the data's "
          + "distribution, the resources granted nor the code (as far as it was given) explains it.", runs,
          alternatives, List.of(rec(Recommendation.Priority.INVESTIGATE, "Compare the two runs' cluster "
              + "records (node types, co-tenants, storage latency) and their code; run the analysis on this run alone "
              + "for its own bottlenecks.", "The event logs alone do not explain the slowdown.", List.of(),
              Optional.empty())), Optional.of("both runs' code, and the cluster manager's records of both runs"));
    }
    for (Hypothesis h : hs.subList(1, hs.size())) {
      alternatives.add(new Alternative(h.kind(), h.title(), h.score() >= MIN_SCORE
          ? "it explains less (" + h.explanation() + ")" : h.whyNot()));
    }
    List<EvidenceRef> evidence = new ArrayList<>(runs);
    evidence.addAll(best.evidence());
    return new Comparison.Verdict(best.kind(), best.title(), best.confidence(), "This run took " + times + " on "
        + (Math.abs(growth - 1) < 0.05 ? "the same input (" + input(rc) + ")" : x(growth) + " the input") + ": "
        + x(normalized) + " per unit of input." + firstNote() + " " + best.explanation(), evidence, alternatives,
        best.recommendations(), best.toConfirm());
  }

  private Hypothesis configHypothesis() {
    List<Comparison.ConfigChange> linked = config.stream().filter(x -> x.link().isPresent()
        && !x.category().equals("resources")).toList();
    List<Comparison.ConfigChange> perf = config.stream().filter(x -> x.category().equals("performance")).toList();
    String title = "Regression caused by a configuration change";
    if (config.isEmpty()) {
      return new Hypothesis(RootCauseKind.CONFIG_REGRESSION, 0, title, "", "no Spark property differs between the runs",
          Confidence.INSUFFICIENT_EVIDENCE, List.of(), List.of(), Optional.empty());
    }
    double score = linked.isEmpty() ? (perf.isEmpty() ? 0.05 : 0.3) : linked.get(0).relevance();
    List<EvidenceRef> ev = new ArrayList<>();
    for (Comparison.ConfigChange x : config.subList(0, Math.min(8, config.size()))) {
      ev.add(new EvidenceRef(EvidenceRef.Kind.CONFIG, "applications/" + rc.applicationId() + "/environment", 0,
          x.property() + "=" + x.candidate().orElse("(unset)") + " (baseline: " + x.baseline().orElse("unset") + ")"
              + x.link().map(l -> ": " + l).orElse("")));
    }
    List<PropertyChange> restore = new ArrayList<>();
    for (Comparison.ConfigChange x : (linked.isEmpty() ? perf : linked)) {
      restore.add(new PropertyChange(x.property(), x.candidate(), x.baseline().orElse("(unset, Spark's default)")));
    }
    String what = (linked.isEmpty() ? perf : linked).stream().map(Comparison.ConfigChange::describe).toList().toString();
    String explanation = linked.isEmpty()
        ? "Its configuration differs (" + String.join("; ", config.stream().limit(6).map(Comparison.ConfigChange::describe)
            .toList()) + "), but no change shows in the stages."
        : "Its configuration differs, and the stages show it: " + String.join("; ", linked.stream().limit(3)
            .map(x -> x.describe() + " (" + x.link().get() + ")").toList()) + ".";
    List<Recommendation> recs = new ArrayList<>();
    if (!restore.isEmpty()) {
      recs.add(rec(Recommendation.Priority.IMMEDIATE_FIX, "Restore the baseline's values of the changed "
          + "settings that show in the stages.", "They changed between the healthy run and this one, and "
          + (linked.isEmpty() ? "they are settings that move run time." : "the stage evidence shows their effect."),
          restore, Optional.empty()));
    }
    return new Hypothesis(RootCauseKind.CONFIG_REGRESSION, score, title, explanation,
        linked.isEmpty() ? "the changed properties " + what + " show in no stage" : "",
        Confidence.LEADING_HYPOTHESIS, ev, recs,
        Optional.of("a run with the baseline's values of " + String.join(", ", (linked.isEmpty() ? perf : linked).stream()
            .limit(3).map(Comparison.ConfigChange::property).toList()) + " that is as fast as the baseline"));
  }

  private Hypothesis infrastructure() {
    String title = "Fewer resources than the baseline, or more executors lost";
    boolean fewerCores = rc.maxCores() > 0 && rb.maxCores() > 0 && rc.maxCores() <= 0.8 * rb.maxCores();
    boolean moreLoss = rc.executorsLost() > rb.executorsLost();
    if (!fewerCores && !moreLoss) {
      return new Hypothesis(RootCauseKind.INFRASTRUCTURE_CHANGE, 0, title, "", "this run had " + rc.maxCores()
          + " cores at most against the baseline's " + rb.maxCores() + ", and lost " + rc.executorsLost()
          + " executors against " + rb.executorsLost(), Confidence.INSUFFICIENT_EVIDENCE, List.of(), List.of(),
          Optional.empty());
    }
    List<EvidenceRef> ev = new ArrayList<>();
    ev.add(ref(c, "allexecutors", rc.executors() + " executors, " + rc.maxCores() + " cores at most, "
        + rc.executorsLost() + " lost"));
    ev.add(ref(b, "allexecutors", "baseline: " + rb.executors() + " executors, " + rb.maxCores() + " cores at most, "
        + rb.executorsLost() + " lost"));
    List<String> why = new ArrayList<>();
    double score = 0;
    List<Recommendation> recs = new ArrayList<>();
    if (fewerCores) {
      // The same work (task time per unit of input flat) taking longer on the wall clock is capacity, not the job.
      Optional<Comparison.StagePair> p = first.isPresent() ? first : pairs.stream()
          .max(Comparator.comparingLong(Comparison.StagePair::extraMs));
      double workRatio = p.map(x -> Comparer.ratio(x.candidate().taskTimeMs(), x.baseline().taskTimeMs()) / x.inputRatio())
          .orElse(1.0);
      boolean sameWork = workRatio <= 1.5;
      boolean tasksExceedCores = p.map(x -> x.candidate().tasks() > rc.maxCores()).orElse(true);
      // Fewer cores cannot slow a stage that has no more tasks than the cores left.
      score = !tasksExceedCores ? 0.35 : sameWork ? 0.85 : 0.5;
      List<Comparison.ConfigChange> asked = config.stream().filter(x -> x.category().equals("resources")).toList();
      why.add("it had " + rc.maxCores() + " cores at most against the baseline's " + rb.maxCores()
          + (asked.isEmpty() ? " (granted fewer than the same request)" : " (the request changed: "
              + String.join("; ", asked.stream().map(Comparison.ConfigChange::describe).toList()) + ")")
          + p.map(x -> ", and " + x.candidate().label() + " did " + x(workRatio) + " the task time per unit of input in "
              + x(x.timeRatio()) + " the wall time").orElse(""));
      if (tasksExceedCores) {
        List<PropertyChange> props = asked.stream().map(x -> new PropertyChange(x.property(), x.candidate(),
            x.baseline().orElse("(unset, Spark's default)"))).toList();
        recs.add(rec(Recommendation.Priority.IMMEDIATE_FIX, "Give the job the baseline's capacity back ("
            + rb.maxCores() + " cores)" + (asked.isEmpty() ? ": check the cluster's quota, node pool and "
                + "autoscaling, which granted fewer cores than the same request." : "."),
            p.map(x -> x.candidate().label() + " has " + x.candidate().tasks() + " tasks for " + rc.maxCores()
                + " cores, so more cores run more of them at once.").orElse("The same work ran on fewer cores."),
            props, Optional.empty()));
      } else {
        recs.add(rec(Recommendation.Priority.INVESTIGATE, "More executors would not help "
            + p.get().candidate().label() + ": it has only " + p.get().candidate().tasks() + " tasks for "
            + rc.maxCores() + " cores. Raise its partition count first.", "A stage cannot run more tasks at once than "
            + "it has.", List.of(), Optional.empty()));
      }
    }
    if (moreLoss) {
      score = Math.max(score, rc.failedTasks() > rb.failedTasks() ? 0.75 : 0.6);
      why.add("it lost " + rc.executorsLost() + " executors against the baseline's " + rb.executorsLost() + " ("
          + rc.failedTasks() + " failed task attempts against " + rb.failedTasks() + "), whose work ran again");
      recs.add(rec(Recommendation.Priority.INVESTIGATE, "Find out why this run lost its executors: run "
          + "the root-cause analysis on it with the executors' logs and the cluster manager's records.",
          "Lost executors take their running tasks and shuffle output with them.", List.of(), Optional.empty()));
    }
    return new Hypothesis(RootCauseKind.INFRASTRUCTURE_CHANGE, score, title, "The cluster gave it less: "
        + String.join("; ", why) + ".", "", Confidence.LEADING_HYPOTHESIS, ev, recs,
        Optional.of("a run with the baseline's resources that is as fast as the baseline"));
  }

  private Hypothesis distribution() {
    String title = "The data's distribution changed: skew appeared";
    Optional<Comparison.StagePair> p = first.isPresent() ? first : pairs.stream()
        .max(Comparator.comparingLong(Comparison.StagePair::extraMs));
    if (p.isEmpty()) {
      return new Hypothesis(RootCauseKind.DATA_DISTRIBUTION_CHANGE, 0, title, "", "no stage of the two runs matched",
          Confidence.INSUFFICIENT_EVIDENCE, List.of(), List.of(), Optional.empty());
    }
    Comparison.StagePair x = p.get();
    double now = x.candidate().skew();
    double before = Math.max(1, x.baseline().skew());
    double shuffleNow = x.candidate().shuffleSkew();
    double shuffleBefore = Math.max(1, x.baseline().shuffleSkew());
    boolean shuffleSkewed = shuffleNow >= SKEWED && shuffleNow >= 2 * shuffleBefore;
    // A slow task that read no more than the others is a straggler (a slow node, GC, scheduling), not
    // a hot key; time alone speaks for skew only where the data per task is unknown and tasks are not tiny.
    boolean readsShuffle = x.candidate().medianShuffleReadBytes() > 0;
    boolean skewed = now >= SKEWED && now >= 2 * before && !readsShuffle && x.candidate().medianTaskMs() >= 100;
    if (!skewed && !shuffleSkewed) {
      return new Hypothesis(RootCauseKind.DATA_DISTRIBUTION_CHANGE, 0, title, "", x.candidate().label()
          + "'s slowest task took " + overMedian(x.candidate(), false) + " (baseline " + overMedian(x.baseline(), false)
          + ") and its largest shuffle read per task was " + overMedian(x.candidate(), true) + " (baseline "
          + overMedian(x.baseline(), true) + "): no key became hot", Confidence.INSUFFICIENT_EVIDENCE, List.of(), List.of(), Optional.empty());
    }
    double score = skewed && shuffleSkewed ? 0.9 : 0.8;
    List<EvidenceRef> ev = List.of(
        ref(c, "stages/" + x.candidate().stageId() + "/" + x.candidate().attemptId() + "/taskSummary",
            "median task " + Formats.humanMillis(x.candidate().medianTaskMs()) + ", max "
                + Formats.humanMillis(x.candidate().maxTaskMs()) + "; shuffle read per task median "
                + Formats.humanBytes(x.candidate().medianShuffleReadBytes()) + ", max "
                + Formats.humanBytes(x.candidate().maxShuffleReadBytes())),
        ref(b, "stages/" + x.baseline().stageId() + "/" + x.baseline().attemptId() + "/taskSummary",
            "baseline: median task " + Formats.humanMillis(x.baseline().medianTaskMs()) + ", max "
                + Formats.humanMillis(x.baseline().maxTaskMs()) + "; shuffle read per task median "
                + Formats.humanBytes(x.baseline().medianShuffleReadBytes()) + ", max "
                + Formats.humanBytes(x.baseline().maxShuffleReadBytes())));
    boolean aqeSkewOff = !c.conf().isTrue("spark.sql.adaptive.enabled") || !c.conf().isTrue("spark.sql.adaptive.skewJoin.enabled");
    List<Recommendation> recs = new ArrayList<>();
    List<PropertyChange> props = new ArrayList<>();
    if (aqeSkewOff && x.candidate().role().contains("shuffle-read")) {
      props.add(new PropertyChange("spark.sql.adaptive.enabled", c.conf().get("spark.sql.adaptive.enabled"), "true"));
      props.add(new PropertyChange("spark.sql.adaptive.skewJoin.enabled",
          c.conf().get("spark.sql.adaptive.skewJoin.enabled"), "true"));
    }
    recs.add(rec(Recommendation.Priority.IMMEDIATE_FIX, "Spread the hot key of " + x.candidate().label()
        + ": salt it (add a random suffix, aggregate in two steps), filter or pre-aggregate it, or let AQE split skewed "
        + "join partitions. Do not add executor memory: one task still gets all of the hot key's rows.",
        "One task read " + Formats.humanBytes(x.candidate().maxShuffleReadBytes()) + " where the median read "
            + Formats.humanBytes(x.candidate().medianShuffleReadBytes()) + "; more memory or executors do not split it.",
        props, Optional.empty()));
    return new Hypothesis(RootCauseKind.DATA_DISTRIBUTION_CHANGE, score, title, "Its data is distributed differently: "
        + "in " + x.candidate().label() + " the slowest task took " + overMedian(x.candidate(), false) + " (baseline "
        + overMedian(x.baseline(), false) + ") and the largest shuffle read per task was " + overMedian(x.candidate(), true)
        + " (baseline " + overMedian(x.baseline(), true) + "): a key became hot.", "",
        Confidence.LEADING_HYPOTHESIS, ev, recs,
        Optional.of("the key distribution of " + x.candidate().label() + "'s input in both runs (a count by key)"));
  }

  /**
   * The stage's largest task (its duration, or its shuffle read) against the median as a sentence
   * says it: {@code "12.0x the median"}; over a median of 0 no ratio is true, so what is.
   */
  static String overMedian(Comparison.StageStats s, boolean shuffleRead) {
    double ratio = shuffleRead ? s.shuffleSkew() : s.skew();
    if (ratio > 0) {
      return Formats.fixed(ratio, 1) + "x the median";
    }
    long max = shuffleRead ? s.maxShuffleReadBytes() : s.maxTaskMs();
    if (max <= 0) {
      return shuffleRead ? "nothing, as did the median task" : "0 ms, as did the median task";
    }
    return shuffleRead ? Formats.humanBytes(max) + " where the median task read nothing"
        : Formats.humanMillis(max) + " where the median task took 0 ms";
  }

  private Hypothesis codeChange() {
    String title = "The job's code changed";
    int newStages = alignment.unmatchedCandidate().size();
    int goneStages = alignment.unmatchedBaseline().size();
    long renamed = pairs.stream().filter(p -> !p.candidate().name().equals(p.baseline().name())
        && !p.matchedBy().startsWith("query")).count();
    if (code.isPresent() && !code.get().identical()) {
      CodeDiff d = code.get();
      List<String> changed = d.changed().stream().map(CodeDiff.ChangedEntry::name).limit(5).toList();
      List<String> strings = d.changed().stream().flatMap(e -> e.addedStrings().stream()).limit(5).toList();
      double score = 0.6 + (newStages + goneStages > 0 ? 0.2 : 0);
      String what = d.changed().size() + " entries changed, " + d.added().size() + " added, " + d.removed().size()
          + " removed" + (changed.isEmpty() ? "" : " (" + String.join(", ", changed) + ")")
          + (strings.isEmpty() ? "" : "; new constants: " + String.join(" | ", strings));
      return new Hypothesis(RootCauseKind.CODE_CHANGE, score, title, "Its code differs from the baseline's: " + what
          + (newStages + goneStages > 0 ? "; and its stages differ: " + newStages + " new, " + goneStages + " gone" : "")
          + ".", "", Confidence.LEADING_HYPOTHESIS,
          List.of(new EvidenceRef(EvidenceRef.Kind.CODE, d.candidateUri(), 0, "against " + d.baselineUri() + ": " + what)),
          List.of(rec(Recommendation.Priority.INVESTIGATE, "Review the code change between the two builds"
              + (changed.isEmpty() ? "" : ", starting with " + String.join(", ", changed)) + ".",
              "The code differs and the configuration does not explain the slowdown.", List.of(), Optional.empty())),
          Optional.of("the baseline's build run on this run's input"));
    }
    if (newStages + goneStages > 0 || renamed > 0) {
      return new Hypothesis(RootCauseKind.CODE_CHANGE, code.isPresent() ? 0.2 : 0.4, title, "Its stages differ from the "
          + "baseline's (" + newStages + " new, " + goneStages + " gone, " + renamed + " at another call site)"
          + (code.isPresent() ? ", though the code given is the same" : "; the code was not given to compare") + ".",
          code.isPresent() ? "the code given is identical" : "the code was not given, and the stage changes may come "
              + "from the configuration", Confidence.LEADING_HYPOTHESIS, List.of(), List.of(
              rec(Recommendation.Priority.INVESTIGATE, "Compare the two runs' code (give both JARs or "
                  + "scripts).", "The stages changed, which a code change explains.", List.of(), Optional.empty())),
          Optional.of("both runs' code"));
    }
    return new Hypothesis(RootCauseKind.CODE_CHANGE, 0, title, "", code.isPresent()
        ? "the code given for both runs is identical" : "every stage matched the baseline's by call site and lineage, "
            + "and the code was not given to compare", Confidence.INSUFFICIENT_EVIDENCE, List.of(), List.of(),
        Optional.empty());
  }

  /** Advice for a run that is slower only because of its input: scale, where scaling helps. */
  private String scaling() {
    Optional<Comparison.StagePair> longest = pairs.stream().max(Comparator.comparingLong(p -> p.candidate().wallMs()));
    if (longest.isEmpty() || rc.maxCores() <= 0) {
      return "If the run time matters, scale the resources and the partitions with the input.";
    }
    Comparison.StageStats s = longest.get().candidate();
    if (s.tasks() <= rc.maxCores()) {
      return "If the run time matters, raise the partition count of " + s.label() + " (" + s.tasks() + " tasks for "
          + rc.maxCores() + " cores) before adding executors: more executors would sit idle.";
    }
    return "If the run time matters, scale the executors with the input: " + s.label() + " has " + s.tasks()
        + " tasks for " + rc.maxCores() + " cores.";
  }

  private String firstNote() {
    if (first.isEmpty()) {
      return " No matched stage departs from its baseline after normalising for input.";
    }
    Comparison.StagePair p = first.get();
    return " The first stage to depart is " + p.candidate().label() + " (baseline " + p.baseline().label() + "): "
        + Formats.humanMillis(p.candidate().wallMs()) + " against " + Formats.humanMillis(p.baseline().wallMs()) + ", "
        + x(p.normalizedRatio()) + " per unit of input.";
  }

  private static EvidenceRef ref(AnalysisContext ctx, String path, String detail) {
    return ctx.apiRef(path, detail);
  }

  private static String input(Comparison.Run r) {
    return r.inputRecords() > 0 ? r.inputRecords() + " input records" : r.inputBytes() > 0
        ? Formats.humanBytes(r.inputBytes()) + " of input" : "an input of unknown size";
  }

  /** A recommendation, its rationale before its properties as the sentences read. */
  private static Recommendation rec(Recommendation.Priority p, String action, String rationale,
      List<PropertyChange> properties, Optional<String> finding) {
    return new Recommendation(p, action, properties, rationale, finding);
  }

  static String x(double ratio) {
    return Formats.fixed(ratio, 2) + "x";
  }
}
