package io.sparkrca.analysis.compare.internal;

import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.report.html.Charts;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.ProfileCharts;
import io.sparkrca.analysis.compare.Comparison;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@link Comparison} in HTML: the verdict, the per-stage time of both runs side by side as
 * paired bars, the first divergent stage's numbers side by side, the configuration diff table,
 * the code diff, and (in a standalone page) both runs' charts. Not an API.
 */
public final class ComparisonHtml {
  private static final int MAX_UNMATCHED = 100;

  private ComparisonHtml() {}

  public static void append(HtmlPage page, Comparison c, boolean standalone) {
    verdict(page, c, standalone);
    stageTimes(page, c);
    firstDivergentStage(page, c);
    configChanges(page, c);
    codeChanges(page, c);
    unmatched(page, c);
    profiles(page, c, standalone);
    notes(page, c);
  }

  /** The verdict, both runs' facts, the explanation, the alternatives rejected, and (standalone) what to do. */
  private static void verdict(HtmlPage page, Comparison c, boolean standalone) {
    Comparison.Verdict v = c.verdict();
    page.heading(2, standalone ? "Verdict: " + v.title() : "Comparison with the baseline " + c.baseline().applicationId());
    String cls = switch (v.kind()) {
      case HEALTHY, NO_REGRESSION_INPUT_GROWTH -> "healthy";
      case UNDETERMINED -> "undetermined";
      default -> "problem";
    };
    page.raw("<p><span class=\"verdict " + cls + "\" data-comparison-kind=\"" + v.kind().name() + "\">" + v.kind().name()
        + "</span> <span class=\"muted\">" + HtmlPage.text(v.confidence().name().replace('_', ' ')
            .toLowerCase(Locale.ROOT)) + "</span></p>");
    page.facts(List.of(
        new String[] {"This run", run(c.candidate())},
        new String[] {"Baseline", run(c.baseline())},
        new String[] {"Slowdown", Judge.x(c.slowdown()) + " (job time " + Formats.humanMillis(c.candidate().jobTimeMs())
            + " against " + Formats.humanMillis(c.baseline().jobTimeMs()) + ")"},
        new String[] {"Input", Judge.x(c.inputGrowth())},
        new String[] {"Per unit of input", Judge.x(c.normalizedSlowdown())}));
    page.paragraph(v.explanation());
    v.toConfirm().ifPresent(t -> page.paragraph("To confirm: " + t));
    if (!v.alternatives().isEmpty()) {
      page.heading(3, "Alternatives considered and rejected");
      page.table("", List.of("kind", "why rejected"), v.alternatives().stream()
          .map(a -> List.of(a.kind().name(), a.whyRejected())).toList());
    }
    if (standalone && !v.recommendations().isEmpty()) {
      page.heading(3, "What to do");
      for (Recommendation r : v.recommendations()) {
        page.paragraph(r.action() + (r.rationale().isEmpty() ? "" : " Why: " + r.rationale()));
        if (!r.properties().isEmpty()) {
          page.table("", List.of("property", "set to", "now"), r.properties().stream()
              .map((PropertyChange p) -> List.of(p.property(), p.recommended(), p.current().orElse(""))).toList());
        }
      }
    }
  }

  /** Both runs' wall time per stage, as paired bars. */
  private static void stageTimes(HtmlPage page, Comparison c) {
    page.heading(3, "Time per stage, both runs");
    List<Charts.Pair> bars = new ArrayList<>();
    for (Comparison.StagePair p : c.stages()) {
      bars.add(new Charts.Pair(p.candidate().label(), p.baseline().wallMs(), p.candidate().wallMs()));
    }
    for (Comparison.StageStats s : c.unmatchedCandidateStages()) {
      bars.add(new Charts.Pair(s.label() + " (only in this run)", 0, s.wallMs()));
    }
    for (Comparison.StageStats s : c.unmatchedBaselineStages()) {
      bars.add(new Charts.Pair(s.label() + " (only in the baseline)", s.wallMs(), 0));
    }
    page.raw(Charts.pairs("Wall time per stage: baseline and this run", "stage-times", bars, "ms"));
  }

  /** The first matched stage that departs from its baseline, side by side. */
  private static void firstDivergentStage(HtmlPage page, Comparison c) {
    page.heading(3, "First divergent stage");
    if (c.firstDivergentStage().isEmpty()) {
      page.paragraph("None: no matched stage departs from its baseline after normalising for input.");
    } else {
      Comparison.StagePair p = c.firstDivergentStage().get();
      page.raw("<p data-first-divergent=\"" + p.candidate().stageId() + "\" data-baseline-stage=\""
          + p.baseline().stageId() + "\">" + HtmlPage.text("This run's " + p.candidate().label() + " against the "
              + "baseline's " + p.baseline().label() + " (matched by " + p.matchedBy() + "): " + Judge.x(p.timeRatio())
              + " the time on " + Judge.x(p.inputRatio()) + " the input, " + Judge.x(p.normalizedRatio())
              + " per unit of input.") + "</p>");
      List<List<String>> rows = new ArrayList<>();
      for (String[] r : ComparisonMarkdown.sideBySide(p)) {
        rows.add(List.of(r));
      }
      page.table("The first divergent stage side by side", List.of("metric", "baseline", "this run"), rows, 1, 2);
    }
  }

  /** The changed Spark properties, the most plausible explanations first. */
  private static void configChanges(HtmlPage page, Comparison c) {
    page.heading(3, "Configuration changes");
    if (c.configChanges().isEmpty()) {
      page.paragraph("None: every Spark property is the same (identity and per-run paths left out).");
    } else {
      page.raw("<div data-config-diff=\"" + c.configChanges().size() + "\">");
      page.table("Changed properties, the most plausible explanations first (secrets redacted)",
          List.of("property", "baseline", "this run", "kind", "relevance", "what it did to the stages"),
          c.configChanges().stream().map(x -> List.of(x.property(), x.baseline().orElse("unset"),
              x.candidate().orElse("unset"), x.category(), Formats.fixed(x.relevance(), 2), x.link().orElse("")))
              .toList(), 4);
      page.raw("</div>");
    }
  }

  /** What changed in the code, when both runs' code was given. */
  private static void codeChanges(HtmlPage page, Comparison c) {
    page.heading(3, "Code changes");
    if (c.code().isEmpty()) {
      page.paragraph("Not compared: give the code of both runs.");
    } else {
      CodeDiff d = c.code().get();
      page.paragraph(d.baselineUri() + " \u2192 " + d.candidateUri() + ": " + (d.identical() ? "identical"
          : d.changed().size() + " changed, " + d.added().size() + " added, " + d.removed().size() + " removed, "
              + d.unchanged() + " unchanged"));
      List<List<String>> rows = new ArrayList<>();
      d.changed().forEach(e -> rows.add(List.of("changed", e.name(), String.join(" | ", e.addedStrings()),
          String.join(" | ", e.removedStrings()))));
      d.added().forEach(a -> rows.add(List.of("added", a, "", "")));
      d.removed().forEach(a -> rows.add(List.of("removed", a, "", "")));
      if (!rows.isEmpty()) {
        page.table("", List.of("change", "entry", "new strings", "strings gone"), rows);
      }
      page.list(d.notes());
    }
  }

  /** The stages and jobs of one run only. */
  private static void unmatched(HtmlPage page, Comparison c) {
    if (!c.unmatchedCandidateStages().isEmpty() || !c.unmatchedBaselineStages().isEmpty()
        || !c.unmatchedCandidateJobs().isEmpty() || !c.unmatchedBaselineJobs().isEmpty()) {
      page.heading(3, "What could not be matched");
      List<String> items = new ArrayList<>();
      c.unmatchedCandidateStages().forEach(s -> items.add("only in this run: " + s.label() + " (" + s.role() + ", "
          + s.tasks() + " tasks)"));
      c.unmatchedBaselineStages().forEach(s -> items.add("only in the baseline: " + s.label() + " (" + s.role() + ", "
          + s.tasks() + " tasks)"));
      c.unmatchedCandidateJobs().forEach(j -> items.add("only in this run: " + j));
      c.unmatchedBaselineJobs().forEach(j -> items.add("only in the baseline: " + j));
      page.list(items.subList(0, Math.min(MAX_UNMATCHED, items.size())));
      if (items.size() > MAX_UNMATCHED) {
        page.note((items.size() - MAX_UNMATCHED) + " more are in the JSON report.");
      }
    }
  }

  /** Standalone: each run's own charts. */
  private static void profiles(HtmlPage page, Comparison c, boolean standalone) {
    if (standalone) {
      c.candidateProfile().ifPresent(p -> {
        page.heading(2, "This run: " + c.candidate().applicationId());
        ProfileCharts.append(page, p, List.of());
      });
      c.baselineProfile().ifPresent(p -> {
        page.heading(2, "Baseline: " + c.baseline().applicationId());
        ProfileCharts.append(page, p, List.of());
      });
    }
  }

  /** The notes, when there are any. */
  private static void notes(HtmlPage page, Comparison c) {
    if (!c.notes().isEmpty()) {
      page.heading(3, "Notes");
      page.list(c.notes());
    }
  }

  private static String run(Comparison.Run r) {
    return r.applicationId() + " (" + r.name() + ", Spark " + r.sparkVersion() + "): " + r.tasks() + " tasks in "
        + r.stages() + " stages, " + r.maxCores() + " cores, " + r.executorsLost() + " executors lost, from " + r.source();
  }
}
