package io.sparkrca.analysis.examples;

import java.time.Duration;
import java.nio.file.Path;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.analysis.rca.RcaRequest;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.Analyzer;
import io.sparkrca.analysis.rca.Candidate;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.analysis.rca.SortMergeJoin;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.LogExcerpt;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.KnowledgeBase;
import java.util.List;

/** The Javadoc examples of {@code io.sparkrca.analysis.rca}, compiled (see {@link JavadocExamplesTest}). */
class RcaExamples {
  /** The example of {@code Analyzer}. */
  public final class QuotaAnalyzer implements Analyzer {
    public String name() { return "warehouse-quota"; }
    public List<Candidate> analyze(AnalysisContext ctx) {
      return ctx.evidence().excerpts("QUOTA").stream()
          .map(e -> Candidate.builder(quotaFinding(e)).explainsFailure(true).build()).toList();
    }
  }

  /** The analyzer's own code in the example of {@code Analyzer}: the finding for one excerpt. */
  private static Finding quotaFinding(LogExcerpt excerpt) {
    throw new UnsupportedOperationException(excerpt.text());
  }

  /** The example of {@code Candidate}. */
  void candidate(Finding finding, long firstFailureMillis, Recommendation fix) throws Exception {
    Candidate c = Candidate.builder(finding)
        .confidence(Confidence.CONFIRMED)
        .explanation("Partition 2 failed on all 4 attempts with the same NumberFormatException.")
        .time(firstFailureMillis)
        .explainsFailure(true)
        .recommend(fix)
        .build();
  }

  /** The example of {@code RcaEngine}. */
  void rcaEngine() throws Exception {
    Evidence evidence = EvidenceCollector.builder().application("/tmp/spark-events/app-1").build().collect();
    RcaReport report = RcaEngine.standard().analyze(evidence);
    System.out.println(report.toMarkdown());
  }

  /** The example of {@code SortMergeJoin}. */
  void sortMergeJoin(SparkApplication app) throws Exception {
    for (ExecutionData x : app.sqlExecutions()) {
      for (SortMergeJoin j : SortMergeJoin.of(x)) {
        System.out.println(j.operator() + ": smaller side " + j.smallerSideBytes() + " bytes");
      }
    }
  }

  /** The example of {@code io.sparkrca.analysis.rca}. */
  void overview() throws Exception {
    Evidence evidence = EvidenceCollector.builder()
        .application("/tmp/spark-events/app-1")
        .driverLog("/tmp/driver.log")
        .build()
        .collect();
    RcaReport report = RcaEngine.standard().analyze(evidence);
    System.out.println(report.rootCause().kind() + ": " + report.rootCause().explanation());
  }

  /** The example of {@code RcaRequest}. */
  void rcaRequest() throws Exception {
    RcaRequest request = RcaRequest.builder()
        .application("/tmp/spark-events/app-1")
        .driverLog("/tmp/driver.log")
        .timeout(Duration.ofMinutes(5))
        .build();
    RcaReport report = RcaRunner.standard().run(request);
  }

  /** The example of {@code RcaRunner}. */
  void rcaRunner() throws Exception {
    RcaRunner runner = RcaRunner.builder().settings(SourceSettings.defaults()).build();
    RcaReport report = runner.run(RcaRequest.builder().application("gs://bucket/events/app-1").build());
    RcaReport another = runner.run(EventLogs.replay(Path.of("/logs/app-2")), "/logs/app-2");
  }

  /** The example of {@code RcaEngine.Builder.knowledgeBase}. */
  void engineWithKnowledgeBase() {
    RcaEngine engine = RcaEngine.builder()
        .knowledgeBase(KnowledgeBase.builder().add(Path.of("our-failures.json")).standard().build())
        .build();
  }
}
