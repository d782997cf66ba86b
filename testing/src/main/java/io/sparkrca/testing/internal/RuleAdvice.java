package io.sparkrca.testing.internal;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.model.StageData;
import io.sparkrca.rules.RuleCatalog;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageFinding;
import io.sparkrca.rules.StageRule;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.rules.Violation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * The remediation a failure message ends with: what sparkrca's recommended rules say about the
 * stages the assertion flagged. The rules are evaluated on the application (so a rule's advice
 * that depends on its configuration is included); when none of the related rules flags those
 * stages (their magnitude floors are higher than the assertion's limit), the first related rule's
 * remediation is quoted as it is in the catalog.
 */
public final class RuleAdvice {
  private static final Map<SparkApplication, StageDiagnostics> EVALUATED =
      Collections.synchronizedMap(new WeakHashMap<>());
  /** Compiled engines by catalog: compiling CEL rules costs seconds, and suites assert the same catalog often. */
  private static final Map<RuleCatalog, StageRuleEngine> ENGINES = new java.util.LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<RuleCatalog, StageRuleEngine> eldest) {
      return size() > 8;
    }
  };

  private RuleAdvice() {}

  /**
   * {@code Remediation (RULE): text} lines for the related rules that flag any of {@code stages}
   * (stage-scoped rules) or the application (application-scoped ones), in the order of {@code
   * ruleIds}; the first rule's catalog text when none does.
   */
  public static String remediation(Optional<SparkApplication> app, List<StageData> stages, List<String> ruleIds) {
    List<String> lines = new ArrayList<>();
    if (app.isPresent()) {
      Optional<StageDiagnostics> d = evaluate(app.get());
      for (String id : ruleIds) {
        d.flatMap(x -> x.violation(id)).filter(v -> flags(v, stages))
            .ifPresent(v -> lines.add(line(v.ruleId(), v.remediation())));
      }
    }
    if (lines.isEmpty()) {
      RuleCatalog.recommended().rules().stream().filter(r -> r.ruleId().equals(ruleIds.get(0))).findFirst()
          .map(StageRule::remediation).ifPresent(r -> lines.add(line(ruleIds.get(0), r)));
    }
    return lines.isEmpty() ? "" : "\n" + String.join("\n", lines);
  }

  private static String line(String ruleId, String text) {
    return "Remediation (" + ruleId + "): " + text;
  }

  private static boolean flags(Violation v, List<StageData> stages) {
    if (v.stages().isEmpty()) {
      return true; // an application-level finding
    }
    for (StageFinding f : v.stages()) {
      for (StageData s : stages) {
        if (f.stageId() == s.stageId() && f.stageAttemptId() == s.attemptId()) {
          return true;
        }
      }
    }
    return false;
  }

  private static Optional<StageDiagnostics> evaluate(SparkApplication app) {
    StageDiagnostics d = EVALUATED.get(app);
    if (d == null) {
      try {
        d = engine().evaluate(app);
      } catch (RuntimeException e) {
        // The advice is a courtesy of the message: a rule that cannot run must not hide the failure.
        return Optional.empty();
      }
      EVALUATED.put(app, d);
    }
    return Optional.of(d);
  }

  private static StageRuleEngine engine() {
    return engine(RuleCatalog.recommended());
  }

  /** An engine for {@code catalog}, compiled once per catalog (the last 8 kept). */
  public static StageRuleEngine engine(RuleCatalog catalog) {
    synchronized (ENGINES) {
      return ENGINES.computeIfAbsent(catalog, c -> StageRuleEngine.builder().rules(c).build());
    }
  }
}
