package io.sparkrca.core.summary;

import static io.sparkrca.core.report.Markdown.code;

import io.sparkrca.core.eventlog.replay.BadLine;
import io.sparkrca.core.eventlog.replay.ReplayReport;
import io.sparkrca.core.app.SqlFailure;
import io.sparkrca.core.app.StageFailure;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.report.Markdown;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.Map;

/**
 * Renders an {@link ApplicationSummary} as Markdown. Labels follow spark_gcs_log_reader.py's
 * summary so its users find their way; every piece of log text is redacted, escaped and capped.
 *
 * <pre>{@code
 * String md = SummaryMarkdown.render(ApplicationSummary.of(app, "app-1.zstd"));
 * }</pre>
 */
public final class SummaryMarkdown {
  /** The sections, in the order the report shows them. */
  private static final List<BiConsumer<StringBuilder, ApplicationSummary>> SECTIONS = List.of(
      SummaryMarkdown::overview,
      SummaryMarkdown::eventHistogram,
      SummaryMarkdown::failedStages,
      SummaryMarkdown::failedSql,
      SummaryMarkdown::failedTasks,
      SummaryMarkdown::lostExecutors,
      SummaryMarkdown::spills,
      SummaryMarkdown::reading);

  private static final int HISTOGRAM_TOP = 10;

  private SummaryMarkdown() {}

  public static String render(ApplicationSummary s) {
    StringBuilder out = new StringBuilder(4096);
    SECTIONS.forEach(section -> section.accept(out, s));
    return out.toString();
  }

  /** The application's identity, status, duration and counts of jobs, stages, tasks, GC and SQL. */
  private static void overview(StringBuilder out, ApplicationSummary s) {
    out.append("## Spark Event Log Executive Summary\n\n");
    line(out, "Source URI", code(s.source(), 500));
    line(out, "Application ID", code(s.applicationId()));
    line(out, "Application Name", orUnknown(s.applicationName(), "application start"));
    line(out, "User", orUnknown(s.user(), "application start"));
    line(out, "Spark Version", orUnknown(s.sparkVersion(), "version"));
    // The status may quote a failed query's error, so it is log text like any other.
    line(out, "Status", Markdown.text(s.status(), 600));
    if (s.exitCode().isPresent()) {
      int code = s.exitCode().get();
      line(out, "Driver Exit Code", code(Integer.toString(code))
          + (code == 0 && s.outcome() != ApplicationSummary.Outcome.COMPLETED
              ? " (as the application end event records it: a driver that stops its SparkContext"
                  + " before failing still reports 0)"
              : ""));
    }
    if (s.durationMs().isPresent()) {
      line(
          out,
          "Duration",
          code(Formats.fixed(s.durationMs().get() / 1000.0, 2) + "s") + " (Start: "
              + code(s.startTime().get().toString()) + ", End: " + code(s.endTime().get().toString()) + ")");
    } else if (s.startTime().isPresent()) {
      line(out, "Started", code(s.startTime().get().toString()) + " (no end: the application did not finish in this log)");
    }
    ApplicationSummary.Jobs j = s.jobs();
    line(out, "Jobs", code(Integer.toString(j.total())) + " total, " + code(Integer.toString(j.failed())) + " failed"
        + (j.running() > 0 ? ", " + code(Integer.toString(j.running())) + " still running" : ""));
    ApplicationSummary.Stages st = s.stages();
    line(out, "Stages", code(Integer.toString(st.attempts())) + " attempts of " + code(Integer.toString(st.stageIds()))
        + " stages: " + st.complete() + " complete, " + code(Integer.toString(st.failed())) + " failed, "
        + st.skipped() + " skipped" + (st.active() > 0 ? ", " + st.active() + " active" : ""));
    ApplicationSummary.Tasks t = s.tasks();
    line(out, "Tasks", code(Long.toString(t.ended())) + " ended: " + t.succeeded() + " succeeded, "
        + code(Long.toString(t.failed())) + " failed, " + t.killed() + " killed");
    // The share is of executor run time, as the stage rules measure it; task durations would add
    // scheduling and deserialization, in which no task code runs.
    line(out, "Total JVM GC Time", code(s.totalGcTimeMs() + " ms")
        + (s.executorRunTimeMs() > 0
            ? " (" + Formats.percent(s.totalGcTimeMs(), s.executorRunTimeMs()) + " of the executor run time, "
                + code(s.executorRunTimeMs() + " ms") + " summed over every stage attempt)"
            : ""));
    if (s.sql().total() > 0) {
      line(out, "SQL Executions", s.sql().total() + " total, " + s.sql().failed() + " failed"
          + (s.sql().running() > 0 ? ", " + s.sql().running() + " running" : ""));
    }
    if (s.reading().isPresent()) {
      line(out, "Total Event Lines Processed", code(Long.toString(s.reading().get().lines())));
    }
    out.append('\n');
  }

  /** The most frequent event types, when the log was read. */
  private static void eventHistogram(StringBuilder out, ApplicationSummary s) {
    Map<String, Long> counts = s.reading().map(ReplayReport::eventCounts).orElse(Map.of());
    if (!counts.isEmpty()) {
      out.append("### Event Type Histogram (top ").append(HISTOGRAM_TOP).append(")\n");
      List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
      entries.sort(Map.Entry.<String, Long>comparingByValue().reversed()); // stable: ties keep first-seen order
      for (Map.Entry<String, Long> e : entries.subList(0, Math.min(HISTOGRAM_TOP, entries.size()))) {
        out.append("- ").append(code(e.getKey())).append(": ").append(e.getValue()).append('\n');
      }
      out.append('\n');
    }
  }

  /** Each failed stage attempt with its reason. */
  private static void failedStages(StringBuilder out, ApplicationSummary s) {
    if (s.failedStages().isEmpty()) {
      out.append("### Failed Stages: None detected.\n\n");
    } else {
      out.append("### Failed Stages (").append(s.stages().failed()).append(")\n");
      for (StageFailure f : s.failedStages()) {
        out.append("- **Stage ").append(f.stageId()).append("** (attempt ").append(f.attemptId()).append(", ")
            .append(code(f.name(), 120)).append(") at line ").append(f.line()).append(":\n");
        out.append("  - Failure Reason: ").append(code(f.reason(), 600)).append('\n');
      }
      out.append('\n');
    }
  }

  /** Each failed SQL execution with its error. */
  private static void failedSql(StringBuilder out, ApplicationSummary s) {
    if (!s.sqlFailures().isEmpty()) {
      out.append("### Failed SQL Executions (").append(s.sql().failed()).append(")\n");
      for (SqlFailure q : s.sqlFailures()) {
        out.append("- **Execution ").append(q.executionId()).append("** (").append(code(q.description(), 120)).append(')');
        if (q.line() > 0) {
          out.append(" at line ").append(q.line());
        }
        out.append(":\n");
        out.append("  - Error: ").append(code(q.errorMessage(), 600)).append('\n');
      }
      if (s.sql().failed() > s.sqlFailures().size()) {
        out.append("- ... ").append(s.sql().failed() - s.sqlFailures().size()).append(" more not shown\n");
      }
      out.append('\n');
    }
  }

  /** The failed task attempts, grouped by cause, first occurrence first. */
  private static void failedTasks(StringBuilder out, ApplicationSummary s) {
    if (!s.taskFailures().isEmpty()) {
      long attempts = 0;
      for (TaskFailureGroup g : s.taskFailures()) {
        attempts += g.count();
      }
      out.append("### Failed Tasks (").append(attempts).append(" failed or killed attempts, ")
          .append(s.taskFailures().size()).append(" distinct causes, first occurrence first)\n");
      for (TaskFailureGroup g : s.taskFailures()) {
        out.append("- **").append(g.count()).append("x** ").append(code(g.description(), 400))
            .append(" (").append(g.reason()).append(") in stage").append(g.stageIds().size() > 1 ? "s " : " ")
            .append(join(g.stageIds())).append('\n');
        out.append("  - First: **Task ").append(g.taskId()).append("** (Stage ").append(g.stageId())
            .append(", Index ").append(g.partitionIndex()).append(", Attempt ").append(g.attempt())
            .append(", Executor ").append(Markdown.text(g.executorId(), 60)).append(", Host ")
            .append(Markdown.text(g.host(), 120)).append(") at line ").append(g.firstLine()).append('\n');
      }
      if (s.taskFailureGroupsOmitted() > 0) {
        out.append("- ... ").append(s.taskFailureGroupsOmitted()).append(" more distinct causes not shown\n");
      }
      out.append('\n');
    }
  }

  /** The executors lost or removed, with the fetch failures that followed. */
  private static void lostExecutors(StringBuilder out, ApplicationSummary s) {
    if (!s.lostExecutors().isEmpty()) {
      out.append("### Lost / Removed Executors (").append(s.lostExecutors().size()).append(")\n");
      for (ApplicationSummary.LostExecutor e : s.lostExecutors()) {
        out.append("- Executor ").append(code(e.executorId())).append(" at line ").append(e.line())
            .append(": Reason: ").append(code(e.reason(), 400));
        if (e.fetchFailuresAfter() > 0) {
          out.append(" (").append(e.fetchFailuresAfter()).append(" fetch failures followed)");
        }
        out.append('\n');
      }
      out.append('\n');
    }
  }

  /** The stages that spilled memory to disk. */
  private static void spills(StringBuilder out, ApplicationSummary s) {
    if (!s.spills().isEmpty()) {
      out.append("### Memory/Disk Spill Events (").append(s.spills().size()).append(")\n");
      for (ApplicationSummary.Spill sp : s.spills()) {
        out.append("- Stage ").append(sp.stageId()).append(sp.attemptId() > 0 ? " (attempt " + sp.attemptId() + ")" : "")
            .append(": Mem Spilled = ").append(sp.memoryBytes()).append(" bytes (").append(Formats.humanBytes(sp.memoryBytes()))
            .append("), Disk Spilled = ").append(sp.diskBytes()).append(" bytes (").append(Formats.humanBytes(sp.diskBytes())).append(")");
        sp.line().ifPresent(l -> out.append(" (line ").append(l).append(")"));
        out.append('\n');
      }
      out.append('\n');
    }
  }

  /** What was read and what could not be: codecs, skipped lines, a cut-off end, notes. */
  private static void reading(StringBuilder out, ApplicationSummary s) {
    out.append("### Reading\n");
    if (s.reading().isEmpty()) {
      out.append("- ").append(Markdown.text(s.completeness().isComplete()
          ? "The source reported complete data" : "Partial data: " + s.completeness().describe(), 400)).append('\n');
      for (String note : s.completeness().notes()) {
        out.append("- Note: ").append(Markdown.text(note, 400)).append('\n');
      }
      return;
    }
    ReplayReport r = s.reading().get();
    for (ReplayReport.SourceFile f : r.sources()) {
      out.append("- Read ").append(code(f.name(), 300)).append(" (").append(f.codec().equals("none") ? "uncompressed" : f.codec())
          .append(f.bytes() >= 0 ? ", " + Formats.humanBytes(f.bytes()) : "").append(f.inProgress() ? ", in progress" : "").append(")\n");
    }
    if (r.badLineCount() > 0) {
      out.append("- Skipped ").append(r.badLineCount()).append(" lines that are not valid events");
      BadLine first = r.badLines().get(0);
      out.append("; first at line ").append(first.lineNumber()).append(": ").append(code(first.reason(), 200)).append('\n');
    }
    if (r.overlongLines() > 0) {
      out.append("- Skipped ").append(r.overlongLines()).append(" over-long lines\n");
    }
    if (r.truncated()) {
      out.append("- The log ends early (cut off, or still being written); what follows the cut is unknown\n");
    }
    for (String note : r.notes()) {
      out.append("- Note: ").append(Markdown.text(note, 400)).append('\n');
    }
    if (r.badLineCount() == 0 && !r.truncated() && r.notes().isEmpty() && r.overlongLines() == 0) {
      out.append("- Every line was a valid event\n");
    }
  }

  private static void line(StringBuilder out, String label, String value) {
    out.append("- **").append(label).append("**: ").append(value).append('\n');
  }

  private static String join(List<Integer> ids) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < ids.size(); i++) {
      if (i == 10) {
        sb.append(", ... (").append(ids.size()).append(" stages)");
        break;
      }
      sb.append(i == 0 ? "" : ", ").append(ids.get(i));
    }
    return sb.toString();
  }

  /** The value in code style, or "unknown" and the event that would have told (never blank). */
  private static String orUnknown(String value, String event) {
    return value.isBlank() ? "unknown (the log has no " + event + " event)" : code(value);
  }
}
