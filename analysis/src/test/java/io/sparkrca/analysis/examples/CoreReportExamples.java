package io.sparkrca.analysis.examples;

import io.sparkrca.core.evidence.EvidenceUnavailableException;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.analysis.rca.RcaRequest;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Report;
import io.sparkrca.core.report.html.ChartSource;
import io.sparkrca.core.report.html.RunProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The Javadoc examples of core's report types that start from {@code RcaEngine}, compiled here
 * because core cannot see analysis; core's {@code JavadocExamplesTest} reads this file.
 */
class CoreReportExamples {
  /** The example of {@code RcaReport}. */
  void rcaReport(Evidence evidence) throws Exception {
    RcaReport report = RcaEngine.standard().analyze(evidence);
    System.out.println(report.rootCause().kind() + " " + report.rootCause().confidence());
    Files.writeString(Path.of("rca.json"), report.toJson());
    System.exit(report.exitCode());
  }

  /** The example of {@code Report}. */
  void report(Evidence evidence) throws Exception {
    Report r = RcaEngine.standard().analyze(evidence);
    Files.writeString(Path.of("rca.md"), r.toMarkdown());
  }

  /** The example of {@code io.sparkrca.core.report}. */
  void reportPackage(Evidence evidence) throws Exception {
    RcaReport report = RcaEngine.standard().analyze(evidence);
    System.out.println(report.toMarkdown());
  }

  /** The example of {@code io.sparkrca.core.report.html}. */
  void reportHtmlPackage(Evidence evidence) throws Exception {
    String html = RcaEngine.standard().analyze(evidence).toHtml();
    Files.writeString(Path.of("rca.html"), html);
  }

  /** The example of {@code ChartSource}. */
  void chartSource(Evidence evidence, SparkApplication app) throws Exception {
    RcaReport report = RcaEngine.standard().analyze(evidence);  // charts from the application
    String page = report.toHtml();                               // profiled here
    Optional<RunProfile> p = ChartSource.of(app).profile(List.of(3));
  }

  /** The example of {@code EvidenceUnavailableException}. */
  void evidenceUnavailableException(RcaRequest request) throws Exception {
    try {
      RcaReport report = RcaRunner.standard().run(request);
    } catch (EvidenceUnavailableException e) {
      System.err.println(e.gap().kind() + " unavailable: " + e.getMessage());
    }
  }
}
