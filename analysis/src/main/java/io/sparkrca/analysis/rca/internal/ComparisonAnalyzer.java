package io.sparkrca.analysis.rca.internal;

import io.sparkrca.core.evidence.ApplicationEvidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.analysis.compare.Comparison;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import java.util.List;

/**
 * The comparison with a healthy baseline run (the slow-job playbook's first step), as a root-cause
 * candidate: the verdict of {@link Comparison} (configuration regression, input growth, a change in
 * the data's distribution, in the code or in the resources) when the run is slower than its
 * baseline. A run that is not slower, or slower for no reason the comparison finds, yields no
 * candidate: the other analyzers judge it on its own, and the report still shows the comparison.
 */
public final class ComparisonAnalyzer implements Analyzer {
  @Override
  public String name() {
    return "baseline";
  }

  /**
   * The comparison of the application with the baseline run, made once per analysis and kept as
   * the context's derived value, so that the report can show it as a section. Its profiles are off:
   * the RCA's own charts show this run.
   */
  static Comparison compare(AnalysisContext ctx) {
    return Comparison.builder(ctx.app().orElseThrow(), ctx.baseline().orElseThrow().app().orElseThrow())
        .sources(ctx.source().map(ApplicationEvidence::uri).orElse(""),
            ctx.evidence().baseline().map(ApplicationEvidence::uri).orElse(""))
        .profiles(false)
        .compare();
  }

  @Override
  public List<Candidate> analyze(AnalysisContext ctx) {
    if (ctx.baseline().isEmpty() || ctx.app().isEmpty()) {
      return List.of();
    }
    Comparison c = ctx.derived(Comparison.class, ComparisonAnalyzer::compare);
    Comparison.Verdict v = c.verdict();
    if (v.kind().category() != RootCauseKind.Category.COMPARISON) {
      return List.of();
    }
    long cost = Math.max(0, c.candidate().jobTimeMs() - c.baseline().jobTimeMs());
    List<Metric> metrics = List.of(new Metric("slowdown", c.slowdown(), "ratio"),
        new Metric("inputGrowth", c.inputGrowth(), "ratio"),
        new Metric("normalizedSlowdown", c.normalizedSlowdown(), "ratio"),
        new Metric("jobTimeMs", c.candidate().jobTimeMs(), "ms"),
        new Metric("baselineJobTimeMs", c.baseline().jobTimeMs(), "ms"),
        new Metric("inputRecords", c.candidate().inputRecords(), "count"),
        new Metric("baselineInputRecords", c.baseline().inputRecords(), "count"));
    // The first divergent stage's numbers, as the explanation states them.
    metrics = new java.util.ArrayList<>(metrics);
    for (Comparison.StagePair p : c.firstDivergentStage().stream().toList()) {
      metrics.addAll(List.of(new Metric("divergentStageWallMs", p.candidate().wallMs(), "ms"),
          new Metric("baselineDivergentStageWallMs", p.baseline().wallMs(), "ms"),
          new Metric("divergentStageMedianTaskMs", p.candidate().medianTaskMs(), "ms"),
          new Metric("baselineDivergentStageMedianTaskMs", p.baseline().medianTaskMs(), "ms"),
          new Metric("divergentStageTasks", p.candidate().tasks(), "count"),
          new Metric("baselineDivergentStageTasks", p.baseline().tasks(), "count")));
    }
    String summary = Support.times(c.slowdown()) + " the baseline's job time on " + Support.times(c.inputGrowth())
        + " its input (" + Support.times(c.normalizedSlowdown()) + " per unit of input)"
        + c.firstDivergentStage().map(p -> "; first divergent: " + p.candidate().label()).orElse("")
        + (c.linkedConfigChanges().isEmpty() ? "" : "; changed: " + String.join(", ", c.linkedConfigChanges().stream()
            .map(Comparison.ConfigChange::property).toList()));
    Severity severity = v.kind() == RootCauseKind.NO_REGRESSION_INPUT_GROWTH ? Severity.INFO : Severity.HIGH;
    // The stage the explanation names as the first to depart from its baseline is the culprit: its time regressed.
    Culprit culprit = c.firstDivergentStage().map(p -> Culprit.stages(List.of(p.candidate().stageId())))
        .orElse(Culprit.none());
    Candidate.Builder b = Candidate.builder(Support.finding(v.kind(), severity, v.title(), summary, culprit, metrics,
            cost, Support.share(ctx, cost), v.evidence(), name()))
        .confidence(v.confidence())
        .explanation(v.explanation())
        .time(ctx.startMs());
    v.toConfirm().ifPresent(b::toConfirm);
    for (Recommendation r : v.recommendations()) {
      b.recommend(r);
    }
    return List.of(b.build());
  }
}
