package io.sparkrca.analysis.compare.internal;

import static io.sparkrca.core.report.Markdown.code;
import static io.sparkrca.core.report.Markdown.text;

import io.sparkrca.core.evidence.CodeDiff;
import io.sparkrca.core.report.Alternative;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.analysis.compare.Comparison;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.Locale;

/** Renders a {@link Comparison} as Markdown; input text redacted, escaped and capped. Not an API. */
public final class ComparisonMarkdown {
  /** The sections, in the order the report shows them. */
  private static final List<BiConsumer<StringBuilder, Comparison>> SECTIONS = List.of(
      ComparisonMarkdown::header,
      ComparisonMarkdown::verdict,
      ComparisonMarkdown::firstDivergentStage,
      ComparisonMarkdown::configChanges,
      ComparisonMarkdown::codeChanges,
      ComparisonMarkdown::remediation,
      ComparisonMarkdown::stagesSideBySide,
      ComparisonMarkdown::unmatched,
      ComparisonMarkdown::notes);

  private static final int MAX_ROWS = 60;

  private ComparisonMarkdown() {}

  public static String render(Comparison c) {
    StringBuilder out = new StringBuilder(8192);
    SECTIONS.forEach(section -> section.accept(out, c));
    return out.toString();
  }

  /** The title, the verdict, the slowdown, the input growth and both runs in a few bullets. */
  private static void header(StringBuilder out, Comparison c) {
    Comparison.Verdict v = c.verdict();
    out.append("### Comparison with a Baseline: ").append(text(c.candidate().applicationId(), 200)).append(" against ")
        .append(text(c.baseline().applicationId(), 200)).append("\n\n");
    out.append("- **Verdict**: ").append(code(v.kind().name())).append(" (")
        .append(v.confidence().name().replace('_', ' ').toLowerCase(Locale.ROOT)).append("): ").append(text(v.title(), 300))
        .append('\n');
    out.append("- **Slowdown**: ").append(Judge.x(c.slowdown())).append(" (job time ")
        .append(Formats.humanMillis(c.candidate().jobTimeMs())).append(" against ")
        .append(Formats.humanMillis(c.baseline().jobTimeMs())).append(")\n");
    out.append("- **Input**: ").append(Judge.x(c.inputGrowth())).append(" (").append(c.candidate().inputRecords())
        .append(" records, ").append(Formats.humanBytes(c.candidate().inputBytes())).append(" against ")
        .append(c.baseline().inputRecords()).append(" records, ").append(Formats.humanBytes(c.baseline().inputBytes()))
        .append(")\n");
    out.append("- **Per unit of input**: ").append(Judge.x(c.normalizedSlowdown())).append("\n");
    out.append("- **Runs**: this run ").append(run(c.candidate())).append("; baseline ").append(run(c.baseline()))
        .append("\n\n");
  }

  /** Section 1: why, the evidence, and the alternatives rejected. */
  private static void verdict(StringBuilder out, Comparison c) {
    Comparison.Verdict v = c.verdict();
    out.append("### 1. Verdict\n\n").append(text(v.explanation(), 4000)).append("\n\n");
    v.toConfirm().ifPresent(t -> out.append("To confirm: ").append(text(t, 1000)).append("\n\n"));
    if (!v.evidence().isEmpty()) {
      out.append("Evidence:\n\n");
      for (EvidenceRef e : v.evidence()) {
        out.append("- ").append(e.kind().name().toLowerCase(Locale.ROOT)).append(' ')
            .append(code(e.source() + (e.line() > 0 ? ":" + e.line() : ""), 300)).append(": ").append(text(e.detail(), 600))
            .append('\n');
      }
      out.append('\n');
    }
    if (!v.alternatives().isEmpty()) {
      out.append("Alternatives considered and rejected:\n\n");
      for (Alternative a : v.alternatives()) {
        out.append("- ").append(code(a.kind().name())).append(": ").append(text(a.whyRejected(), 600)).append('\n');
      }
      out.append('\n');
    }
  }

  /** Section 2: the first matched stage that departs from its baseline, side by side. */
  private static void firstDivergentStage(StringBuilder out, Comparison c) {
    out.append("### 2. First Divergent Stage\n\n");
    if (c.firstDivergentStage().isEmpty()) {
      out.append("- None: no matched stage departs from its baseline after normalising for input.\n\n");
    } else {
      Comparison.StagePair p = c.firstDivergentStage().get();
      out.append("This run's ").append(text(p.candidate().label(), 300)).append(" against the baseline's ")
          .append(text(p.baseline().label(), 300)).append(" (matched by ").append(p.matchedBy()).append("): ")
          .append(Judge.x(p.timeRatio())).append(" the time on ").append(Judge.x(p.inputRatio())).append(" the input, ")
          .append(Judge.x(p.normalizedRatio())).append(" per unit of input.\n\n");
      out.append("| Metric | Baseline | This run |\n|---|---|---|\n");
      for (String[] row : sideBySide(p)) {
        out.append("| ").append(row[0]).append(" | ").append(row[1]).append(" | ").append(row[2]).append(" |\n");
      }
      out.append('\n');
    }
  }

  /** Section 3: the changed Spark properties, ranked. */
  private static void configChanges(StringBuilder out, Comparison c) {
    out.append("### 3. Configuration Changes\n\n");
    if (c.configChanges().isEmpty()) {
      out.append("- None: every Spark property is the same (identity and per-run paths left out).\n\n");
    } else {
      out.append("| Property | Baseline | This run | Kind | Linked to the stages |\n|---|---|---|---|---|\n");
      for (Comparison.ConfigChange x : c.configChanges().subList(0, Math.min(MAX_ROWS, c.configChanges().size()))) {
        out.append("| ").append(code(x.property())).append(" | ").append(code(x.baseline().orElse("unset"), 200))
            .append(" | ").append(code(x.candidate().orElse("unset"), 200)).append(" | ").append(x.category())
            .append(" | ").append(text(x.link().orElse(""), 500)).append(" |\n");
      }
      if (c.configChanges().size() > MAX_ROWS) {
        out.append("\n(").append(c.configChanges().size() - MAX_ROWS).append(" more in the JSON report)\n");
      }
      out.append('\n');
    }
  }

  /** Section 4: what changed in the code, when both runs' code was given. */
  private static void codeChanges(StringBuilder out, Comparison c) {
    out.append("### 4. Code Changes\n\n");
    if (c.code().isEmpty()) {
      out.append("- Not compared: give the code of both runs.\n\n");
    } else {
      CodeDiff d = c.code().get();
      out.append("- ").append(code(d.baselineUri(), 300)).append(" \u2192 ").append(code(d.candidateUri(), 300)).append(": ")
          .append(d.identical() ? "identical" : d.changed().size() + " changed, " + d.added().size() + " added, "
              + d.removed().size() + " removed, " + d.unchanged() + " unchanged").append('\n');
      for (CodeDiff.ChangedEntry e : d.changed().subList(0, Math.min(20, d.changed().size()))) {
        out.append("  - changed ").append(code(e.name(), 300));
        if (!e.addedStrings().isEmpty()) {
          out.append("; new strings: ").append(code(String.join(" | ", e.addedStrings()), 400));
        }
        if (!e.removedStrings().isEmpty()) {
          out.append("; gone: ").append(code(String.join(" | ", e.removedStrings()), 400));
        }
        out.append('\n');
      }
      d.added().stream().limit(20).forEach(a -> out.append("  - added ").append(code(a, 300)).append('\n'));
      d.removed().stream().limit(20).forEach(a -> out.append("  - removed ").append(code(a, 300)).append('\n'));
      d.notes().forEach(n -> out.append("  - note: ").append(text(n, 300)).append('\n'));
      out.append('\n');
    }
  }

  /** Section 5: what to do. */
  private static void remediation(StringBuilder out, Comparison c) {
    Comparison.Verdict v = c.verdict();
    out.append("### 5. Remediation\n\n");
    if (v.recommendations().isEmpty()) {
      out.append("- None.\n");
    }
    for (Recommendation r : v.recommendations()) {
      out.append("- ").append(text(r.action(), 800)).append(r.rationale().isEmpty() ? "" : " Why: "
          + text(r.rationale(), 800)).append('\n');
      for (PropertyChange p : r.properties()) {
        out.append("  - ").append(code(p.property() + "=" + p.recommended(), 300))
            .append(p.current().map(x -> " (now " + code(x, 200) + ")").orElse("")).append('\n');
      }
    }
    out.append('\n');
  }

  /** Section 6: every matched stage pair. */
  private static void stagesSideBySide(StringBuilder out, Comparison c) {
    out.append("### 6. Stages Side by Side\n\n");
    out.append("| Baseline stage | This run's stage | Matched by | Tasks | Time | Input | Per unit of input |\n")
        .append("|---|---|---|---|---|---|---|\n");
    for (Comparison.StagePair p : c.stages().subList(0, Math.min(MAX_ROWS, c.stages().size()))) {
      out.append("| ").append(text(p.baseline().label(), 120)).append(" | ").append(text(p.candidate().label(), 120))
          .append(" | ").append(p.matchedBy()).append(" | ").append(p.baseline().tasks()).append(" \u2192 ")
          .append(p.candidate().tasks()).append(" | ").append(Formats.humanMillis(p.baseline().wallMs())).append(" \u2192 ")
          .append(Formats.humanMillis(p.candidate().wallMs())).append(" | ").append(Judge.x(p.inputRatio()))
          .append(" | ").append(Judge.x(p.normalizedRatio())).append(" |\n");
    }
    if (c.stages().size() > MAX_ROWS) {
      out.append("\n(").append(c.stages().size() - MAX_ROWS).append(" more pairs in the JSON report)\n");
    }
    out.append('\n');
  }

  /** The stages and jobs of one run only. */
  private static void unmatched(StringBuilder out, Comparison c) {
    if (!c.unmatchedCandidateStages().isEmpty() || !c.unmatchedBaselineStages().isEmpty()) {
      out.append("Stages that could not be matched:\n\n");
      c.unmatchedCandidateStages().stream().limit(20).forEach(s -> out.append("- only in this run: ")
          .append(text(s.label(), 200)).append(" (").append(s.role()).append(", ").append(s.tasks()).append(" tasks)\n"));
      c.unmatchedBaselineStages().stream().limit(20).forEach(s -> out.append("- only in the baseline: ")
          .append(text(s.label(), 200)).append(" (").append(s.role()).append(", ").append(s.tasks()).append(" tasks)\n"));
      out.append('\n');
    }
    if (!c.unmatchedCandidateJobs().isEmpty() || !c.unmatchedBaselineJobs().isEmpty()) {
      out.append("Jobs that could not be matched:\n\n");
      c.unmatchedCandidateJobs().stream().limit(20).forEach(j -> out.append("- only in this run: ")
          .append(text(j, 200)).append('\n'));
      c.unmatchedBaselineJobs().stream().limit(20).forEach(j -> out.append("- only in the baseline: ")
          .append(text(j, 200)).append('\n'));
      out.append('\n');
    }
  }

  /** The notes, when there are any. */
  private static void notes(StringBuilder out, Comparison c) {
    if (!c.notes().isEmpty()) {
      out.append("### Notes\n\n");
      c.notes().forEach(n -> out.append("- ").append(text(n, 800)).append('\n'));
    }
  }

  /** The first divergent stage's numbers, row by row: metric, baseline, this run. */
  public static List<String[]> sideBySide(Comparison.StagePair p) {
    Comparison.StageStats b = p.baseline();
    Comparison.StageStats c = p.candidate();
    return List.of(
        new String[] {"stage", b.label(), c.label()},
        new String[] {"tasks", Integer.toString(b.tasks()), Integer.toString(c.tasks())},
        new String[] {"wall time", Formats.humanMillis(b.wallMs()), Formats.humanMillis(c.wallMs())},
        new String[] {"task time", Formats.humanMillis(b.taskTimeMs()), Formats.humanMillis(c.taskTimeMs())},
        new String[] {"median task", Formats.humanMillis(b.medianTaskMs()), Formats.humanMillis(c.medianTaskMs())},
        new String[] {"max task", Formats.humanMillis(b.maxTaskMs()), Formats.humanMillis(c.maxTaskMs())},
        new String[] {"skew (max / median task)", Formats.fixed(b.skew(), 1) + "x", Formats.fixed(c.skew(), 1) + "x"},
        new String[] {"records read", Long.toString(b.recordsRead()), Long.toString(c.recordsRead())},
        new String[] {"shuffle read", Formats.humanBytes(b.shuffleReadBytes()), Formats.humanBytes(c.shuffleReadBytes())},
        new String[] {"shuffle read per task (median / max)", Formats.humanBytes(b.medianShuffleReadBytes()) + " / "
            + Formats.humanBytes(b.maxShuffleReadBytes()), Formats.humanBytes(c.medianShuffleReadBytes()) + " / "
            + Formats.humanBytes(c.maxShuffleReadBytes())},
        new String[] {"shuffle write", Formats.humanBytes(b.shuffleWriteBytes()), Formats.humanBytes(c.shuffleWriteBytes())},
        new String[] {"spill (memory / disk)", Formats.humanBytes(b.memorySpilled()) + " / "
            + Formats.humanBytes(b.diskSpilled()), Formats.humanBytes(c.memorySpilled()) + " / "
            + Formats.humanBytes(c.diskSpilled())},
        new String[] {"GC", Formats.humanMillis(b.gcMs()) + " (" + Formats.percent(b.gcMs(), Math.max(1, b.taskTimeMs()))
            + ")", Formats.humanMillis(c.gcMs()) + " (" + Formats.percent(c.gcMs(), Math.max(1, c.taskTimeMs())) + ")"});
  }

  private static String run(Comparison.Run r) {
    return code(r.applicationId()) + " (" + text(r.name(), 120) + ", Spark " + text(r.sparkVersion(), 20) + ", "
        + r.tasks() + " tasks in " + r.stages() + " stages, " + r.maxCores() + " cores, " + r.executorsLost()
        + " executors lost)";
  }
}
