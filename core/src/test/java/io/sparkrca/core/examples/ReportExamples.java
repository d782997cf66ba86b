package io.sparkrca.core.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.Markdown;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.core.report.Verdict;
import java.util.List;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.core.report}, compiled (see {@link JavadocExamplesTest}). */
class ReportExamples {
  /** The example of {@code Alternative}. */
  void alternative(RcaReport report) throws Exception {
    report.rootCause().alternatives().forEach(a -> System.out.println(a.kind() + ": " + a.whyRejected()));
  }

  /** The example of {@code ApplicationRef}. */
  void applicationRef(RcaReport report) throws Exception {
    ApplicationRef a = report.application();
    System.out.println(a.id() + " " + a.name() + " " + a.outcome());
  }

  /** The example of {@code ChainLink}. */
  void chainLink(RcaReport report) throws Exception {
    report.failureChain().forEach(l -> System.out.println(l.step() + ". [" + l.role() + "] " + l.event()));
  }

  /** The example of {@code Confidence}. */
  void confidence(RcaReport report) throws Exception {
    if (report.rootCause().confidence() == Confidence.LEADING_HYPOTHESIS) {
      System.out.println("to confirm: " + report.rootCause().toConfirm().orElse(""));
    }
  }

  /** The example of {@code Culprit}. */
  void culprit(RcaReport report) throws Exception {
    Culprit c = report.rootCause().culprit();
    System.out.println("stages " + c.stageIds() + ", partition " + c.partitionIndex().orElse(-1));
  }

  /** The example of {@code EvidenceRef}. */
  void evidenceRef(Finding finding) throws Exception {
    finding.evidence().forEach(r -> System.out.println(r.display()));
  }

  /** The example of {@code Finding}. */
  void finding(RcaReport report) throws Exception {
    for (Finding f : report.findings()) {
      System.out.println(f.severity() + " " + f.kind() + ": " + f.summary() + " (" + f.culprit().describe() + ")");
    }
  }

  /** The example of {@code Finding.builder}. */
  void findingBuilder() throws Exception {
    Finding f = Finding.builder(RootCauseKind.DATA_SKEW, Severity.HIGH, "DataSkewAnalyzer")
        .id("F1")
        .title("Data skew in stage 4")
        .summary("The longest task ran 12x the median.")
        .culprit(Culprit.stages(List.of(4)))
        .cost(42_000, 0.35)
        .build();
  }

  /** The example of {@code Markdown}. */
  void markdown(StringBuilder out, StageData stage) throws Exception {
    out.append("- Reason: ").append(Markdown.code(stage.failureReason().orElse(""), 300));
  }

  /** The example of {@code Metric}. */
  void metric() throws Exception {
    Metric metric = new Metric("maxToMedianTaskDuration", 29.6, "ratio");
  }

  /** The example of {@code MissingEvidence}. */
  void missingEvidence(RcaReport report) throws Exception {
    report.missingEvidence().forEach(m -> System.out.println(m.what() + ": " + m.howToGet()));
  }

  /** The example of {@code PropertyChange}. */
  void propertyChange(Recommendation rec) throws Exception {
    rec.properties().forEach(p -> System.out.println("--conf " + p.property() + "=" + p.recommended()));
  }

  /** The example of {@code Recommendation}. */
  void recommendation(RcaReport report) throws Exception {
    report.recommendations().stream().filter(r -> r.priority() == Recommendation.Priority.IMMEDIATE_FIX)
        .forEach(r -> System.out.println(r.action()));
  }

  /** The example of {@code RootCause}. */
  void rootCause(RcaReport report) throws Exception {
    RootCause rc = report.rootCause();
    System.out.println(rc.kind() + " (" + rc.confidence() + "): " + rc.explanation());
    rc.toConfirm().ifPresent(c -> System.out.println("to confirm: " + c));
  }

  /** The example of {@code RootCause.builder}. */
  void rootCauseBuilder() throws Exception {
    RootCause cause = RootCause.builder(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Confidence.CONFIRMED)
        .title("Bad record in partition 2")
        .explanation("Every attempt of partition 2 threw the same exception.")
        .culprit(Culprit.stages(List.of(0)).withPartition(2))
        .findingId(Optional.of("F1"))
        .build();
  }

  /** The example of {@code RcaReport.builder}. */
  void rcaReportBuilder(ApplicationRef application, RootCause cause, Finding finding) throws Exception {
    RcaReport built = RcaReport.builder(application, Verdict.PROBLEM, cause).findings(List.of(finding)).build();
  }

  /** The example of {@code RootCauseKind}. */
  void rootCauseKind(JsonNode label, RcaReport report) throws Exception {
    RootCauseKind expected = RootCauseKind.valueOf(label.get("rootCause").asText());
    assertThat(report.rootCause().kind()).isEqualTo(expected);
  }

  /** The example of {@code Severity}. */
  void severity(Finding finding) throws Exception {
    boolean serious = finding.severity().isAtLeast(Severity.HIGH);
  }

  /** The example of {@code TimelineEvent}. */
  void timelineEvent(RcaReport report) throws Exception {
    report.timeline().forEach(t -> System.out.println(t.time() + (t.approximate() ? " (~)" : "") + " " + t.event()));
  }

  /** The example of {@code Verdict}. */
  void verdict(RcaReport report) throws Exception {
    System.exit(report.verdict().exitCode());
  }
}
