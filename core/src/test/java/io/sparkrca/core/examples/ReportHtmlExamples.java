package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.html.Charts;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.HtmlSection;
import io.sparkrca.core.report.html.ProfileCharts;
import io.sparkrca.core.report.html.RunProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The Javadoc examples of {@code io.sparkrca.core.report.html}, compiled (see {@link JavadocExamplesTest}). */
class ReportHtmlExamples {
  /** The example of {@code Charts}. */
  void charts(HtmlPage page) throws Exception {
    String svg = Charts.bars("Executor GC share", "executor-gc", List.of(new Charts.Bar("exec 1", 0.12)), "share");
    page.raw(svg);
  }

  /** The example of {@code HtmlPage}. */
  void htmlPage(RcaReport report, RunProfile.Histogram durations) throws Exception {
    HtmlPage page = HtmlPage.titled("Root Cause Analysis");
    page.heading(2, "Root cause").paragraph(report.rootCause().explanation());
    page.raw(Charts.histogram("Task duration", "task-duration", durations, 1200, 9800, "9.8 s"));
    Files.writeString(Path.of("rca.html"), page.render());
  }

  /** The example of {@code HtmlSection}. */
  void htmlSection(HtmlSection comparison) throws Exception {
    HtmlPage page = HtmlPage.titled("Root Cause Analysis");
    comparison.appendHtml(page);
  }

  /** The example of {@code ProfileCharts}. */
  void profileCharts(HtmlPage page, SparkApplication app) throws Exception {
    ProfileCharts.append(page, RunProfile.of(app, List.of(3)), List.of());
  }

  /** The example of {@code RunProfile}. */
  void runProfile(Path path) throws Exception {
    RunProfile p = RunProfile.of(EventLogs.replay(path), List.of(3));   // stage 3's tasks in detail
    p.distributions().forEach(d -> System.out.println(d.label() + " median " + d.medianMs() + " ms"));
  }
}
