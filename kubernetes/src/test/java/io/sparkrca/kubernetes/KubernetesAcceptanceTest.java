package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.report.ChainLink;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import io.sparkrca.analysis.rca.RcaEngine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The acceptance, on the real testkit runs of both Spark versions: with the cluster's
 * records (fabric8's mock API server holding the pods, nodes, events and logs those runs would
 * have left on Kubernetes), a lost executor's container kill is CONFIRMED with its pod, node and
 * times and placed before the loss the event log records; without them the same run stays a
 * leading hypothesis that names the pod status as the missing evidence.
 */
class KubernetesAcceptanceTest {
  @TempDir Path dir;
  private ApiServer api;
  private KubernetesSettings settings;

  @BeforeEach
  void start() {
    api = ApiServer.start();
    settings = api.settings(dir).namespace(FixtureCluster.NAMESPACE).build();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private static TestkitFixtures.Fixture fixture(String version, String scenario) {
    return TestkitFixtures.get(version, scenario);
  }

  private RcaReport rca(TestkitFixtures.Fixture f, boolean withKubernetes) {
    EvidenceCollector.Builder b = EvidenceCollector.builder().application(f.eventLog().toString());
    if (withKubernetes) {
      b.clusterEvidence(KubernetesEvidence.of(settings));
    }
    return RcaEngine.standard().analyze(b.build().collect());
  }

  private static String culprit(TestkitFixtures.Fixture f) {
    return f.label().path("culprit").path("executorId").asText();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anOomKilledExecutorPodConfirmsTheContainerKillWithItsPodNodeAndTimesBeforeTheLoss(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-lost-fetch-failure");
    String exec = culprit(f);
    FixtureCluster c = FixtureCluster.of(f).fate(exec, Fate.OOM_KILLED);
    c.populate(api, settings.logTailLines());
    api.requests(); // the test's own writes

    RcaReport r = rca(f, true);

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_CONTAINER_KILLED);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    Instant killed = c.exitTime(exec);
    Instant removed = c.removalTime(exec);
    assertThat(killed).isBefore(removed);
    EvidenceRef record = r.rootCause().evidenceFor().get(0);
    assertThat(record.kind()).isEqualTo(EvidenceRef.Kind.CLUSTER);
    assertThat(record.source()).endsWith("/pods/" + c.executorPod(exec));
    assertThat(record.detail()).contains("OOMKilled").contains("exit code 137").contains("node " + c.node(exec))
        .contains(killed.toString());
    assertThat(r.rootCause().title()).contains("Executor " + exec);
    // The chain: the kill at T first, the event log's removal of the executor at T+d after it.
    ChainLink first = r.failureChain().get(0);
    assertThat(first.role()).isEqualTo(ChainLink.Role.ROOT_CAUSE);
    assertThat(first.time()).contains(killed);
    assertThat(first.event()).contains(c.executorPod(exec)).contains("OOMKilled");
    assertThat(r.failureChain()).anySatisfy(l -> {
      assertThat(l.role()).isEqualTo(ChainLink.Role.CONSEQUENCE);
      assertThat(l.event()).startsWith("executor " + exec + " removed");
      assertThat(l.time()).contains(removed);
    });
    // The memory budget from the pod's limit and the application's settings.
    List<Metric> metrics = r.findings().get(0).metrics();
    assertThat(metrics).anySatisfy(m -> {
      assertThat(m.name()).isEqualTo("containerMemoryLimit");
      assertThat((long) m.value()).isEqualTo(c.executorMemoryLimit());
    });
    assertThat(metrics).anySatisfy(m -> assertThat(m.name()).isEqualTo("executorGcShare"));
    assertThat(r.rootCause().explanation()).contains("memory limit was 896.0 MiB")
        .contains("outside the heap");
    assertThat(r.recommendations()).anySatisfy(x -> assertThat(x.properties()).anySatisfy(p -> {
      assertThat(p.property()).isEqualTo("spark.executor.memoryOverhead");
      assertThat(io.sparkrca.analysis.EffectiveConf.parseBytes(p.recommended()).getAsLong()).isGreaterThan(384L << 20);
    }));
    assertThat(r.timeline()).anySatisfy(t -> assertThat(t.event()).contains("OOMKilled"));
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
    assertThat(r.toMarkdown()).contains(c.executorPod(exec));
    // The provider only read.
    assertThat(api.requests()).isNotEmpty().allSatisfy(q -> assertThat(q).startsWith("GET "));
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void withoutTheClusterTheSameRunStaysALeadingHypothesisNamingThePodStatus(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-lost-fetch-failure");
    RcaReport r = rca(f, false);
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.rootCause().toConfirm()).get().asString().contains("pod's status").contains("OOMKilled");
    assertThat(r.missingEvidence()).anySatisfy(m -> {
      assertThat(m.what()).isEqualTo("cluster records");
      assertThat(m.whyItMatters()).contains("pod status");
      assertThat(m.howToGet()).contains("sparkrca-kubernetes");
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aSigkillThatWasNotTheOomKillerConfirmsTheLossAndKeepsItsKind(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-lost-fetch-failure");
    String exec = culprit(f);
    FixtureCluster.of(f).fate(exec, Fate.ERROR_137).populate(api, settings.logTailLines());
    RcaReport r = rca(f, true);
    assertThat(r.rootCause().kind()).isEqualTo(f.rootCause());
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().explanation()).contains("not the OOM killer");
    assertThat(r.rootCause().evidenceFor().get(0).detail()).contains("Error").contains("exit code 137");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anOomSeenOnlyInTheExecutorsOwnOutputIsConfirmedFromItsPodLog(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-oom-exit-on-oom");
    FixtureCluster c = FixtureCluster.of(f).fate("0", Fate.ERROR_EXIT).fate("1", Fate.ERROR_EXIT);
    c.populate(api, settings.logTailLines());
    RcaReport alone = rca(f, false);
    assertThat(alone.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_HEAP);
    assertThat(alone.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);

    RcaReport r = rca(f, true);
    assertThat(r.rootCause().kind()).isEqualTo(f.rootCause());
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> {
      assertThat(e.source()).startsWith("k8s://spark/pods/" + c.executorPod("0") + "/log");
      assertThat(e.detail()).contains("Terminating due to java.lang.OutOfMemoryError: Java heap space");
    });
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> assertThat(e.detail()).contains("Error").contains("exit code 3"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aHeapOomInTheEventLogKeepsItsKindWithThePodRecordsOnTheTimeline(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-oom");
    FixtureCluster c = FixtureCluster.of(f).fate(culprit(f), Fate.ERROR_EXIT);
    c.populate(api, settings.logTailLines());
    RcaReport r = rca(f, true);
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_HEAP);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.timeline()).anySatisfy(t -> {
      assertThat(t.source()).isEqualTo("cluster");
      assertThat(t.event()).contains(c.executorPod(culprit(f))).contains("exit code 52");
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anEvictionUnderNodeMemoryPressureIsAnInfrastructureCause(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-lost-sigterm");
    String exec = culprit(f);
    FixtureCluster c = FixtureCluster.of(f).fate(exec, Fate.EVICTED);
    c.populate(api, settings.logTailLines());
    RcaReport r = rca(f, true);
    assertThat(r.rootCause().kind()).isEqualTo(f.rootCause());
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().title()).contains("evicted").contains("node " + c.node(exec));
    assertThat(r.rootCause().explanation()).contains("infrastructure").contains("MemoryPressure")
        .contains("EvictionThresholdMet");
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> assertThat(e.source()).isEqualTo("kubernetes: nodes/"
        + c.node(exec)));
    assertThat(r.recommendations().get(0).action()).contains("evicting");
    assertThat(r.recommendations()).anySatisfy(x -> assertThat(x.properties())
        .anySatisfy(p -> assertThat(p.property()).isEqualTo("spark.decommission.enabled")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aDriverPodOomKilledMidJobNamesTheDriverOom(String version) {
    TestkitFixtures.Fixture f = fixture(version, "driver-killed-mid-job");
    FixtureCluster c = FixtureCluster.of(f).driverFate(Fate.OOM_KILLED);
    c.populate(api, settings.logTailLines());
    RcaReport alone = rca(f, false);
    assertThat(alone.verdict()).isEqualTo(Verdict.UNDETERMINED);
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString())
        .clusterEvidence(KubernetesEvidence.of(settings)).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DRIVER_OOM);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().evidenceFor().get(0).detail()).contains("OOMKilled").contains(c.driverPod());
    assertThat(r.rootCause().explanation()).contains(c.driverEnd().toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aRestartedClientModeDriversPreviousContainerLogIsRead(String version) {
    TestkitFixtures.Fixture f = fixture(version, "driver-killed-mid-job");
    String pod = "sparkrca-notebook-0";
    FixtureCluster c = FixtureCluster.of(f).clientModeDriver(pod).driverFate(Fate.OOM_KILLED);
    c.populate(api, settings.logTailLines());
    api.requests();
    KubernetesSettings s = settings.toBuilder().driverPod(pod).build();
    Evidence e = EvidenceCollector.builder().application(f.eventLog().toString())
        .clusterEvidence(KubernetesEvidence.of(s)).build().collect();
    assertThat(e.driverLogs()).anySatisfy(l -> {
      assertThat(l.uri()).contains("/pods/" + pod + "/log").contains("previous=true");
      assertThat(l.role()).isEqualTo(LogRole.DRIVER);
      assertThat(l.classifiedBy()).contains("previous container");
      assertThat(l.linesScanned()).isGreaterThan(10);
    });
    List<String> requests = api.requests();
    assertThat(requests).anySatisfy(q -> assertThat(q).contains("/pods/" + pod + "/log").contains("previous=true"));
    RcaReport r = RcaEngine.standard().analyze(e);
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DRIVER_OOM);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void executorPodsAlreadyDeletedAreAGapThatSaysWhatToEnable(String version) {
    TestkitFixtures.Fixture f = fixture(version, "executor-lost-fetch-failure");
    FixtureCluster c = FixtureCluster.of(f);
    List<String> ids = c.app().executors(false).stream().map(x -> x.id()).filter(id -> !id.equals("driver")).toList();
    c.deleted(ids.toArray(String[]::new)).populate(api, settings.logTailLines());
    RcaReport r = rca(f, true);
    assertThat(r.rootCause().kind()).isEqualTo(f.rootCause());
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.missingEvidence()).anySatisfy(m -> {
      assertThat(m.what()).startsWith("cluster records");
      assertThat(m.reason()).isEqualTo(GapReason.PARTIAL);
      assertThat(m.detail()).contains("executor(s) " + String.join(", ", ids)).contains("are gone");
      assertThat(m.howToGet()).contains("spark.kubernetes.executor.deleteOnTermination=false").contains("event");
    });
    // What remains of them, the events, is still read.
    assertThat(r.timeline()).anySatisfy(t -> assertThat(t.event()).contains("Killing"));
  }
}
