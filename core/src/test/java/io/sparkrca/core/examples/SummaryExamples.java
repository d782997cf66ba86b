package io.sparkrca.core.examples;

import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.summary.SummaryRunner;
import io.sparkrca.core.summary.SummaryRequest;
import io.sparkrca.core.summary.Summaries;
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

  /** The example of {@code Summaries}. */
  void summaries() throws Exception {
    Summaries s = SummaryRunner.standard().run(SummaryRequest.of("/var/spark-events"));
    s.skipped().forEach(k -> System.err.println("skipped " + k.source() + ": " + k.failure().getMessage()));
    System.out.print(s.toMarkdown());
  }

  /** The example of {@code SummaryRequest}. */
  void summaryRequest() throws Exception {
    Summaries s = SummaryRunner.standard().run(SummaryRequest.of("/var/spark-events").withMaxApps(50));
    System.out.println(s.summaries().size() + " of " + s.logsFound() + " logs summarized");
  }

  /** The example of {@code SummaryRunner}. */
  void summaryRunner() throws Exception {
    Summaries s = SummaryRunner.builder().settings(SourceSettings.defaults()).build()
        .run(SummaryRequest.of("gs://bucket/spark-events/"));
  }
}
