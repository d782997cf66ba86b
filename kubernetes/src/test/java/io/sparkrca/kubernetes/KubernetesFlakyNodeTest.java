package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import io.sparkrca.analysis.rca.RcaEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A flaky host on Kubernetes, on the real executor-loss runs of both Spark versions: fabric8's mock
 * API server (the real client over its wire protocol) holds the run's pods placed on two nodes, the
 * lost executor's on {@code node-a} and the others on {@code node-b}. The failures grouped by node
 * name node-a with its counts and share; when node-a's own records say it went NotReady the node is
 * the confirmed root cause of the loss. Failures that are the application's own (a container
 * killed for its memory, an OutOfMemoryError of every executor) or that spread over the nodes
 * name no node.
 */
class KubernetesFlakyNodeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
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

  private RcaReport rca(TestkitFixtures.Fixture f) {
    return RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString())
        .clusterEvidence(KubernetesEvidence.of(settings)).build().collect());
  }

  private static Optional<Finding> flakyNode(RcaReport r) {
    return r.findings().stream().filter(f -> f.analyzer().equals("flaky-node")).findFirst();
  }

  /** The failures the run's event log holds: its failed task attempts and its executor losses. */
  private static int failures(SparkApplication app) {
    int tasks = app.stages(io.sparkrca.core.app.StageQuery.all()).stream().mapToInt(StageData::numFailedTasks).sum();
    long lost = app.executors(false).stream().filter(e -> e.removeReason().map(x -> x.contains("exited with code"))
        .orElse(false)).count();
    return tasks + (int) lost;
  }

  /** Executor 1 was lost (exit 137); its pod on node-a, executors 0 and 2 and the driver on node-b. */
  private FixtureCluster placed(TestkitFixtures.Fixture f, Fate fate) {
    String exec = f.label().path("culprit").path("executorId").asText();
    assertThat(exec).as("the run's lost executor").isEqualTo("1");
    return FixtureCluster.of(f).fate(exec, fate).place("node-a", exec).place("node-b", "0", "2");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void failuresOfTheLostExecutorsNodeAreGroupedByNodeAndNameIt(String version) throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-lost-fetch-failure");
    FixtureCluster c = placed(f, Fate.ERROR_137);
    c.populate(api, settings.logTailLines());
    int total = failures(c.app());

    RcaReport r = rca(f);

    Finding node = flakyNode(r).orElseThrow(() -> new AssertionError("no flaky-node finding in\n" + r.toMarkdown()));
    assertThat(node.kind()).isEqualTo(RootCauseKind.FLAKY_INFRASTRUCTURE);
    assertThat(node.title()).isEqualTo("Failures concentrate on node node-a");
    assertThat(node.culprit().host()).contains("node-a");
    assertThat(node.culprit().executorIds()).containsExactly("1");
    assertThat(node.culprit().stageIds()).isNotEmpty();
    assertThat(node.metric("failuresOnNode").orElseThrow().value()).isEqualTo(total);
    assertThat(node.metric("failuresTotal").orElseThrow().value()).isEqualTo(total);
    assertThat(node.metric("worstNodeShare").orElseThrow().value()).isEqualTo(1.0);
    assertThat(node.metric("executorsElsewhere").orElseThrow().value()).isEqualTo(2);
    // One entry per node, worst first, with the pod it points at.
    List<EvidenceRef> grouping = node.evidence().stream().filter(e -> e.source().startsWith("kubernetes: nodes/")).toList();
    assertThat(grouping).hasSizeGreaterThanOrEqualTo(2);
    assertThat(grouping.get(0).source()).isEqualTo("kubernetes: nodes/node-a");
    assertThat(grouping.get(0).detail()).startsWith("node node-a: " + total + " failures (100%)")
        .contains("1 lost executor (1; pod " + c.executorPod("1") + ")").contains("fetch failure");
    assertThat(grouping).anySatisfy(e -> assertThat(e.detail())
        .startsWith("node node-b: 0 failures (0%); 2 executors ran there (0, 2)"));
    // No record of node-a's own: the pod's SIGKILL record stays the confirmed root, the node a suspect.
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(node.fallout()).isFalse();
    assertThat(r.rootCause().alternatives()).anySatisfy(a -> assertThat(a.kind()).isEqualTo(RootCauseKind.FLAKY_INFRASTRUCTURE));
    // Rendered in every format.
    assertThat(node.summary()).startsWith("node node-a holds " + total + " of the application's " + total
        + " failures (100%); by node: node node-a: " + total + " failures (100%)")
        .contains("; node node-b: 0 failures (0%); 2 executors ran there (0, 2)");
    assertThat(r.toMarkdown()).contains("Failures concentrate on node node-a")
        .contains("by node: node node-a: " + total + " failures").contains("node node-b: 0 failures");
    assertThat(r.toHtml()).contains("Failures concentrate on node node-a").contains("node node-b: 0 failures");
    JsonNode json = JSON.readTree(r.toJson());
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
    JsonNode f0 = null;
    for (JsonNode x : json.path("findings")) {
      if (x.path("analyzer").asText().equals("flaky-node")) {
        f0 = x;
      }
    }
    assertThat(f0).as("the flaky-node finding in the JSON").isNotNull();
    assertThat(f0.path("host").asText()).isEqualTo("node-a");
    assertThat(f0.toString()).contains("node node-b: 0 failures");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aNodeWhoseOwnRecordsSayNotReadyIsTheConfirmedRootOfTheLossOnIt(String version) {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-lost-fetch-failure");
    placed(f, Fate.ERROR_137).notReady("node-a").populate(api, settings.logTailLines());

    RcaReport r = rca(f);

    assertThat(r.rootCause().kind()).as(r.toMarkdown()).isEqualTo(RootCauseKind.FLAKY_INFRASTRUCTURE);
    assertThat(r.rootCause().title()).isEqualTo("Failures concentrate on node node-a");
    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(r.rootCause().explanation()).contains("NotReady");
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> assertThat(e.detail()).contains("NotReady"));
    // The loss on it is its fallout.
    assertThat(r.findings()).anySatisfy(x -> {
      assertThat(x.kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
      assertThat(x.fallout()).isTrue();
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aContainerKilledForItsMemoryIsTheApplicationsOwnAndNamesNoNode(String version) {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-lost-fetch-failure");
    placed(f, Fate.OOM_KILLED).populate(api, settings.logTailLines());

    RcaReport r = rca(f);

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_CONTAINER_KILLED);
    assertThat(flakyNode(r)).as(r.toMarkdown()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void failuresSpreadOverTheNodesNameNoNode(String version) {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-oom-exit-on-oom");
    // Both executors were lost (exit 3, an OutOfMemoryError); one per node.
    FixtureCluster.of(f).fate("0", Fate.ERROR_EXIT).fate("1", Fate.ERROR_EXIT).place("node-a", "0").place("node-b", "1")
        .populate(api, settings.logTailLines());

    RcaReport r = rca(f);

    assertThat(r.rootCause().kind().isOutOfMemory()).as(r.toMarkdown()).isTrue();
    assertThat(flakyNode(r)).as(r.toMarkdown()).isEmpty();
  }
}
