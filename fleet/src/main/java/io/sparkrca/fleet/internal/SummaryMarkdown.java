package io.sparkrca.fleet.internal;

import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Markdown;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.fleet.FleetSummary;
import java.util.Map;

/** The fleet summary and the rows table in Markdown. */
public final class SummaryMarkdown {
  private SummaryMarkdown() {}

  public static String render(FleetSummary s) {
    FleetSummary.Totals t = s.totals();
    StringBuilder md = new StringBuilder();
    md.append("# Fleet summary\n\n");
    long analyzed = t.applications() - t.errors();
    md.append("**").append(t.applications()).append(" application").append(t.applications() == 1 ? "" : "s")
        .append("** under ").append(Markdown.code(s.root())).append(": ");
    md.append(t.byVerdict().getOrDefault("HEALTHY", 0L)).append(" healthy, ")
        .append(t.byVerdict().getOrDefault("PROBLEM", 0L)).append(" with a problem, ")
        .append(t.byVerdict().getOrDefault("UNDETERMINED", 0L)).append(" undetermined");
    md.append("; ").append(analyzed).append(" analysed, ").append(t.errors()).append(" could not be analysed");
    if (t.inProgress() > 0) {
      md.append("; ").append(t.inProgress()).append(" still running when read");
    }
    md.append(".\n\n");
    md.append("Outcomes: ");
    appendCounts(md, t.byOutcome());
    md.append(". Core-hours held: ").append(FleetSummary.hours(t.coreMicroHours()).toPlainString())
        .append("; wasted: ").append(FleetSummary.hours(t.wastedMicroHours()).toPlainString());
    if (t.coreMicroHours() > 0) {
      md.append(" (").append(Formats.percent(t.wastedMicroHours(), t.coreMicroHours())).append(")");
    }
    md.append("; wall time wasted: ").append(Formats.humanMillis(t.wastedMs())).append(".\n\n");

    md.append("## Root causes\n\n");
    if (t.byKind().isEmpty()) {
      md.append("No application could be analysed.\n\n");
    } else {
      md.append("| root cause | applications | wasted core-hours |\n|---|---:|---:|\n");
      for (Map.Entry<String, Long> e : t.kindsByCount()) {
        md.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" | ")
            .append(FleetSummary.hours(t.wastedMicroHoursByKind().getOrDefault(e.getKey(), 0L)).toPlainString())
            .append(" |\n");
      }
      md.append('\n');
    }

    md.append("## Worst offenders by wasted core-hours\n\n");
    if (t.worstOffenders().isEmpty()) {
      md.append("No application wasted time.\n\n");
    } else {
      md.append("| # | application | name | root cause | wasted core-hours | wasted time | log |\n")
          .append("|---:|---|---|---|---:|---:|---|\n");
      int i = 1;
      for (FleetSummary.Offender f : t.worstOffenders()) {
        md.append("| ").append(i++).append(" | ").append(Markdown.text(f.appId(), 100)).append(" | ")
            .append(Markdown.text(f.name(), 100)).append(" | ").append(f.kind()).append(" | ")
            .append(RowText.plain(f.wastedCoreHours())).append(" | ").append(Formats.humanMillis(f.wastedMs()))
            .append(" | ").append(Markdown.code(f.path(), 200)).append(" |\n");
      }
      md.append('\n');
    }

    md.append("## Regressions\n\n");
    if (s.regressions().isEmpty()) {
      md.append("No run regressed against earlier runs of the same application name in the set (a run regresses when it "
          + "fails after a success, or takes at least " + FleetSummary.MIN_SLOWDOWN + "x the median of up to "
          + FleetSummary.BASELINE_RUNS + " earlier successful runs and " + Formats.humanMillis(FleetSummary.MIN_EXTRA_MS)
          + " more).\n\n");
    } else {
      md.append("| name | application | started | duration | outcome | why | log |\n|---|---|---|---:|---|---|---|\n");
      for (FleetSummary.Regression r : s.regressions()) {
        md.append("| ").append(Markdown.text(r.name(), 100)).append(" | ").append(Markdown.text(r.appId(), 100))
            .append(" | ").append(r.startTime()).append(" | ")
            .append(r.durationMs() >= 0 ? Formats.humanMillis(r.durationMs()) : "?").append(" | ").append(r.outcome())
            .append(" | ").append(Markdown.text(r.reason(), 300)).append(" | ").append(Markdown.code(r.path(), 200))
            .append(" |\n");
      }
      md.append('\n');
    }

    if (!t.errorLogs().isEmpty()) {
      md.append("## Logs that could not be analysed\n\n| log | error |\n|---|---|\n");
      for (FleetSummary.ErrorLog e : t.errorLogs()) {
        md.append("| ").append(Markdown.code(e.path(), 200)).append(" | ").append(Markdown.text(e.error(), 400)).append(" |\n");
      }
      md.append('\n');
    }
    if (!s.notes().isEmpty()) {
      md.append("## Notes\n\n");
      s.notes().forEach(n -> md.append("- ").append(Markdown.text(n, 500)).append('\n'));
      md.append('\n');
    }
    return md.toString();
  }

  private static void appendCounts(StringBuilder md, Map<String, Long> counts) {
    if (counts.isEmpty()) {
      md.append("none");
      return;
    }
    boolean first = true;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      md.append(first ? "" : ", ").append(e.getValue()).append(' ').append(e.getKey());
      first = false;
    }
  }

  /** The header of the rows table. */
  public static String tableHeader() {
    return "| application | name | outcome | root cause | confidence | culprit stages | duration | wasted core-hours "
        + "| top recommendation | log |\n|---|---|---|---|---|---|---:|---:|---|---|\n";
  }

  /** One row of the rows table (an error row shows its error). */
  public static String tableRow(FleetRow r) {
    StringBuilder md = new StringBuilder("| ");
    if (r.isError()) {
      md.append(" | | ERROR | ").append(Markdown.text(r.error().orElse(""), 400)).append(" | | | | | | ");
    } else {
      md.append(Markdown.text(r.appId().orElse(""), 100)).append(" | ").append(Markdown.text(r.name().orElse(""), 100))
          .append(" | ").append(r.outcome().map(Enum::name).orElse("")).append(r.inProgress() ? " (running)" : "")
          .append(" | ").append(r.rootCause().map(c -> c.kind().name()).orElse("")).append(" | ")
          .append(r.rootCause().map(c -> c.confidence().name()).orElse("")).append(" | ")
          .append(r.rootCause().map(c -> c.culpritStages().toString().replace("[", "").replace("]", "")).orElse(""))
          .append(" | ").append(r.durationMs().map(Formats::humanMillis).orElse("")).append(" | ")
          .append(RowText.plain(r.wastedCoreHours())).append(" | ")
          .append(Markdown.text(r.topRecommendation().orElse(""), 300)).append(" | ");
    }
    md.append(Markdown.code(r.path(), 200)).append(" |\n");
    return md.toString();
  }
}
