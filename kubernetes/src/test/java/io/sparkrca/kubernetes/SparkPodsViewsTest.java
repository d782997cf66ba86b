package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pods, events and logs views ({@code sparkrca k8s ...}) of the real executor-loss run with its
 * lost executor OOMKilled, launched by the Spark Operator, through the real fabric8 client: each says what the
 * cluster holds in Markdown and JSON, and its exit code says whether something failed.
 */
class SparkPodsViewsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPERATOR_APP = "shuffle-job";
  @TempDir static Path dir;
  private static ApiServer api;
  private static FixtureCluster cluster;
  private static SparkPods k8s;
  private static String lost;

  @BeforeAll
  static void start() {
    api = ApiServer.start();
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure");
    lost = f.label().path("culprit").path("executorId").asText();
    cluster = FixtureCluster.of(f).fate(lost, Fate.OOM_KILLED).launchedByOperator(OPERATOR_APP);
    cluster.populate(api, 2000);
    k8s = SparkPods.connect(api.settings(dir).namespace(FixtureCluster.NAMESPACE).build());
  }

  @AfterAll
  static void stop() {
    k8s.close();
    api.close();
  }

  private SparkPods.Target target() {
    return KubernetesEvidence.target(cluster.app());
  }

  @Test
  void thePodsViewShowsEachContainersTerminationAndLimit() throws Exception {
    PodsView v = k8s.pods(target());

    assertThat(v.exitCode()).isEqualTo(1);
    assertThat(v.pods().get(0).isDriver()).isTrue();
    JsonNode pod = null;
    for (JsonNode p : JSON.readTree(v.toJson()).path("pods")) {
      if (p.path("name").asText().equals(cluster.executorPod(lost))) {
        pod = p;
      }
    }
    assertThat(pod).as("the lost executor's pod in %s", v.toJson()).isNotNull();
    assertThat(pod.path("executorId").asText()).isEqualTo(lost);
    assertThat(pod.path("node").asText()).isEqualTo(cluster.node(lost));
    JsonNode terminated = pod.path("containers").get(0).path("terminated");
    assertThat(terminated.path("reason").asText()).isEqualTo("OOMKilled");
    assertThat(terminated.path("exitCode").asInt()).isEqualTo(137);
    assertThat(terminated.path("finishedAt").asText()).isEqualTo(cluster.exitTime(lost).toString());
    assertThat(pod.path("containers").get(0).path("memoryLimitBytes").asLong()).isEqualTo(cluster.executorMemoryLimit());
    assertThat(v.toMarkdown()).contains("#### Pods (").contains(cluster.executorPod(lost)).contains("OOMKilled");
    assertThat(JSON.readTree(v.toJson()).path("nodes")).isNotEmpty();
  }

  @Test
  void theSparkOperatorsSparkApplicationIsReadWithItsExecutorStates() throws Exception {
    PodsView v = k8s.pods(target());

    assertThat(v.applications()).singleElement().satisfies(a -> {
      assertThat(a.name()).isEqualTo(OPERATOR_APP);
      assertThat(a.sparkApplicationId()).contains(cluster.appId());
      assertThat(a.driverPod()).contains(cluster.driverPod());
      assertThat(a.executorStates()).containsEntry(cluster.executorPod(lost), "FAILED");
    });
    assertThat(JSON.readTree(v.toJson()).path("sparkApplications").get(0).path("name").asText()).isEqualTo(OPERATOR_APP);
    assertThat(v.toMarkdown()).contains("#### SparkApplication `" + OPERATOR_APP + "`");
    // As evidence: the SparkApplication's record names the executor pods it saw fail.
    var records = k8s.evidence(target(), io.sparkrca.core.evidence.LogSignatures.standard()).events();
    assertThat(records).anySatisfy(r -> {
      assertThat(r.source()).isEqualTo("kubernetes: namespaces/spark/sparkapplications/" + OPERATOR_APP);
      assertThat(r.message()).contains("failed executor pods: " + cluster.executorPod(lost));
    });
  }

  @Test
  void theEventsViewListsTheApplicationsEventsOldestFirst() throws Exception {
    EventsView v = k8s.events(target());

    assertThat(v.events()).isNotEmpty().allSatisfy(e -> assertThat(e.involvedName())
        .satisfiesAnyOf(n -> assertThat(n).startsWith(cluster.driverPod().replace("-driver", "")),
            n -> assertThat(e.involvedKind()).isEqualTo("Node")));
    assertThat(v.events()).isSortedAccordingTo((a, b) -> a.time().orElseThrow().compareTo(b.time().orElseThrow()));
    assertThat(v.events()).anySatisfy(e -> assertThat(e.reason()).isEqualTo("Scheduled"));
    JsonNode json = JSON.readTree(v.toJson());
    assertThat(json.path("kind").asText()).isEqualTo("events");
    assertThat(json.path("events").size()).isEqualTo(v.events().size());
    assertThat(v.toMarkdown()).contains("#### Events (" + v.events().size() + ")");
  }

  @Test
  void theLogsViewReadsTheDriverAndTheFailedExecutorAndFindsTheirFailures() throws Exception {
    LogsView v = k8s.logs(target(), Optional.empty(), false);

    assertThat(v.logs()).extracting(LogTail::pod).containsExactly(cluster.driverPod(), cluster.executorPod(lost));
    assertThat(v.logs().get(0).scan().linesScanned()).isGreaterThan(10);
    assertThat(v.logs().get(0).scan().signatureCounts()).isNotEmpty();
    assertThat(v.exitCode()).isEqualTo(1);
    JsonNode json = JSON.readTree(v.toJson());
    assertThat(json.path("logs").get(0).path("uri").asText())
        .isEqualTo("k8s://spark/pods/" + cluster.driverPod() + "/log?container=spark-kubernetes-driver");
    // A container that never restarted has no previous log, and that is no gap.
    assertThat(v.gaps()).isEmpty();

    LogsView one = k8s.logs(target(), Optional.of(lost), false);
    assertThat(one.logs()).singleElement().satisfies(l -> assertThat(l.executorId()).contains(lost));
    assertThat(one.toMarkdown()).contains(cluster.executorPod(lost));
  }
}
