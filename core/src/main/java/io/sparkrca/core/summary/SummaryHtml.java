package io.sparkrca.core.summary;

import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.eventlog.replay.ReplayReport;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.ProfileCharts;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders an {@link ApplicationSummary} as one self-contained HTML page: the facts of the
 * Markdown summary, its failures as tables, and the charts of its {@link
 * ApplicationSummary#profile()} (timeline, the longest stage's task durations, executors' GC
 * share and spill). Text is redacted and escaped.
 *
 * <pre>{@code
 * Files.writeString(Path.of("summary.html"), SummaryHtml.render(ApplicationSummary.of(app, uri)));
 * }</pre>
 */
public final class SummaryHtml {
  private SummaryHtml() {}

  public static String render(ApplicationSummary s) {
    HtmlPage page = HtmlPage.titled("Spark Event Log Executive Summary: " + s.applicationId());
    String cls = s.outcome() == ApplicationSummary.Outcome.FAILED ? "problem"
        : s.outcome() == ApplicationSummary.Outcome.COMPLETED ? "healthy" : "undetermined";
    page.raw("<p><span class=\"verdict " + cls + "\" data-outcome=\"" + s.outcome().name() + "\">"
        + HtmlPage.text(s.status()) + "</span></p>");
    List<String[]> facts = new ArrayList<>();
    facts.add(new String[] {"Source", s.source()});
    facts.add(new String[] {"Application", s.applicationId() + (s.applicationName().isEmpty() ? "" : " ("
        + s.applicationName() + ")")});
    facts.add(new String[] {"User", s.user()});
    facts.add(new String[] {"Spark version", s.sparkVersion()});
    s.exitCode().ifPresent(c -> facts.add(new String[] {"Driver exit code", Integer.toString(c)}));
    facts.add(new String[] {"Duration", s.durationMs().map(d -> Formats.humanMillis(d) + " (" + s.startTime().get()
        + " to " + s.endTime().get() + ")").orElse(s.startTime().map(t -> "started " + t + ", no end in this log")
            .orElse("unknown"))});
    facts.add(new String[] {"Jobs", s.jobs().total() + " total, " + s.jobs().failed() + " failed"});
    facts.add(new String[] {"Stages", s.stages().attempts() + " attempts of " + s.stages().stageIds() + " stages: "
        + s.stages().complete() + " complete, " + s.stages().failed() + " failed, " + s.stages().skipped() + " skipped"});
    facts.add(new String[] {"Tasks", s.tasks().ended() + " ended: " + s.tasks().succeeded() + " succeeded, "
        + s.tasks().failed() + " failed, " + s.tasks().killed() + " killed"});
    facts.add(new String[] {"JVM GC time", Formats.humanMillis(s.totalGcTimeMs()) + (s.executorRunTimeMs() > 0
        ? " (" + Formats.percent(s.totalGcTimeMs(), s.executorRunTimeMs()) + " of the executor run time)" : "")});
    if (s.sql().total() > 0) {
      facts.add(new String[] {"SQL executions", s.sql().total() + " total, " + s.sql().failed() + " failed"});
    }
    page.facts(facts);

    s.profile().ifPresent(p -> {
      page.heading(2, "Charts");
      ProfileCharts.append(page, p, List.of());
    });

    page.heading(2, "Failed stages");
    if (s.failedStages().isEmpty()) {
      page.paragraph("None detected.");
    } else {
      List<List<String>> rows = new ArrayList<>();
      for (StageFailure f : s.failedStages()) {
        rows.add(List.of(f.stageId() + "." + f.attemptId(), f.name(), f.reason(), Long.toString(f.line())));
      }
      page.table("", List.of("stage", "name", "failure reason", "line"), rows, 3);
    }
    if (!s.sqlFailures().isEmpty()) {
      page.heading(2, "Failed SQL executions");
      List<List<String>> rows = new ArrayList<>();
      for (SqlFailure q : s.sqlFailures()) {
        rows.add(List.of(Long.toString(q.executionId()), q.description(), q.errorMessage()));
      }
      page.table("", List.of("execution", "description", "error"), rows);
    }
    if (!s.taskFailures().isEmpty()) {
      page.heading(2, "Failed tasks, folded by cause (first occurrence first)");
      List<List<String>> rows = new ArrayList<>();
      for (TaskFailureGroup g : s.taskFailures()) {
        rows.add(List.of(Long.toString(g.count()), g.description(), g.reason(), "task " + g.taskId() + " (stage "
            + g.stageId() + ", index " + g.partitionIndex() + ", executor " + g.executorId() + ") at line "
            + g.firstLine()));
      }
      page.table(s.taskFailureGroupsOmitted() > 0 ? s.taskFailureGroupsOmitted() + " more causes not shown" : "",
          List.of("attempts", "cause", "reason", "first"), rows, 0);
    }
    if (!s.lostExecutors().isEmpty()) {
      page.heading(2, "Lost or removed executors");
      page.table("", List.of("executor", "reason", "fetch failures after", "line"), s.lostExecutors().stream()
          .map(e -> List.of(e.executorId(), e.reason(), Long.toString(e.fetchFailuresAfter()), Long.toString(e.line())))
          .toList(), 2, 3);
    }
    if (!s.spills().isEmpty()) {
      page.heading(2, "Spill");
      page.table("", List.of("stage", "name", "memory spilled", "disk spilled"), s.spills().stream()
          .map(x -> List.of(x.stageId() + "." + x.attemptId(), x.name(), Formats.humanBytes(x.memoryBytes()),
              Formats.humanBytes(x.diskBytes()))).toList(), 2, 3);
    }
    page.heading(2, "Reading");
    List<String> reading = new ArrayList<>();
    if (s.reading().isEmpty()) {
      reading.add(s.completeness().isComplete() ? "The source reported complete data"
          : "Partial data: " + s.completeness().describe());
      reading.addAll(s.completeness().notes());
    } else {
      ReplayReport r = s.reading().get();
      for (ReplayReport.SourceFile f : r.sources()) {
        reading.add("Read " + f.name() + " (" + (f.codec().equals("none") ? "uncompressed" : f.codec())
            + (f.bytes() >= 0 ? ", " + Formats.humanBytes(f.bytes()) : "") + (f.inProgress() ? ", in progress" : "") + ")");
      }
      reading.add(r.lines() + " event lines" + (r.badLineCount() > 0 ? ", " + r.badLineCount()
          + " that are not valid events skipped" : ", every one a valid event"));
      if (r.truncated()) {
        reading.add("The log ends early (cut off, or still being written); what follows the cut is unknown");
      }
      reading.addAll(r.notes());
    }
    page.list(reading);
    return page.render();
  }
}
