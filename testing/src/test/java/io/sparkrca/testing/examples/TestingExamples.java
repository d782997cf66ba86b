package io.sparkrca.testing.examples;

import static io.sparkrca.testing.SparkAssertions.assertThat;

import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.rules.RuleCatalog;
import java.nio.file.Path;

/** The Javadoc examples of {@code io.sparkrca.testing}, compiled (see {@link JavadocExamplesTest}). */
class TestingExamples {
  /** The example of {@code ComparisonAssert}. */
  void comparisonAssert(SparkApplication todaysRun, SparkApplication lastGoodRun) throws Exception {
    assertThat(todaysRun).comparedTo(lastGoodRun).isNotSlowerThan(1.5);
  }

  /** The example of {@code RcaReportAssert}. */
  void rcaReportAssert(Evidence evidence, SparkApplication healthyApp) throws Exception {
    RcaReport report = RcaEngine.standard().analyze(evidence);
    assertThat(report).hasRootCause(RootCauseKind.DATA_SKEW);
    assertThat(RcaEngine.standard().analyze(healthyApp)).isHealthy();
  }

  /** The example of {@code SparkApplicationAssert}. */
  void sparkApplicationAssert(SparkApplication app) throws Exception {
    assertThat(EventLogs.replay(Path.of("/tmp/spark-events/local-1")))
        .hasNoFailedJobs()
        .hasNoTaskFailures()
        .isHealthy();
    assertThat(app).stages().hasSkewBelow(5.0);
  }

  /** The example of {@code SparkAssertions}. */
  void sparkAssertions(SparkApplication baseline) throws Exception {
    SparkApplication app = EventLogs.replay(Path.of("/tmp/spark-events/local-1712345678901"));
    assertThat(app).hasNoFailedStages().hasNoTaskFailures();
    assertThat(app).stage(3).hasSkewBelow(5.0).hasSpillBelow(256L << 20);
    assertThat(app).stages().hasGcShareBelow(0.10);
    assertThat(app).passesRules(RuleCatalog.recommended()).isHealthy();
    assertThat(app).comparedTo(baseline).isNotSlowerThan(1.5);
  }

  /** The example of {@code StageDataAssert}. */
  void stageDataAssert(SparkApplication app) throws Exception {
    assertThat(app).stage(4)
        .hasSkewBelow(5.0)
        .hasSpillBelow(64L << 20)
        .hasGcShareBelow(0.10)
        .hasAtMostTasks(200);
  }

  /** The example of {@code StagesAssert}. */
  void stagesAssert(SparkApplication app) throws Exception {
    assertThat(app).stages().hasSkewBelow(5.0).hasGcShareBelow(0.2);
  }
}
