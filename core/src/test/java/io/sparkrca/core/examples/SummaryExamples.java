package io.sparkrca.core.examples;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.summary.SummaryHtml;
import io.sparkrca.core.summary.SummaryMarkdown;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Javadoc examples of {@code io.sparkrca.core.summary}, compiled (see {@link JavadocExamplesTest}). */
class SummaryExamples {
  /** The example of {@code ApplicationSummary}. */
  void applicationSummary(Path path) throws Exception {
    ApplicationSummary s = ApplicationSummary.of(EventLogs.replay(path), path.toString());
    System.out.println(SummaryMarkdown.render(s));
    if (s.outcome() == ApplicationSummary.Outcome.FAILED) {
      System.exit(1);
    }
  }

  /** The example of {@code SummaryHtml}. */
  void summaryHtml(SparkApplication app, String uri) throws Exception {
    Files.writeString(Path.of("summary.html"), SummaryHtml.render(ApplicationSummary.of(app, uri)));
  }

  /** The example of {@code SummaryMarkdown}. */
  void summaryMarkdown(SparkApplication app) throws Exception {
    String md = SummaryMarkdown.render(ApplicationSummary.of(app, "app-1.zstd"));
  }
}
