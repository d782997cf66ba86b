package io.sparkrca.analysis.compare.internal;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.evidence.CodeInspectionProvider;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.model.JobData;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskMetricDistributions;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.html.RunProfile;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.analysis.AnalysisContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * Runs one comparison: the two runs' totals, the stage and job alignment, the normalised ratios,
 * the first divergent stage, the configuration and code diffs, then the {@link Judge}'s verdict.
 * Not an API: {@link Comparison#builder} is.
 */
public final class Comparer {
  /** A stage whose normalised time ratio reaches this departs from its baseline. */
  public static final double DIVERGENT_RATIO = 1.5;
  /**
   * ... and only when the extra time is at least this much: a second more in a short stage is the
   * jitter of a shared machine, not what made a run slower.
   */
  static final long MIN_EXTRA_MS = 1000;
  /** ... and at least this share of the baseline's job time. */
  static final double MIN_EXTRA_SHARE = 0.10;

  private static final Pattern NORMAL_REMOVAL = Pattern.compile(
      "(?i).*(idle|decommission|requested by driver|application (has )?(ended|finished)|stopped|shutdown).*");

  private final SparkApplication candidate;
  private final SparkApplication baseline;
  private final String candidateSource;
  private final String baselineSource;
  private final List<String> candidateCode;
  private final List<String> baselineCode;
  private final SourceSettings settings;
  private final boolean profiles;
  private final double minSlowdown;

  public Comparer(SparkApplication candidate, SparkApplication baseline, String candidateSource, String baselineSource,
      List<String> candidateCode, List<String> baselineCode, SourceSettings settings, boolean profiles,
      double minSlowdown) {
    this.candidate = candidate;
    this.baseline = baseline;
    this.candidateSource = candidateSource;
    this.baselineSource = baselineSource;
    this.candidateCode = List.copyOf(candidateCode);
    this.baselineCode = List.copyOf(baselineCode);
    this.settings = settings;
    this.profiles = profiles;
    this.minSlowdown = minSlowdown;
  }

  public Comparison compare() {
    AnalysisContext c = AnalysisContext.of(Evidence.of(candidate, candidateSource));
    AnalysisContext b = AnalysisContext.of(Evidence.of(baseline, baselineSource));
    List<String> notes = new ArrayList<>();
    Comparison.Run rc = run(c, candidateSource);
    Comparison.Run rb = run(b, baselineSource);
    long jc = rc.jobTimeMs() > 0 ? rc.jobTimeMs() : rc.durationMs();
    long jb = rb.jobTimeMs() > 0 ? rb.jobTimeMs() : rb.durationMs();
    if (rc.jobTimeMs() <= 0 || rb.jobTimeMs() <= 0) {
      notes.add("A run's job times are unknown; the applications' run times are compared instead.");
    }
    double slowdown = ratio(jc, jb);
    double growth = rc.inputRecords() > 0 && rb.inputRecords() > 0 ? ratio(rc.inputRecords(), rb.inputRecords())
        : rc.inputBytes() > 0 && rb.inputBytes() > 0 ? ratio(rc.inputBytes(), rb.inputBytes()) : 1.0;
    if (rc.inputRecords() <= 0 && rc.inputBytes() <= 0) {
      notes.add("Neither run read from a source that counts records or bytes (parallelized or generated data): "
          + "time is compared without normalising for input.");
    }
    double normalized = growth > 0 ? slowdown / growth : slowdown;

    // Each run's stage numbers (task quantiles of every stage: most of the comparison's own work) are
    // computed at once, one run per core.
    CompletableFuture<List<Comparison.StageStats>> fb = CompletableFuture.supplyAsync(() -> stages(b));
    List<Comparison.StageStats> sc = stages(c);
    List<Comparison.StageStats> sb = join(fb);
    Aligner.Alignment al = Aligner.align(sb, sc);
    List<Comparison.StagePair> pairs = new ArrayList<>();
    for (Aligner.Match m : al.matches()) {
      pairs.add(pair(m.baseline(), m.candidate(), m.how()));
    }
    long floor = Math.max(MIN_EXTRA_MS, Math.round(MIN_EXTRA_SHARE * jb));
    Optional<Comparison.StagePair> first = pairs.stream()
        .filter(p -> p.normalizedRatio() >= DIVERGENT_RATIO && p.extraMs() >= floor).findFirst();
    if (first.isEmpty() && !al.unmatchedCandidate().isEmpty()) {
      notes.add(al.unmatchedCandidate().size() + " candidate stages have no counterpart in the baseline; they are "
          + "new work, not a divergence of matched stages.");
    }

    JobAlignment jobs = alignJobs(b, c);
    List<Comparison.ConfigChange> config = Configs.diff(b, c, first, pairs, rc, rb);
    Optional<CodeDiff> code = codeDiff(notes);
    Comparison.Verdict verdict = new Judge(c, b, rc, rb, slowdown, growth, normalized, pairs, first, al, config, code,
        minSlowdown).verdict();

    Optional<RunProfile> pc = Optional.empty();
    Optional<RunProfile> pb = Optional.empty();
    if (profiles) {
      CompletableFuture<RunProfile> fpb = CompletableFuture.supplyAsync(() -> RunProfile.of(baseline,
          first.map(p -> List.of(p.baseline().stageId())).orElse(RunProfile.longestStage(baseline))));
      pc = Optional.of(RunProfile.of(candidate, first.map(p -> List.of(p.candidate().stageId()))
          .orElse(RunProfile.longestStage(candidate))));
      pb = Optional.of(join(fpb));
    }
    return new Comparison(rc, rb, slowdown, growth, normalized, pairs, al.unmatchedCandidate(), al.unmatchedBaseline(),
        jobs.pairs, jobs.unmatchedCandidate, jobs.unmatchedBaseline, first, config, code, verdict, notes, pc, pb);
  }

  private Optional<CodeDiff> codeDiff(List<String> notes) {
    if (candidateCode.isEmpty()) {
      return Optional.empty();
    }
    List<CodeInspectionProvider> providers = new ArrayList<>();
    ServiceLoader.load(CodeInspectionProvider.class).forEach(providers::add);
    if (providers.isEmpty()) {
      notes.add("The code of both runs was given, but no code inspector is on the class path (sparkrca-inspector): "
          + "the code was not compared.");
      return Optional.empty();
    }
    List<CodeDiff> diffs = new ArrayList<>();
    for (int i = 0; i < candidateCode.size(); i++) {
      String cu = candidateCode.get(i);
      String bu = baselineCode.get(i);
      Optional<CodeDiff> d = Optional.empty();
      for (CodeInspectionProvider p : providers) {
        if (p.supports(cu) && p.supports(bu)) {
          try {
            d = p.diff(bu, cu, settings);
          } catch (SparkRcaException e) {
            notes.add("The code could not be compared: " + Redactor.standard().redactText(e.getMessage()));
          }
          if (d.isPresent()) {
            break;
          }
        }
      }
      if (d.isEmpty()) {
        notes.add("No code inspector compares " + Redactor.redactUri(bu) + " with " + Redactor.redactUri(cu) + ".");
      }
      d.ifPresent(diffs::add);
    }
    if (diffs.isEmpty()) {
      return Optional.empty();
    }
    if (diffs.size() == 1) {
      return Optional.of(diffs.get(0));
    }
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<CodeDiff.ChangedEntry> changed = new ArrayList<>();
    List<String> ns = new ArrayList<>();
    int same = 0;
    for (CodeDiff d : diffs) {
      d.added().forEach(a -> added.add(d.candidateUri() + "!/" + a));
      d.removed().forEach(a -> removed.add(d.baselineUri() + "!/" + a));
      d.changed().forEach(x -> changed.add(new CodeDiff.ChangedEntry(d.candidateUri() + "!/" + x.name(),
          x.addedStrings(), x.removedStrings())));
      ns.addAll(d.notes());
      same += d.unchanged();
    }
    return Optional.of(new CodeDiff(String.join(", ", diffs.stream().map(CodeDiff::baselineUri).toList()),
        String.join(", ", diffs.stream().map(CodeDiff::candidateUri).toList()), cap(added), cap(removed), cap(changed),
        same, ns));
  }

  private static <T> List<T> cap(List<T> l) {
    return l.size() > CodeDiff.MAX_ENTRIES ? l.subList(0, CodeDiff.MAX_ENTRIES) : l;
  }

  static Comparison.StagePair pair(Comparison.StageStats b, Comparison.StageStats c, String how) {
    double time = ratio(c.wallMs(), b.wallMs());
    double input = c.recordsRead() > 0 && b.recordsRead() > 0 ? ratio(c.recordsRead(), b.recordsRead())
        : c.bytesRead() > 0 && b.bytesRead() > 0 ? ratio(c.bytesRead(), b.bytesRead()) : 1.0;
    double normalized = input > 0 ? time / input : time;
    long extra = Math.round(c.wallMs() - b.wallMs() * input);
    return new Comparison.StagePair(b, c, how, time, input, normalized, extra);
  }

  /** The value of work done on another thread, its failure rethrown as it was thrown. */
  private static <T> T join(CompletableFuture<T> f) {
    try {
      return f.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  /** {@code a / b}, with 0 / 0 as 1 and x / 0 as x (a stage that took no time before). */
  static double ratio(double a, double b) {
    if (b <= 0) {
      return a <= 0 ? 1.0 : Math.max(1.0, a);
    }
    return a / b;
  }

  private static Comparison.Run run(AnalysisContext ctx, String source) {
    SparkApplication app = ctx.app().orElseThrow();
    long inputRecords = 0;
    long inputBytes = 0;
    long shuffle = 0;
    long taskTime = 0;
    long tasks = 0;
    int stages = 0;
    for (StageData s : ctx.stages()) {
      if (s.status() == StageStatus.SKIPPED || s.status() == StageStatus.PENDING) {
        continue;
      }
      stages++;
      taskTime += s.executorRunTime();
      tasks += s.numCompleteTasks() + s.numFailedTasks() + s.numKilledTasks();
      if (s.attemptId() == 0) {
        inputRecords += s.inputRecords();
        inputBytes += s.inputBytes();
        shuffle += s.shuffleReadBytes();
      }
    }
    int executors = 0;
    int lost = 0;
    for (ExecutorSummary e : ctx.executors()) {
      executors++;
      if (e.removeTime().isPresent() && !NORMAL_REMOVAL.matcher(e.removeReason().orElse("")).matches()) {
        lost++;
      }
    }
    return new Comparison.Run(app.info().id(), app.info().name(), Redactor.redactUri(source), app.sparkVersion(),
        jobTime(ctx), ctx.durationMs(), inputRecords, inputBytes, shuffle, taskTime, tasks, stages, ctx.totalCores(),
        executors, lost, ctx.facts().tasksFailed());
  }

  /** The time jobs ran: the union of the jobs' intervals. */
  static long jobTime(AnalysisContext ctx) {
    List<long[]> spans = new ArrayList<>();
    for (JobData j : ctx.jobs()) {
      if (j.submissionTime().isPresent() && j.completionTime().isPresent()) {
        spans.add(new long[] {j.submissionTime().get().toEpochMilli(), j.completionTime().map(Instant::toEpochMilli).get()});
      }
    }
    if (spans.isEmpty()) {
      return 0;
    }
    spans.sort(Comparator.comparingLong(s -> s[0]));
    long total = 0;
    long start = spans.get(0)[0];
    long end = spans.get(0)[1];
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

  /** Each stage's last completed attempt (or its last attempt), in submission order. */
  static List<Comparison.StageStats> stages(AnalysisContext ctx) {
    Map<Integer, StageData> chosen = new LinkedHashMap<>();
    for (StageData s : ctx.stages()) {
      if (s.status() == StageStatus.SKIPPED || s.status() == StageStatus.PENDING) {
        continue;
      }
      StageData prev = chosen.get(s.stageId());
      if (prev == null || s.status() == StageStatus.COMPLETE || prev.status() != StageStatus.COMPLETE) {
        chosen.put(s.stageId(), s);
      }
    }
    List<StageData> ordered = new ArrayList<>(chosen.values());
    ordered.sort(Comparator.comparing((StageData s) -> s.submissionTime().orElse(Instant.MAX))
        .thenComparingInt(StageData::stageId));
    List<Comparison.StageStats> out = new ArrayList<>();
    for (StageData s : ordered) {
      out.add(stats(ctx, s));
    }
    return out;
  }

  private static Comparison.StageStats stats(AnalysisContext ctx, StageData s) {
    Optional<TaskMetricDistributions> q = s.numCompleteTasks() > 0 ? ctx.quantiles(s) : Optional.empty();
    long median = q.map(d -> at(d.duration(), 2)).orElse(0L);
    long max = q.map(d -> at(d.duration(), 4)).orElse(0L);
    // A stage whose totals read no shuffle bytes read none in any task: no need to read its tasks.
    Optional<TaskMetricDistributions> shuffle = q.filter(d -> s.shuffleReadBytes() > 0 && d.shuffleReadMetrics() != null);
    long medianShuffle = shuffle.map(d -> at(d.shuffleReadMetrics().readBytes(), 2)).orElse(0L);
    long maxShuffle = shuffle.map(d -> at(d.shuffleReadMetrics().readBytes(), 4)).orElse(0L);
    String group = ctx.executionOf(s.stageId()).map(ExecutionData::description)
        .filter(d -> d != null && !d.isBlank())
        .orElse(ctx.jobOf(s.stageId()).map(JobData::name).orElse(s.name()));
    List<String> role = new ArrayList<>();
    if (s.inputBytes() > 0 || s.inputRecords() > 0) {
      role.add("input");
    }
    if (s.shuffleReadBytes() > 0 || s.shuffleReadRecords() > 0) {
      role.add("shuffle-read");
    }
    if (s.shuffleWriteBytes() > 0 || s.shuffleWriteRecords() > 0) {
      role.add("shuffle-write");
    }
    if (role.isEmpty()) {
      role.add("compute");
    }
    return new Comparison.StageStats(s.stageId(), s.attemptId(), s.name(), group, String.join("+", role), s.rddIds().size(),
        s.numTasks(),
        AnalysisContext.wallMs(s), s.executorRunTime(), s.inputRecords() + s.shuffleReadRecords(),
        s.inputBytes() + s.shuffleReadBytes(), s.shuffleReadBytes(), s.shuffleWriteBytes(), s.memoryBytesSpilled(),
        s.diskBytesSpilled(), s.jvmGcTime(), median, max, medianShuffle, maxShuffle);
  }

  private static long at(List<Double> values, int i) {
    if (values == null || values.size() <= i || values.get(i) == null || values.get(i).isNaN()) {
      return 0;
    }
    return Math.round(values.get(i));
  }

  private record JobAlignment(List<Comparison.JobPair> pairs, List<String> unmatchedCandidate,
      List<String> unmatchedBaseline) {}

  /** Jobs matched by the SQL execution they ran for and their call site, in order; then by call site alone. */
  private static JobAlignment alignJobs(AnalysisContext b, AnalysisContext c) {
    List<JobData> jb = new ArrayList<>(b.jobs());
    List<JobData> jc = new ArrayList<>(c.jobs());
    List<Comparison.JobPair> pairs = new ArrayList<>();
    for (boolean withExecution : new boolean[] {true, false}) {
      for (JobData x : new ArrayList<>(jc)) {
        String kx = jobKey(c, x, withExecution);
        Optional<JobData> y = jb.stream().filter(j -> jobKey(b, j, withExecution).equals(kx)).findFirst();
        if (y.isPresent()) {
          pairs.add(new Comparison.JobPair(label(y.get()), label(x), jobMs(y.get()), jobMs(x)));
          jb.remove(y.get());
          jc.remove(x);
        }
      }
    }
    return new JobAlignment(pairs, jc.stream().map(Comparer::label).toList(), jb.stream().map(Comparer::label).toList());
  }

  private static String jobKey(AnalysisContext ctx, JobData j, boolean withExecution) {
    String exec = "";
    if (withExecution) {
      exec = j.stageIds().stream().map(ctx::executionOf).flatMap(Optional::stream).map(ExecutionData::description)
          .findFirst().orElse("");
    }
    return exec + "\u0000" + j.name();
  }

  private static String label(JobData j) {
    return "job " + j.jobId() + " (" + j.name() + ")";
  }

  private static long jobMs(JobData j) {
    if (j.submissionTime().isEmpty() || j.completionTime().isEmpty()) {
      return 0;
    }
    return Math.max(0, j.completionTime().get().toEpochMilli() - j.submissionTime().get().toEpochMilli());
  }
}
