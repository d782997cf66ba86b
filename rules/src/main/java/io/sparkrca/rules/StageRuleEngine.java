package io.sparkrca.rules;

import com.google.protobuf.Message;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelVariableResolver;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkDefaults;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates diagnostic rules, written in CEL over the Dataproc v1 stage schema, on an application
 * from any source. Rules are compiled once, when the engine is built, and evaluated many times;
 * an engine is immutable and safe to share between threads.
 *
 * <pre>{@code
 * StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
 * StageDiagnostics result = engine.evaluateEventLog("/tmp/spark-events/app-1");
 * System.out.println(result.toMarkdown());
 * }</pre>
 *
 * <p>Rules see {@code stages} (every stage attempt), {@code total_executor_summary} and, in a
 * per-stage rule, {@code s}; advice conditions see {@code conf} ({@link Advice}); helpers are
 * {@code ratio}, {@code mb}, {@code gb}, {@code seconds_between}, {@code sum},
 * {@code human_bytes}, {@code human_millis}, {@code round} and {@code truncate}. Absent fields
 * read as their proto3 defaults.
 *
 * <p>A rule whose expression, detail or advice does not compile (a misspelt field is named with
 * the closest real ones), or whose rule file entry is invalid, is a {@link BrokenRule}: by
 * default {@link Builder#build()} throws {@link BrokenRuleException}, so that a broken check can
 * never pass unnoticed; with {@link Builder#skipBrokenRules(boolean) skipBrokenRules(true)} the
 * engine runs the other rules and reports each broken one as a warning. A rule that compiles but
 * fails or exceeds its {@link RuleLimits} when evaluated on an application's stages is skipped
 * for that application with a warning that says so; the others still run. An application whose
 * data cannot be read is an {@link DiagnosticStatus#ERROR}, never a PASS.
 */
public final class StageRuleEngine {
  private static final Logger LOG = LoggerFactory.getLogger(StageRuleEngine.class);

  /** The detail of a finding whose rule has no detail, or whose detail could not be rendered. */
  public static final String FALLBACK_DETAIL = "Rule expression matched.";

  static final String NO_STAGES_WARNING =
      "No stage telemetry was available, so stage rules had nothing to match; PASS does not mean"
          + " healthy. The application probably failed before running a Spark action -- read the"
          + " driver log instead.";

  private final List<StageRule> rules;
  private final List<CompiledRule> compiled;
  /** Broken rule file entries and rules, in the order they were supplied. */
  private final List<BrokenRule> broken;
  private final RuleLimits limits;
  private final RuleCompiler compiler;
  private final boolean usePrefilter;
  private final int parallelism;

  /** A rule after compilation: its programs, or why it cannot run. */
  private record CompiledRule(
      StageRule rule,
      Optional<RuleCompiler.Compiled> program,
      Optional<RuleCompiler.Compiled> detail,
      Optional<BrokenRule> detailError,
      List<CompiledAdvice> advice,
      Optional<BrokenRule> error,
      Optional<StagePrefilter> prefilter) {}

  /** An advice with its compiled conditions and its text cut into literals and embedded values. */
  private record CompiledAdvice(
      Advice advice,
      Optional<RuleCompiler.Compiled> condition,
      Optional<RuleCompiler.Compiled> stageCondition,
      List<Segment> text) {
    boolean embedsValues() {
      return text.stream().anyMatch(t -> t.value().isPresent());
    }
  }

  /** A piece of an advice text: a literal, or the value of a {@code ${expr}}. */
  private record Segment(String literal, Optional<RuleCompiler.Compiled> value) {}

  private StageRuleEngine(Builder b) {
    this.limits = b.limits;
    this.usePrefilter = b.prefilter;
    this.parallelism = b.parallelism;
    this.compiler = new RuleCompiler(limits);
    this.rules = List.copyOf(b.rules);
    List<BrokenRule> problems = new ArrayList<>(b.brokenEntries);
    List<CompiledRule> out = new ArrayList<>();
    for (StageRule r : rules) {
      out.add(compile(r, problems));
    }
    this.compiled = List.copyOf(out);
    this.broken = List.copyOf(problems);
  }

  /** A builder; add at least one rule. */
  public static Builder builder() {
    return new Builder();
  }

  /** The rules, in evaluation order. */
  public List<StageRule> rules() {
    return rules;
  }

  /**
   * The broken rules this engine skips (empty unless it was built with
   * {@link Builder#skipBrokenRules(boolean) skipBrokenRules(true)}).
   */
  public List<BrokenRule> brokenRules() {
    return broken;
  }

  /**
   * The warnings of the skipped broken rules: rule file entries that are not rules, rules,
   * details and advice that do not compile. The same lines appear in every result's warnings.
   */
  public List<String> buildWarnings() {
    return broken.stream().map(BrokenRule::warning).toList();
  }

  /**
   * Checks one rule without building an engine: empty when its expression, detail and advice
   * compile, else the warning an engine that skips broken rules would give.
   */
  public static Optional<String> check(StageRule rule) {
    StageRuleEngine e = new StageRuleEngine(new Builder().rule(rule));
    return e.broken.stream().findFirst().map(BrokenRule::warning);
  }

  // ------------------------------------------------------------------ evaluation entry points

  /** Replays an event log (file, rolling directory, any codec) and evaluates it; unreadable → ERROR. */
  public StageDiagnostics evaluateEventLog(String pathOrUri) {
    return evaluateEventLog(pathOrUri, EventLogs.reader().build());
  }

  /** As {@link #evaluateEventLog(String)}, reading through {@code reader} (sources, limits). */
  public StageDiagnostics evaluateEventLog(String pathOrUri, EventLogReader reader) {
    ReplayedApplication app;
    try {
      app = reader.replay(pathOrUri);
    } catch (SparkRcaException e) {
      return error(Optional.empty(), "Could not read the event log " + pathOrUri + ": " + e.getMessage());
    }
    return evaluate(app);
  }

  /** Maps the application to the Dataproc schema and evaluates; a source that fails → ERROR. */
  public StageDiagnostics evaluate(SparkApplication app) {
    Optional<String> id = Optional.empty();
    StageTelemetry t;
    try {
      id = Optional.ofNullable(app.info().id());
      t = StageTelemetry.from(app);
    } catch (RuntimeException e) {
      LOG.debug("reading the application failed", e);
      String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      return error(id, "Could not read the application's stages: " + why);
    }
    return evaluate(t);
  }

  /** An ERROR result with this engine's build warnings. */
  public StageDiagnostics error(Optional<String> applicationId, String message) {
    return StageDiagnostics.error(applicationId, message, buildWarnings());
  }

  /** Evaluates every rule on the telemetry. */
  public StageDiagnostics evaluate(StageTelemetry t) {
    Evaluation ev = new Evaluation(t);
    List<RuleOutcome> outcomes;
    if (parallelism > 1 && compiled.size() > 1) {
      java.util.concurrent.ExecutorService pool =
          java.util.concurrent.Executors.newFixedThreadPool(
              Math.min(parallelism, compiled.size()),
              r -> {
                Thread th = new Thread(r, "sparkrca-rules");
                th.setDaemon(true);
                return th;
              });
      try {
        List<java.util.concurrent.Future<RuleOutcome>> futures = new ArrayList<>();
        for (CompiledRule c : compiled) {
          futures.add(pool.submit(() -> ev.outcome(c)));
        }
        outcomes = new ArrayList<>();
        for (java.util.concurrent.Future<RuleOutcome> f : futures) {
          outcomes.add(f.get());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SparkRcaException(
            "rule evaluation" + t.applicationId().map(id -> " of " + id).orElse("")
                + " was interrupted; evaluate again if that was not meant",
            e);
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof SparkRcaException s) {
          throw s;
        }
        throw new SparkRcaException(
            "rule evaluation" + t.applicationId().map(id -> " of " + id).orElse("") + " failed ("
                + e.getCause() + "); evaluate with parallelism(1) to see which rule fails",
            e.getCause());
      } finally {
        pool.shutdownNow();
      }
    } else {
      outcomes = new ArrayList<>();
      for (CompiledRule c : compiled) {
        outcomes.add(ev.outcome(c));
      }
    }
    List<Violation> violations = new ArrayList<>();
    List<String> warnings = new ArrayList<>(buildWarnings());
    int skipped = 0;
    for (RuleOutcome o : outcomes) {
      o.violation().ifPresent(violations::add);
      warnings.addAll(o.warnings());
      skipped += o.skipped() ? 1 : 0;
    }
    if (t.stageCount() == 0) {
      warnings.add(NO_STAGES_WARNING);
    }
    for (String w : warnings) {
      LOG.debug("{}", w);
    }
    return new StageDiagnostics(
        violations.isEmpty() ? DiagnosticStatus.PASS : DiagnosticStatus.FAIL,
        t.applicationId(),
        Optional.empty(),
        violations,
        ev.violatingStages(violations),
        Optional.of(ev.summary()),
        warnings,
        compiled.size() - skipped,
        skipped,
        t.stageCount());
  }

  /** What one rule produced: its violation, its warnings, whether it was skipped. */
  private record RuleOutcome(Optional<Violation> violation, List<String> warnings, boolean skipped) {}

  // ------------------------------------------------------------------ compilation

  /** Compiles a rule; what does not compile is added to {@code problems}. */
  private CompiledRule compile(StageRule r, List<BrokenRule> problems) {
    RuleCompiler.Compiled program;
    try {
      program = compiler.rule(r.expression());
    } catch (RuleCompiler.CompileError e) {
      BrokenRule b = new BrokenRule(r.ruleId(), BrokenRule.Part.EXPRESSION, e.getMessage());
      problems.add(b);
      return new CompiledRule(
          r, Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.of(b), Optional.empty());
    }
    Optional<RuleCompiler.Compiled> detail = Optional.empty();
    Optional<BrokenRule> detailError = Optional.empty();
    if (r.detail().isPresent()) {
      try {
        detail = Optional.of(compiler.detail(r.detail().get(), program.topLevelVariable()));
      } catch (RuleCompiler.CompileError e) {
        detailError = Optional.of(new BrokenRule(r.ruleId(), BrokenRule.Part.DETAIL, e.getMessage()));
        problems.add(detailError.get());
      }
    }
    List<CompiledAdvice> advice = new ArrayList<>();
    for (int i = 0; i < r.advice().size(); i++) {
      Advice a = r.advice().get(i);
      String which = r.advice().size() == 1 ? "" : " " + (i + 1);
      String part = "its condition (when)";
      try {
        Optional<RuleCompiler.Compiled> when =
            a.when().isBlank() ? Optional.empty() : Optional.of(compiler.condition(a.when()));
        part = "its stage condition (stageWhen)";
        Optional<RuleCompiler.Compiled> stageWhen =
            a.stageWhen().isBlank() ? Optional.empty() : Optional.of(compiler.stageCondition(a.stageWhen()));
        part = "a value its text embeds";
        advice.add(new CompiledAdvice(a, when, stageWhen, segments(a.text())));
      } catch (RuleCompiler.CompileError e) {
        problems.add(
            new BrokenRule(r.ruleId(), BrokenRule.Part.ADVICE, "advice" + which + ", " + part + ": " + e.getMessage()));
      }
    }
    Optional<StagePrefilter> prefilter = Optional.empty();
    if (usePrefilter && program.reads("s")) {
      prefilter = Optional.of(StagePrefilter.of(program.ast())).filter(StagePrefilter::isUseful);
    }
    return new CompiledRule(r, Optional.of(program), detail, detailError, advice, Optional.empty(), prefilter);
  }

  /**
   * Cuts an advice text into literals and compiled {@code ${expr}} values. An expression ends at
   * the first closing brace outside quotes and nested braces, so that map literals and strings
   * holding braces work.
   */
  private List<Segment> segments(String text) throws RuleCompiler.CompileError {
    List<Segment> out = new ArrayList<>();
    int from = 0;
    while (true) {
      int start = text.indexOf("${", from);
      if (start < 0) {
        if (from < text.length()) {
          out.add(new Segment(text.substring(from), Optional.empty()));
        }
        return out;
      }
      if (start > from) {
        out.add(new Segment(text.substring(from, start), Optional.empty()));
      }
      int end = closingBrace(text, start + 2);
      if (end < 0) {
        throw new RuleCompiler.CompileError(
            "CelSyntaxError: '${' at character " + (start + 1) + " of the text has no closing '}'");
      }
      String expr = text.substring(start + 2, end);
      out.add(new Segment("", Optional.of(compiler.value(expr))));
      from = end + 1;
    }
  }

  private static int closingBrace(String text, int from) {
    int depth = 0;
    char quote = 0;
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        if (c == '\\') {
          i++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '{') {
        depth++;
      } else if (c == '}') {
        if (depth == 0) {
          return i;
        }
        depth--;
      }
    }
    return -1;
  }

  static String detailWarning(String ruleId, String message) {
    return "detail of rule '" + ruleId + "' could not be rendered, so its findings use a generic"
        + " text: " + message;
  }

  /** A rule that failed on evaluation; the message follows "was skipped: ". */
  private static final class RuleFailure extends Exception {
    private static final long serialVersionUID = 1L;

    RuleFailure(String message) {
      super(message, null, false, false);
    }
  }

  // ------------------------------------------------------------------ one evaluation

  /** The state of evaluating all rules on one telemetry. */
  private final class Evaluation {
    private final StageTelemetry t;
    private final List<Message> stages;
    private final Message executors;
    private final Map<Long, Integer> firstById = new HashMap<>();
    private final Map<String, Integer> byAttempt = new HashMap<>();
    private final Optional<Map<String, String>> conf;

    Evaluation(StageTelemetry t) {
      this.t = t;
      this.stages = t.stageMessages();
      this.executors = t.executorMessage();
      for (int i = 0; i < stages.size(); i++) {
        long id = Messages.getLong(stages.get(i), "stage_id");
        firstById.putIfAbsent(id, i);
        byAttempt.putIfAbsent(id + "/" + Messages.getLong(stages.get(i), "stage_attempt_id"), i);
      }
      this.conf = t.sparkProperties().map(p -> SparkDefaults.effective(p, t.sparkVersion()));
    }

    private CelVariableResolver resolver(Message s, Optional<String> alias) {
      return name ->
          switch (name) {
            case "stages" -> Optional.of(stages);
            case "total_executor_summary" -> Optional.of(executors);
            case "s" -> Optional.ofNullable(s);
            default -> alias.isPresent() && alias.get().equals(name) ? Optional.ofNullable(s) : Optional.empty();
          };
    }

    RuleOutcome outcome(CompiledRule c) {
      if (c.error().isPresent()) {
        // Only an engine that skips broken rules gets here; its build warnings already say so.
        return new RuleOutcome(Optional.empty(), List.of(), true);
      }
      List<String> warnings = new ArrayList<>();
      try {
        return new RuleOutcome(run(c, warnings), warnings, false);
      } catch (RuleFailure f) {
        warnings.add(RuleCatalog.skipped(c.rule().ruleId(), f.getMessage()));
        return new RuleOutcome(Optional.empty(), warnings, true);
      }
    }

    Optional<Violation> run(CompiledRule c, List<String> ruleWarnings) throws RuleFailure {
      RuleCompiler.Compiled p = c.program().orElseThrow();
      StageRule r = c.rule();
      List<Integer> hits = new ArrayList<>();
      List<Long> unknownIds = new ArrayList<>();
      Optional<String> appDetail = Optional.empty();
      boolean application = false;
      long deadline = System.nanoTime() + limits.maxRuleTime().toNanos();
      if (p.reads("s")) {
        StagePrefilter pre = c.prefilter().orElse(null);
        for (int i = 0; i < stages.size(); i++) {
          if (pre != null && pre.rejects(stages.get(i), executors)) {
            continue;
          }
          Object out = eval(p, resolver(stages.get(i), Optional.empty()), Optional.of(stages.get(i)));
          if (Boolean.TRUE.equals(out)) {
            hits.add(i);
          } else if (!(out instanceof Boolean)) {
            throw new RuleFailure(
                "a rule that reads `s` must yield a bool, not " + describe(out)
                    + atEvaluation(Optional.of(stages.get(i))));
          }
          if ((i & 63) == 63 && System.nanoTime() > deadline) {
            throw new RuleFailure(
                "evaluation took longer than the limit of " + limits.maxRuleTime().toMillis()
                    + " ms over " + (i + 1) + " of " + stages.size() + " stages"
                    + atEvaluation(Optional.empty()));
          }
        }
      } else {
        Object out = eval(p, resolver(null, Optional.empty()), Optional.empty());
        if (out instanceof Boolean b) {
          if (!b) {
            return Optional.empty();
          }
          application = true;
        } else if (out instanceof List<?> list) {
          if (list.isEmpty()) {
            return Optional.empty();
          }
          for (Object o : list) {
            if (o instanceof Message m
                && m.getDescriptorForType().getFullName().equals(RuleCompiler.STAGE_DATA)) {
              long id = Messages.getLong(m, "stage_id");
              Integer i = byAttempt.get(id + "/" + Messages.getLong(m, "stage_attempt_id"));
              if (i == null) {
                i = firstById.get(id);
              }
              addHit(hits, unknownIds, i, id);
            } else if (o instanceof Long id) {
              addHit(hits, unknownIds, firstById.get(id), id);
            }
          }
          if (hits.isEmpty() && unknownIds.isEmpty()) {
            application = true;
            appDetail =
                Optional.of(
                    RuleCatalog.cut("Rule returned " + list.size() + " value(s): " + describe(list), 200 + 30));
          }
        } else {
          throw new RuleFailure(
              "a rule must yield a bool or a list, not " + describe(out) + atEvaluation(Optional.empty()));
        }
      }
      if (hits.isEmpty() && unknownIds.isEmpty() && !application) {
        return Optional.empty();
      }
      List<Message> flagged = new ArrayList<>();
      for (Integer i : hits) {
        if (i >= 0) {
          flagged.add(stages.get(i));
        }
      }
      String remediation = remediation(c, application ? Optional.empty() : Optional.of(flagged), ruleWarnings);
      if (application) {
        if (appDetail.isEmpty()) {
          appDetail = Optional.of(applicationDetail(c, p, ruleWarnings));
        }
        return Optional.of(
            new Violation(r.ruleId(), r.description(), r.severity(), remediation, Scope.APPLICATION, List.of(), appDetail));
      }
      List<StageFinding> findings = new ArrayList<>();
      DetailRenderer renderer = new DetailRenderer(c, p.topLevelVariable(), ruleWarnings);
      for (Integer i : hits) {
        if (i < 0) {
          continue;
        }
        Message s = stages.get(i);
        findings.add(
            new StageFinding(
                Messages.getLong(s, "stage_id"),
                (int) Messages.getLong(s, "stage_attempt_id"),
                renderer.render(s)));
      }
      for (Long id : unknownIds) {
        findings.add(new StageFinding(id, 0, FALLBACK_DETAIL));
      }
      return Optional.of(
          new Violation(r.ruleId(), r.description(), r.severity(), remediation, Scope.STAGE, findings, Optional.empty()));
    }

    private void addHit(List<Integer> hits, List<Long> unknown, Integer index, long id) {
      if (index == null) {
        unknown.add(id);
      } else {
        hits.add(index);
      }
    }

    private Object eval(RuleCompiler.Compiled p, CelVariableResolver vars, Optional<Message> stage)
        throws RuleFailure {
      try {
        return p.program().eval(vars);
      } catch (CelEvaluationException e) {
        throw new RuleFailure("CelEvalError: " + evalMessage(e) + atEvaluation(stage));
      } catch (RuntimeException e) {
        throw new RuleFailure("internal evaluator error: " + e + atEvaluation(stage));
      }
    }

    private String applicationDetail(CompiledRule c, RuleCompiler.Compiled p, List<String> ruleWarnings) {
      if (c.detail().isEmpty()) {
        return FALLBACK_DETAIL;
      }
      RuleCompiler.Compiled d = c.detail().get();
      if (d.reads("s") || p.topLevelVariable().map(d::reads).orElse(false)) {
        return FALLBACK_DETAIL;
      }
      try {
        return render(d.program().eval(resolver(null, Optional.empty())));
      } catch (CelEvaluationException | RuntimeException e) {
        ruleWarnings.add(
            detailWarning(c.rule().ruleId(), "CelEvalError: " + evalMessage(e) + atEvaluation(Optional.empty())));
        return FALLBACK_DETAIL;
      }
    }

    /** Renders details per stage, falling back (with one warning) once a render fails. */
    private final class DetailRenderer {
      private final CompiledRule c;
      private final Optional<String> alias;
      private final List<String> ruleWarnings;
      private boolean broken;

      DetailRenderer(CompiledRule c, Optional<String> alias, List<String> ruleWarnings) {
        this.c = c;
        this.alias = alias;
        this.ruleWarnings = ruleWarnings;
        // A detail that does not compile is already a build warning; it renders the fallback.
        broken = c.detailError().isPresent();
      }

      String render(Message s) {
        if (broken || c.detail().isEmpty()) {
          return FALLBACK_DETAIL;
        }
        try {
          return StageRuleEngine.render(c.detail().get().program().eval(resolver(s, alias)));
        } catch (CelEvaluationException | RuntimeException e) {
          ruleWarnings.add(
              detailWarning(c.rule().ruleId(), "CelEvalError: " + evalMessage(e) + atEvaluation(Optional.of(s))));
          broken = true;
          return FALLBACK_DETAIL;
        }
      }
    }

    /**
     * The rule's remediation and the advice that applies: {@code flagged} is the finding's stages,
     * empty for an application-level finding.
     */
    private String remediation(CompiledRule c, Optional<List<Message>> flagged, List<String> ruleWarnings) {
      StringBuilder sb = new StringBuilder(c.rule().remediation());
      for (CompiledAdvice a : c.advice()) {
        Optional<String> text = advice(c, a, flagged, ruleWarnings);
        if (text.isPresent()) {
          sb.append(sb.length() == 0 ? "" : " ").append(text.get());
        }
      }
      return sb.toString();
    }

    private Optional<String> advice(
        CompiledRule c, CompiledAdvice a, Optional<List<Message>> flagged, List<String> ruleWarnings) {
      String prefix = "";
      if (a.stageCondition().isPresent()) {
        RuleCompiler.Compiled sc = a.stageCondition().get();
        List<Message> on = new ArrayList<>();
        List<Message> candidates = flagged.orElse(List.of());
        if (flagged.isEmpty() && sc.reads("s")) {
          return Optional.empty();
        }
        for (Message s : flagged.isEmpty() ? java.util.Collections.<Message>singletonList(null) : candidates) {
          try {
            if (Boolean.TRUE.equals(sc.program().eval(resolver(s, Optional.empty())))) {
              on.add(s);
            }
          } catch (CelEvaluationException | RuntimeException e) {
            ruleWarnings.add(
                "advice of rule '" + c.rule().ruleId() + "' was left out: its stage condition failed"
                    + (s == null ? "" : " on " + stageName(s)) + ": " + evalMessage(e));
            return Optional.empty();
          }
        }
        if (on.isEmpty()) {
          return Optional.empty();
        }
        if (flagged.isPresent() && on.size() < distinctStages(candidates)) {
          prefix = "For " + stageList(on) + ": ";
        }
      }
      if (a.embedsValues() && conf.isEmpty()) {
        // Nothing to cite: the application's configuration is unknown.
        return Optional.empty();
      }
      String caveat = "";
      if (a.condition().isPresent()) {
        if (conf.isEmpty()) {
          caveat = "If not already set (the configuration is unknown): ";
        } else {
          try {
            Object ok = a.condition().get().program().eval(confResolver());
            if (!Boolean.TRUE.equals(ok)) {
              return Optional.empty();
            }
          } catch (CelEvaluationException | RuntimeException e) {
            caveat = "If not already set (the configuration could not be checked: " + evalMessage(e) + "): ";
          }
        }
      }
      StringBuilder text = new StringBuilder();
      for (Segment seg : a.text()) {
        if (seg.value().isEmpty()) {
          text.append(seg.literal());
          continue;
        }
        try {
          text.append(render(seg.value().get().program().eval(confResolver())));
        } catch (CelEvaluationException | RuntimeException e) {
          ruleWarnings.add(
              "advice of rule '" + c.rule().ruleId() + "' was left out: a value its text embeds could"
                  + " not be read from the configuration: " + evalMessage(e));
          return Optional.empty();
        }
      }
      return Optional.of(prefix + caveat + text);
    }

    private CelVariableResolver confResolver() {
      return name -> name.equals("conf") ? Optional.of(conf.get()) : Optional.empty();
    }

    List<ViolatingStage> violatingStages(List<Violation> violations) {
      Map<String, ViolatingStage> out = new LinkedHashMap<>();
      for (Violation v : violations) {
        for (StageFinding f : v.stages()) {
          String key = f.stageId() + "/" + f.stageAttemptId();
          Integer i = byAttempt.get(key);
          if (i != null && !out.containsKey(key)) {
            out.put(key, StageRuleEngine.violatingStage(stages.get(i)));
          }
        }
      }
      return List.copyOf(out.values());
    }

    DiagnosticsSummary summary() {
      long killedAll = 0;
      long runTime = 0;
      long gc = 0;
      Map<Long, Message> latest = new HashMap<>();
      for (Message s : stages) {
        killedAll += Messages.getLong(s, "num_killed_tasks");
        runTime += Messages.getLong(s, "stage_metrics", "executor_run_time_millis");
        gc += Messages.getLong(s, "stage_metrics", "jvm_gc_time_millis");
        long id = Messages.getLong(s, "stage_id");
        Message prev = latest.get(id);
        if (prev == null
            || Messages.getLong(prev, "stage_attempt_id") <= Messages.getLong(s, "stage_attempt_id")) {
          latest.put(id, s);
        }
      }
      long killedLatest = 0;
      for (Message s : latest.values()) {
        killedLatest += Messages.getLong(s, "num_killed_tasks");
      }
      return new DiagnosticsSummary(
          Messages.getLong(executors, "total_duration_millis"),
          Messages.getLong(executors, "total_input_bytes"),
          Messages.getLong(executors, "active_tasks"),
          Messages.getLong(executors, "completed_tasks"),
          Messages.getLong(executors, "failed_tasks"),
          killedLatest,
          killedAll,
          runTime,
          gc);
    }
  }

  static ViolatingStage violatingStage(Message s) {
    ViolatingStage.Metrics m =
        new ViolatingStage.Metrics(
            Messages.getLong(s, "stage_metrics", "executor_run_time_millis"),
            Messages.getLong(s, "stage_metrics", "jvm_gc_time_millis"),
            Messages.getLong(s, "stage_metrics", "memory_bytes_spilled"),
            Messages.getLong(s, "stage_metrics", "disk_bytes_spilled"),
            Messages.getLong(s, "stage_metrics", "stage_shuffle_write_metrics", "write_time_nanos"),
            Messages.getLong(s, "stage_metrics", "stage_input_metrics", "bytes_read"),
            Messages.getLong(s, "stage_metrics", "stage_shuffle_read_metrics", "bytes_read"),
            Messages.getLong(s, "stage_metrics", "stage_output_metrics", "bytes_written"),
            Messages.getLong(s, "stage_metrics", "stage_shuffle_write_metrics", "bytes_written"));
    Optional<ViolatingStage.TaskQuantiles> q = Optional.empty();
    if (Messages.has(s, "task_quantile_metrics")) {
      q =
          Optional.of(
              new ViolatingStage.TaskQuantiles(
                  quantile(s, "task_quantile_metrics", "duration_millis"),
                  quantile(s, "task_quantile_metrics", "input_metrics", "bytes_read"),
                  quantile(s, "task_quantile_metrics", "output_metrics", "bytes_written"),
                  quantile(s, "task_quantile_metrics", "shuffle_write_metrics", "write_bytes")));
    }
    return new ViolatingStage(
        Messages.getLong(s, "stage_id"),
        (int) Messages.getLong(s, "stage_attempt_id"),
        (int) Messages.getLong(s, "num_tasks"),
        (int) Messages.getLong(s, "num_killed_tasks"),
        m,
        q);
  }

  private static Optional<ViolatingStage.Quantile> quantile(Message s, String... path) {
    if (!Messages.has(s, path)) {
      return Optional.empty();
    }
    Message q = (Message) Messages.get(s, path);
    return Optional.of(
        new ViolatingStage.Quantile(
            Messages.getLong(q, "minimum"),
            Messages.getLong(q, "percentile_50"),
            Messages.getLong(q, "maximum"),
            Messages.getLong(q, "sum")));
  }

  /** Says that a rule compiled but failed on the application's data, and where. */
  private static String atEvaluation(Optional<Message> stage) {
    return " (the rule compiles, but failed when evaluated on "
        + stage.map(StageRuleEngine::stageName).orElse("this application's stages")
        + "; the other rules ran)";
  }

  private static String stageName(Message s) {
    return "stage " + Messages.getLong(s, "stage_id") + " (attempt " + Messages.getLong(s, "stage_attempt_id") + ")";
  }

  private static int distinctStages(List<Message> stages) {
    return (int) stages.stream().map(StageRuleEngine::stageName).distinct().count();
  }

  /** "stage 3" or "stages 3 and 5" or "stages 1, 2 and 4" (attempts after the first named). */
  private static String stageList(List<Message> stages) {
    List<String> names = new ArrayList<>();
    for (Message s : stages) {
      long attempt = Messages.getLong(s, "stage_attempt_id");
      String n = Messages.getLong(s, "stage_id") + (attempt > 0 ? " (attempt " + attempt + ")" : "");
      if (!names.contains(n)) {
        names.add(n);
      }
    }
    if (names.size() == 1) {
      return "stage " + names.get(0);
    }
    return "stages " + String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
  }

  static String render(Object v) {
    if (v instanceof String s) {
      return s;
    }
    return describe(v);
  }

  /** A value as a warning or detail shows it: {@code true}, {@code StageData message}, or its text (200 chars). */
  static String describe(Object v) {
    String s;
    if (v == null) {
      s = "null";
    } else if (v instanceof Message m) {
      s = m.getDescriptorForType().getName() + " message";
    } else if (v instanceof List<?> l) {
      List<String> parts = new ArrayList<>();
      for (Object o : l) {
        parts.add(o instanceof String str ? "'" + str + "'" : describe(o));
      }
      s = "[" + String.join(", ", parts) + "]";
    } else {
      s = Objects.toString(v);
    }
    return RuleCatalog.cut(s, 200);
  }

  private static String evalMessage(Exception e) {
    String m = e.getMessage();
    if (m == null) {
      return e.getClass().getSimpleName();
    }
    m = m.replace("/ by zero", "division by zero");
    // CEL prefixes positions ("evaluation error at <input>:12: ..."); keep the message itself.
    int i = m.indexOf(": ");
    if (m.startsWith("evaluation error") && i > 0) {
      return m.substring(i + 2);
    }
    return m;
  }

  // ------------------------------------------------------------------ builder

  /**
   * Collects rules and limits. {@link #build()} compiles every rule once; building without a
   * single rule throws {@link NoRulesException}, and building with a broken rule throws
   * {@link BrokenRuleException} unless {@link #skipBrokenRules(boolean) skipBrokenRules(true)}.
   *
   * <pre>{@code
   * StageRuleEngine engine = StageRuleEngine.builder()
   *     .recommended()
   *     .rules(RuleCatalog.load(Path.of("team-rules.json")))
   *     .skipBrokenRules(true) // run the others; each broken rule becomes a warning
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private final List<StageRule> rules = new ArrayList<>();
    private final List<BrokenRule> brokenEntries = new ArrayList<>();
    private RuleLimits limits = RuleLimits.DEFAULT;
    private boolean prefilter = true;
    private int parallelism = 1;
    private boolean skipBroken;

    private Builder() {}

    /**
     * Evaluates up to {@code threads} rules at once (default 1: no threads are started). Results
     * are the same, in rule order, whatever the value.
     */
    public Builder parallelism(int threads) {
      if (threads < 1) {
        throw new InvalidRequestException(
            "parallelism must be at least 1 (1 evaluates on the calling thread), was " + threads);
      }
      this.parallelism = threads;
      return this;
    }

    /** Turns the exact per-stage prefilter off (for tests that compare both paths). */
    Builder prefilter(boolean on) {
      this.prefilter = on;
      return this;
    }

    /** Adds one rule. */
    public Builder rule(StageRule rule) {
      rules.add(Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /** Adds rules in order. */
    public Builder rules(List<StageRule> list) {
      list.forEach(this::rule);
      return this;
    }

    /** Adds a catalog's rules; its broken entries count as broken rules. */
    public Builder rules(RuleCatalog catalog) {
      rules(catalog.rules());
      brokenEntries.addAll(catalog.broken());
      return this;
    }

    /**
     * Whether broken rules (see {@link BrokenRule}) are skipped, each reported in every result's
     * warnings, so that the other rules still run (default false: {@link #build()} throws
     * {@link BrokenRuleException}). Opt in only where a broken check may go unnoticed, since a
     * skipped rule can never fail.
     */
    public Builder skipBrokenRules(boolean skip) {
      this.skipBroken = skip;
      return this;
    }

    /** Adds rules from JSON text (a list of rule objects, or one). */
    public Builder rulesJson(String json) {
      return rules(RuleCatalog.parse(json, "inline rules"));
    }

    /** Adds the recommended catalog ({@link RuleCatalog#recommended()}). */
    public Builder recommended() {
      return rules(RuleCatalog.recommended());
    }

    /** The caps on rule size and evaluation work (default {@link RuleLimits#DEFAULT}). */
    public Builder limits(RuleLimits l) {
      this.limits = Objects.requireNonNull(l, "limits");
      return this;
    }

    /**
     * Compiles the rules.
     *
     * @throws NoRulesException when nothing at all was supplied
     * @throws BrokenRuleException when a rule, detail or advice does not compile, or a rule file
     *     entry is invalid, unless broken rules are skipped
     */
    public StageRuleEngine build() {
      if (rules.isEmpty() && brokenEntries.isEmpty()) {
        throw new NoRulesException();
      }
      StageRuleEngine engine = new StageRuleEngine(this);
      if (!skipBroken && !engine.broken.isEmpty()) {
        throw new BrokenRuleException(engine.broken);
      }
      return engine;
    }
  }
}
