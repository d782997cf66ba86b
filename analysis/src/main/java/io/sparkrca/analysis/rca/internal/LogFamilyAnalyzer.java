package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.finding;

import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.KnowledgeBase;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Severity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Logs first: when there is no event log, the failure families of the knowledge base found in the
 * logs name the cause. Each excerpt a family matched is classified whole (the line with its {@code
 * Caused by} chain), on the side it happened (an executor's log, or a task's failure quoted by the
 * driver, is the executor's; the driver's own exception is the driver's), and the most telling
 * family wins: a decisive wording before a suggestive one, then the base's order (specific
 * families before general ones), then the earliest. The verdict is {@code CONFIRMED} only when a
 * decisive wording is in the logs and no other decisive family of another kind is; otherwise it is
 * a leading hypothesis that names what would settle it. With an event log the other analyzers read
 * the application's own records, so this one speaks only of what those never hold (executors never
 * granted, a quota, executors that failed to start).
 */
public final class LogFamilyAnalyzer implements Analyzer {
  private static final Pattern LOST_TASK = Pattern.compile("Lost task (\\d+)\\.\\d+ in stage (\\d+)\\.\\d+");
  private static final Pattern ABORT_REASON = Pattern.compile(
      "Job aborted due to stage failure: Task (\\d+) in stage (\\d+)\\.\\d+ failed (\\d+) times?, most recent failure: "
          + "Lost task [^:]*\\): ");
  private static final Pattern EXECUTOR_PAREN = Pattern.compile("\\bexecutor [\\w.-]+\\):");
  private static final Pattern DRIVER_MARK = Pattern.compile(
      "Exception in thread \"main\"|User class threw exception|executeCollect|\\.collect\\(|toPandas|SparkContext|"
          + "\\bDriver\\b|\\bdriver\\b");
  private static final Pattern DATA_ERROR = Pattern.compile(
      "NumberFormatException|For input string|IllegalArgumentException|ArithmeticException|ClassCastException"
          + "|NullPointerException|DateTimeParseException|ParseException|ArrayIndexOutOfBoundsException|Malformed"
          + "|CAST_INVALID_INPUT|DIVIDE_BY_ZERO|ARITHMETIC_OVERFLOW");
  /** What a decisive family found in the logs explains: the generic readings of the same failure. */
  private static final RootCauseKind[] GENERIC = {RootCauseKind.DETERMINISTIC_DATA_FAILURE,
      RootCauseKind.FLAKY_INFRASTRUCTURE, RootCauseKind.DRIVER_FAILURE, RootCauseKind.EXECUTOR_LOST,
      RootCauseKind.UNDETERMINED};

  /** Kinds whose decisive lines are only in logs, never in an event log's records. */
  private static final Set<RootCauseKind> LOG_ONLY = Set.of(RootCauseKind.EXECUTORS_NOT_GRANTED,
      RootCauseKind.CLOUD_QUOTA_EXCEEDED, RootCauseKind.EXECUTOR_STARTUP_FAILURE);

  private record Hit(LogEvidence log, LogExcerpt excerpt, KnowledgeBase.Match match, int order) {}

  @Override
  public String name() {
    return "log-families";
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    boolean eventLog = ctx.app().isPresent() && !ctx.rebuiltFromLogs();
    KnowledgeBase kb = ctx.knowledge();
    List<FailureFamily> families = kb.families();
    List<Hit> hits = new ArrayList<>();
    for (LogEvidence log : ctx.evidence().logs()) {
      for (LogExcerpt e : log.excerpts()) {
        if (e.signatures().stream().noneMatch(id -> kb.family(id).isPresent())) {
          continue;
        }
        kb.classify(e.block(), side(log, e)).ifPresent(m -> hits.add(new Hit(log, e, m, families.indexOf(m.family()))));
      }
    }
    if (eventLog) {
      // With an event log the other analyzers read the application's records; the logs alone
      // say what the records never hold: executors that never came, quotas, start-up failures.
      hits.removeIf(h -> !h.match().decisive() || !LOG_ONLY.contains(h.match().kind()));
      if (hits.isEmpty()) {
        return List.of();
      }
    }
    if (hits.isEmpty()) {
      return abortedTask(ctx).map(List::of).orElse(List.of());
    }
    // An excerpt without a time of its own (a "Caused by:" line cut from its record) comes after
    // those with one: it is a later piece of an earlier story, not the earliest failure.
    Hit best = hits.stream().min(Comparator.comparing((Hit h) -> h.match().decisive() ? 0 : 1)
        .thenComparingInt(Hit::order)
        .thenComparingLong(h -> h.excerpt().time().isPresent() ? time(ctx, h) : Long.MAX_VALUE)
        .thenComparingLong(h -> h.excerpt().line())).orElseThrow();
    Set<RootCauseKind> decisiveKinds = new LinkedHashSet<>();
    hits.stream().filter(h -> h.match().decisive()).forEach(h -> decisiveKinds.add(h.match().kind()));
    // A kind that depends on whose failure it was (a driver's OOM or an executor's) is settled only
    // when the excerpt itself shows whose it was, not merely the log it was found in.
    boolean sideShown = best.match().family().driverKind().isEmpty() || best.log().role() == LogRole.EXECUTOR
        || executorMarks(best.excerpt().block()) || DRIVER_MARK.matcher(best.excerpt().block()).find();
    boolean confirmed = best.match().decisive() && decisiveKinds.size() == 1 && sideShown;
    return List.of(candidate(ctx, best, hits, confirmed, decisiveKinds));
  }

  private Candidate candidate(AnalysisContext ctx, Hit best, List<Hit> hits, boolean confirmed,
      Set<RootCauseKind> decisiveKinds) {
    FailureFamily family = best.match().family();
    RootCauseKind kind = best.match().kind();
    LogExcerpt e = best.excerpt();
    String block = e.block();
    String headline = FailureText.headline(block);
    Culprit culprit = culprit(block);
    List<EvidenceRef> refs = new ArrayList<>();
    refs.add(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), FailureText.excerpt(block, 25)));
    long occurrences = hits.stream().filter(h -> h.match().family() == family).count();
    hits.stream().filter(h -> h.match().family() == family && h != best).limit(2).forEach(h ->
        refs.add(new EvidenceRef(EvidenceRef.Kind.LOG, h.excerpt().log(), h.excerpt().line(), h.excerpt().text())));
    Optional<String> code = FailureText.codeLocation(block);
    StringBuilder why = new StringBuilder();
    why.append(family.meaning());
    why.append(" The log says: ").append(headline).append(" (").append(e.location()).append(")");
    if (occurrences > 1) {
      why.append(", and ").append(occurrences - 1).append(" more excerpt").append(occurrences > 2 ? "s" : "")
          .append(" say the same");
    }
    why.append(".");
    code.ifPresent(c -> why.append(" The first frame of user code is ").append(c).append("."));
    Candidate.Builder b = Candidate.builder(finding(kind, Severity.CRITICAL, family.title(), headline, culprit,
            List.of(), 0, 0, refs, name()))
        .confidence(confirmed ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
        .explanation(why.toString())
        .codeLocation(code)
        // A suggestive wording yields to what the application's records show (a lost executor, a
        // failed task): it is the root only when nothing else explains the failure.
        .time(best.match().decisive() ? time(ctx, best) : Math.max(time(ctx, best), ctx.endMs()))
        .explainsFailure(true);
    if (best.match().decisive()) {
      b.explains(GENERIC);
    }
    if (!confirmed) {
      String settle = best.match().decisive()
          ? "the logs also hold " + String.join(", ", decisiveKinds.stream().filter(k -> k != kind)
              .map(k -> k.title().toLowerCase(Locale.ROOT)).toList()) + ": which came first is in the event log"
          : "the line that establishes it; check " + String.join("; ", family.check().stream().limit(2).toList());
      b.toConfirm(settle);
    }
    Remedies.forFailure(ctx, kind, block, Optional.of(family)).forEach(b::recommend);
    b.want(EvidenceKind.EVENT_LOG, "it records every job, stage and task with its error, and which failure came first");
    if (code.isPresent()) {
      b.want(EvidenceKind.CODE, "the job's JAR or script would show the failing line");
    }
    return b.build();
  }

  /** Whose failure an excerpt shows: an executor's log, or a task's failure the driver quotes, is the executor's. */
  static KnowledgeBase.Side side(LogEvidence log, LogExcerpt e) {
    if (log.role() == LogRole.EXECUTOR || executorMarks(e.block())) {
      return KnowledgeBase.Side.EXECUTOR;
    }
    return log.role() == LogRole.DRIVER || DRIVER_MARK.matcher(e.block()).find() ? KnowledgeBase.Side.DRIVER
        : KnowledgeBase.Side.UNKNOWN;
  }

  /** Whether the text shows a task's or an executor's failure, as the driver reports it. */
  private static boolean executorMarks(String b) {
    return b.contains("Lost task") || b.contains("Exception in task") || b.contains("Executor task launch worker")
        || TaskFailureAnalyzer.ABORT.matcher(b).find() || b.contains("ExecutorLostFailure") || EXECUTOR_PAREN.matcher(b).find()
        || b.contains("YarnAllocator") || b.contains("Container killed") || b.contains("Lost executor");
  }

  /**
   * A job aborted by a task that failed with no failure family's wording: the exception the task
   * threw on its last attempt, on the partition the abort names. Every attempt failing with a data
   * error (a parse, a cast, a null) is a deterministic failure; anything less certain is a leading
   * hypothesis, since the earlier attempts' errors are not in the line.
   */
  private Optional<Candidate> abortedTask(AnalysisContext ctx) {
    for (LogEvidence log : ctx.evidence().logs()) {
      for (LogExcerpt e : log.excerpts()) {
        String block = e.block();
        Matcher m = ABORT_REASON.matcher(block);
        if (!m.find()) {
          continue;
        }
        int partition = Integer.parseInt(m.group(1));
        int stage = Integer.parseInt(m.group(2));
        int times = Integer.parseInt(m.group(3));
        String error = block.substring(m.end());
        String headline = FailureText.headline(error);
        boolean dataError = DATA_ERROR.matcher(headline).find();
        boolean confirmed = dataError && times >= 2;
        Optional<String> code = FailureText.codeLocation(block);
        Candidate.Builder b = Candidate.builder(finding(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Severity.CRITICAL,
                "Partition " + partition + " of stage " + stage + " failed " + times + (times == 1 ? " time" : " times"),
                "the job aborted: task " + partition + " of stage " + stage + " failed " + times + " times, last with "
                    + headline,
                Culprit.stages(List.of(stage)).withPartition(partition), List.of(), 0, 0,
                List.of(new EvidenceRef(EvidenceRef.Kind.LOG, e.log(), e.line(), FailureText.excerpt(block, 25))), name()))
            .confidence(confirmed ? Confidence.CONFIRMED : Confidence.LEADING_HYPOTHESIS)
            .explanation("Spark aborted the job because partition " + partition + " of stage " + stage + " failed "
                + times + (times == 1 ? " time (spark.task.maxFailures allowed no retry)" : " times") + ", the last "
                + "with " + headline + "." + (dataError ? " That is a data error: a record the partition holds, or the "
                + "code that reads it, fails the same way on every attempt." : "")
                + code.map(c -> " The first frame of user code is " + c + ".").orElse(""))
            .codeLocation(code)
            .time(e.time().map(t -> t.toInstant(ctx.zoneOrUtc()).toEpochMilli()).orElse(ctx.startMs()))
            .explainsFailure(true)
            .explains(RootCauseKind.DRIVER_FAILURE, RootCauseKind.UNDETERMINED)
            .want(EvidenceKind.EVENT_LOG, "it records every attempt's error, so it tells a deterministic failure from "
                + "a transient one");
        if (!confirmed) {
          b.toConfirm("the errors of the partition's earlier attempts (the event log, or the executors' logs): the "
              + "same error on every attempt makes it deterministic");
        }
        return Optional.of(b.build());
      }
    }
    return Optional.empty();
  }

  /** The stage and partition a task failure names, as Spark writes them. */
  static Culprit culprit(String block) {
    Matcher m = TaskFailureAnalyzer.ABORT.matcher(block);
    if (!m.find()) {
      m = LOST_TASK.matcher(block);
      if (!m.find()) {
        return Culprit.none();
      }
    }
    return Culprit.stages(List.of(Integer.parseInt(m.group(2)))).withPartition(Integer.parseInt(m.group(1)));
  }

  private static long time(AnalysisContext ctx, Hit h) {
    return h.excerpt().time().map(t -> t.toInstant(ctx.zoneOrUtc()).toEpochMilli()).orElse(ctx.startMs());
  }
}
