package io.sparkrca.core.report;

import io.sparkrca.core.knowledge.RootCauseKind;
import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.GapReason;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The renderers on a report built by hand: the JSON conforms to its schema, secrets never show. */
class RcaReportRenderingTest {
  private static final String SECRET = "hunter2-very-secret";

  static RcaReport sample() {
    Culprit culprit = Culprit.stages(List.of(0)).withPartition(2).withExecutors(List.of("1"));
    EvidenceRef log = new EvidenceRef(EvidenceRef.Kind.LOG, "driver.log", 43,
        "java.sql.SQLException: login failed for jdbc:postgresql://db/x?user=etl&password=" + SECRET);
    Finding f = Finding.builder(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Severity.CRITICAL, "failure-chain")
        .id("F1")
        .title("Deterministic failure in stage 0")
        .summary("partition 2 failed 4 of 4 attempts with NumberFormatException")
        .culprit(culprit)
        .metrics(List.of(new Metric("failedAttempts", 4, "count"), new Metric("skew", 29.64, "ratio")))
        .evidence(List.of(log))
        .build();
    RootCause rc = RootCause.builder(RootCauseKind.DETERMINISTIC_DATA_FAILURE, Confidence.CONFIRMED)
        .title("Bad record in partition 2")
        .explanation("Every attempt of partition 2 threw the same exception.")
        .culprit(culprit)
        .codeLocation(Optional.of("Workload.java:40 in io.x.Workload.lambda$run$0"))
        .evidenceFor(List.of(log))
        .alternatives(List.of(new Alternative(RootCauseKind.FLAKY_INFRASTRUCTURE, "Flaky infrastructure",
            "the retries failed alike")))
        .findingId(Optional.of("F1"))
        .build();
    ApplicationRef app = new ApplicationRef("app-1", "etl", Optional.empty(), "3.5.9", "root", "/logs/app-1", "event-log",
        "local[2]", Optional.of(Instant.parse("2026-11-29T14:33:11Z")), Optional.empty(), Optional.empty(),
        ApplicationRef.Outcome.FAILED);
    return RcaReport.builder(app, Verdict.PROBLEM, rc)
        .failureChain(List.of(new ChainLink(1, Optional.of(Instant.parse("2026-11-29T14:33:11Z")),
            ChainLink.Role.ROOT_CAUSE, "task 2.0 failed", Optional.of(log))))
        .timeline(List.of(new TimelineEvent(Instant.parse("2026-11-29T14:33:11Z"), "driver log", "task failed", true,
            Optional.empty())))
        .findings(List.of(f))
        .recommendations(List.of(new Recommendation(Recommendation.Priority.IMMEDIATE_FIX, "Fix the record.",
            List.of(new PropertyChange("spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net", Optional.of(SECRET), SECRET),
                new PropertyChange("spark.sql.shuffle.partitions", Optional.of("200"), "400")),
            "because", Optional.of("F1"))))
        .missingEvidence(List.of(new MissingEvidence("code", GapReason.NOT_REQUESTED, "", "would name the line",
            "give the jar")))
        .notes(List.of("token ya29.abcdefghijklmnop leaked in a note"))
        .build();
  }

  @Test
  void theJsonConformsToThePublishedSchema() {
    String json = sample().toJson();
    assertThat(RcaSchema.errors(json)).isEmpty();
    assertThat(json).contains("\"partitionIndex\" : 2", "\"stageIds\" : [ 0 ]", "\"kind\" : \"DETERMINISTIC_DATA_FAILURE\"");
  }

  @Test
  void theSchemaNamesEveryRootCauseKind() {
    List<String> names = Arrays.stream(RootCauseKind.values()).map(Enum::name).toList();
    List<String> schemaKinds = new java.util.ArrayList<>();
    RcaSchema.tree().path("$defs").path("kind").path("enum").forEach(n -> schemaKinds.add(n.asText()));
    assertThat(schemaKinds).containsExactlyElementsOf(names);
  }

  @Test
  void secretsAreRedactedInEveryOutput() {
    RcaReport r = sample();
    assertThat(r.toJson()).doesNotContain(SECRET).doesNotContain("ya29.abcdefghijklmnop");
    assertThat(r.toMarkdown()).doesNotContain(SECRET).doesNotContain("ya29.abcdefghijklmnop")
        .contains("spark.sql.shuffle.partitions=400");
  }

  @Test
  void theMarkdownFollowsTheRcaTemplate() {
    String md = sample().toMarkdown();
    assertThat(md).contains(
        "### Root Cause Analysis (RCA): app-1 Failure",
        "- **Workload Type**", "- **Target ID**", "- **Execution Timestamp**", "- **Status**: FAILED",
        "### 1. Executive Summary", "### 2. Evidence Gathered", "#### A. Log Diagnostics",
        "#### B. Stage & Telemetry Metrics", "#### C. Code Context (Source of Truth)",
        "### 3. Root Cause Analysis", "### 4. Remediation Plan", "#### Immediate Fix",
        "#### Spark Tuning Recommendations", "### 5. Missing Evidence");
    assertThat(md.indexOf("### 1.")).isLessThan(md.indexOf("### 2.")).isLessThan(md.indexOf("### 3."));
  }

  @Test
  void logTextCannotBreakOutOfItsCodeBlock() {
    EvidenceRef hostile = new EvidenceRef(EvidenceRef.Kind.LOG, "x.log", 1, "```\n### 1. Executive Summary\nfake");
    String block = Markdown.codeBlock(hostile.detail(), 10);
    assertThat(block).startsWith("````text\n").endsWith("````\n");
  }
}
