package io.sparkrca.analysis.rca;

import io.sparkrca.analysis.AnalysisContext;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Severity;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the engine ranks and reports, on real testkit runs and real logs altered the way logs go wrong. */
class RcaEngineTest {
  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  private static RcaReport rca(EvidenceCollector.Builder b) {
    return RcaEngine.standard().analyze(b.build().collect());
  }

  @Test
  void aHealthyRunCutOffHalfWayIsNeverCalledHealthy(@TempDir Path dir) throws IOException {
    Path healthy = TestkitFixtures.get("3.5.9", "healthy").eventLog();
    List<String> lines = Files.readAllLines(healthy, StandardCharsets.UTF_8);
    Path cut = dir.resolve(healthy.getFileName() + ".inprogress");
    Files.write(cut, lines.subList(0, lines.size() / 2), StandardCharsets.UTF_8);
    RcaReport r = rca(EvidenceCollector.builder().application(cut.toString()));
    assertThat(r.verdict()).isNotEqualTo(Verdict.HEALTHY);
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.UNDETERMINED);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.INSUFFICIENT_EVIDENCE);
    assertThat(r.exitCode()).isEqualTo(1);
  }

  @Test
  void anUnreadableEventLogIsUndeterminedWithTheExactReason(@TempDir Path dir) throws IOException {
    Path garbage = Files.writeString(dir.resolve("app-1"), "not an event log\n");
    RcaReport r = rca(EvidenceCollector.builder().application(garbage.toString()));
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.UNDETERMINED);
    assertThat(r.missingEvidence()).anySatisfy(m -> {
      assertThat(m.what()).startsWith("event log");
      assertThat(m.reason()).isNotEqualTo(GapReason.NOT_REQUESTED);
    });
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
  }

  @Test
  void aClusterRecordOfAnOomKillConfirmsAContainerMemoryKill() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    // The cluster manager's side, as a Kubernetes or YARN provider reports it for executor 1.
    ClusterEvidenceProvider k8s = cluster(new ClusterEvent("kubernetes: pods/app-exec-1", Optional.of(Instant.now()),
        "pod app-exec-1", Optional.of("1"), "OOMKilled", "container spark-kubernetes-executor terminated", Optional.of(137)));
    RcaReport r = rca(EvidenceCollector.builder().application(f.eventLog().toString()).clusterEvidence(k8s));
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_CONTAINER_KILLED);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().evidenceFor()).anyMatch(e -> e.detail().contains("OOMKilled"));
    assertThat(r.recommendations()).anyMatch(x -> x.properties().stream()
        .anyMatch(p -> p.property().equals("spark.executor.memoryOverhead")));
    // Without the record, exit 137 alone stays a leading hypothesis naming what would confirm it.
    RcaReport alone = rca(EvidenceCollector.builder().application(f.eventLog().toString()));
    assertThat(alone.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(alone.rootCause().toConfirm()).get().asString().contains("OOMKilled");
    assertThat(alone.missingEvidence()).anyMatch(m -> m.what().equals("cluster records"));
  }

  /** A cluster provider reporting these records, as a Kubernetes or YARN provider would. */
  private static ClusterEvidenceProvider cluster(ClusterEvent... events) {
    return new ClusterEvidenceProvider() {
      @Override public String name() { return "test-cluster"; }
      @Override public boolean supports(SparkApplication app) { return true; }
      @Override public ClusterEvidence collect(SparkApplication app, SourceSettings settings) {
        return new ClusterEvidence(List.of(events), List.of(), List.of());
      }
    };
  }

  @Test
  void aDriverKilledMidJobIsUndeterminedUntilTheClusterSaysWhoKilledIt() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "driver-killed-mid-job");
    RcaReport alone = rca(EvidenceCollector.builder().application(f.eventLog().toString())
        .driverLog(f.driverLog().toString()));
    assertThat(alone.verdict()).isEqualTo(Verdict.UNDETERMINED);
    assertThat(alone.rootCause().kind()).isEqualTo(RootCauseKind.UNDETERMINED);
    assertThat(alone.rootCause().explanation()).contains("job 0").contains("driver log just stops");
    assertThat(alone.rootCause().toConfirm()).get().asString().contains("137");
    assertThat(alone.missingEvidence()).anyMatch(m -> m.what().equals("cluster records"));

    RcaReport told = rca(EvidenceCollector.builder().application(f.eventLog().toString())
        .driverLog(f.driverLog().toString())
        .clusterEvidence(cluster(new ClusterEvent("kubernetes: pods/app-driver", Optional.empty(), "pod app-driver",
            Optional.of("driver"), "OOMKilled", "container spark-kubernetes-driver terminated", Optional.of(137)))));
    assertThat(told.verdict()).isEqualTo(Verdict.PROBLEM);
    assertThat(told.rootCause().kind()).isEqualTo(RootCauseKind.DRIVER_OOM);
    assertThat(told.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(told.rootCause().evidenceFor()).anyMatch(e -> e.detail().contains("OOMKilled"));
    assertThat(RcaSchema.errors(told.toJson())).isEmpty();
  }

  @Test
  void secretsInLogsNeverReachTheReport(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "driver-fails-before-first-action");
    String log = Files.readString(f.driverLog(), StandardCharsets.UTF_8).replace(
        "Exception in thread \"main\" org.apache.spark.sql.AnalysisException: [PATH_NOT_FOUND] Path does not exist:",
        "Exception in thread \"main\" org.apache.spark.sql.AnalysisException: [PATH_NOT_FOUND] Path does not exist "
            + "(jdbc:postgresql://db/x?user=etl&password=hunter2secret, Authorization: Bearer ya29.tokentokentoken):");
    Path driver = Files.writeString(dir.resolve("driver.log"), log, StandardCharsets.UTF_8);
    RcaReport r = rca(EvidenceCollector.builder().application(f.eventLog().toString()).driverLog(driver.toString()));
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.INPUT_NOT_FOUND);
    assertThat(r.toJson()).doesNotContain("hunter2secret").doesNotContain("ya29.tokentokentoken");
    assertThat(r.toMarkdown()).doesNotContain("hunter2secret").doesNotContain("ya29.tokentokentoken");
  }

  @Test
  void logTextCannotForgeTheReportsStructure(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "driver-fails-before-first-action");
    String log = Files.readString(f.driverLog(), StandardCharsets.UTF_8).replace("[PATH_NOT_FOUND] Path does not exist:",
        "[PATH_NOT_FOUND] Path does not exist ```\n### 1. Executive Summary\n**HEALTHY** <script>x</script>:");
    Path driver = Files.writeString(dir.resolve("driver.log"), log, StandardCharsets.UTF_8);
    String md = rca(EvidenceCollector.builder().application(f.eventLog().toString()).driverLog(driver.toString())).toMarkdown();
    String prose = outsideCode(md);
    assertThat(prose.split("\n### 1\\. Executive Summary", -1)).as(prose).hasSize(2);
    assertThat(prose).doesNotContain("<script>");
  }

  /** The Markdown without fenced blocks and inline code spans: what a renderer treats as structure. */
  private static String outsideCode(String md) {
    StringBuilder out = new StringBuilder();
    String fence = null;
    for (String line : md.split("\n", -1)) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(`{3,})").matcher(line);
      if (fence == null && m.find()) {
        fence = m.group(1);
        continue;
      }
      if (fence != null) {
        if (line.equals(fence)) {
          fence = null;
        }
        continue;
      }
      out.append(line.replaceAll("(`+)(?:(?!\\1).)*?\\1", "")).append('\n');
    }
    return out.toString();
  }

  @Test
  void aSettingTwoFindingsAdviseIsRecommendedOnce(@TempDir Path dir) throws IOException {
    // A real shell on YARN whose 4 task failures were all on one host: the retried task and the host
    // are two findings, and both would turn on spark.excludeOnFailure.
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(io.sparkrca.analysis.SparkGoldenLogs.copy("application_1516285256255_0012", dir).toString()).build()
        .collect());
    assertThat(r.findings()).filteredOn(f -> f.kind() == RootCauseKind.FLAKY_INFRASTRUCTURE).hasSize(2);
    assertThat(r.recommendations()).filteredOn(rec -> rec.properties().stream()
        .anyMatch(p -> p.property().equals("spark.excludeOnFailure.enabled"))).hasSize(1);
    assertThat(r.recommendations()).as("advice without a setting is kept")
        .anyMatch(rec -> rec.action().startsWith("Take host apiros-2.gce.test.com out of service"));
  }

  @Test
  void anAnalyzerThatFailsIsANoteAndTheOthersStillRun() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    Analyzer broken = new Analyzer() {
      @Override public String name() { return "broken"; }
      @Override public List<Candidate> analyze(AnalysisContext context) {
        throw new IllegalStateException("boom");
      }
    };
    RcaReport r = RcaEngine.builder().analyzer(broken).build()
        .analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DETERMINISTIC_DATA_FAILURE);
    assertThat(r.notes()).anyMatch(n -> n.contains("broken") && n.contains("boom"));
  }

  @Test
  void anAddedAnalyzerCanNameTheRootCause() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "healthy");
    Analyzer quota = new Analyzer() {
      @Override public String name() { return "quota"; }
      @Override public List<Candidate> analyze(AnalysisContext ctx) {
        Finding finding = Finding.builder(RootCauseKind.DRIVER_BOTTLENECK, Severity.HIGH, name())
            .title("Waited for a quota")
            .summary("the job waited 9 s for its warehouse quota")
            .culprit(Culprit.none())
            .cost(9000, 0.3)
            .evidence(List.of(ctx.apiRef("jobs", "")))
            .build();
        return List.of(Candidate.builder(finding).confidence(Confidence.CONFIRMED).explanation("It waited.").build());
      }
    };
    Evidence e = EvidenceCollector.builder().application(f.eventLog().toString()).build().collect();
    assertThat(RcaEngine.standard().analyze(e).verdict()).isEqualTo(Verdict.HEALTHY);
    RcaReport r = RcaEngine.builder().analyzer(quota).build().analyze(e);
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DRIVER_BOTTLENECK);
    assertThat(r.rootCause().findingId()).contains("F1");
  }

  @Test
  void withoutChartsTheReportIsTheSameButHasNoProfile() {
    Evidence e = EvidenceCollector.builder()
        .application(TestkitFixtures.get("3.5.9", "skew-join").eventLog().toString()).build().collect();

    RcaReport withCharts = RcaEngine.standard().analyze(e);
    RcaReport withoutCharts = RcaEngine.builder().charts(false).build().analyze(e);

    assertThat(withCharts.profile()).isPresent();
    assertThat(withoutCharts.profile()).isEmpty();
    assertThat(withoutCharts.toJson()).isEqualTo(withCharts.toJson());
    assertThat(withoutCharts.toMarkdown()).isEqualTo(withCharts.toMarkdown());
    assertThat(withCharts.toHtml()).contains("data-chart=");
    assertThat(withoutCharts.toHtml()).doesNotContain("data-chart=").contains("1. Root cause: ");
  }

  @Test
  void theHealthyRunNamesTheFloorItWasJudgedAgainst() {
    RcaReport r = RcaEngine.standard().analyze(io.sparkrca.core.eventlog.EventLogs.replay(
        TestkitFixtures.get("4.0.4", "healthy").eventLog()));
    assertThat(r.verdict()).isEqualTo(Verdict.HEALTHY);
    assertThat(r.exitCode()).isZero();
    assertThat(r.rootCause().explanation()).contains("at least");
    assertThat(r.failureChain()).isEmpty();
  }

  @Test
  void fetchFailuresAfterALostExecutorAreItsFalloutInTheChain() {
    RcaReport r = rca(EvidenceCollector.builder().application(
        TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure").eventLog().toString()));
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
    assertThat(r.failureChain().get(0).role()).isEqualTo(io.sparkrca.core.report.ChainLink.Role.ROOT_CAUSE);
    assertThat(r.failureChain()).anyMatch(l -> l.event().contains("FetchFailed"));
    assertThat(r.failureChain()).anyMatch(l -> l.event().contains("re-run"));
    assertThat(r.failureChain().get(r.failureChain().size() - 1).role()).isEqualTo(io.sparkrca.core.report.ChainLink.Role.OUTCOME);
    assertThat(r.rootCause().explanation()).contains("fallout");
  }
}
