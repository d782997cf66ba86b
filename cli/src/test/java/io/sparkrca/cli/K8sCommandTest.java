package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sparkrca k8s pods|events|logs} and {@code sparkrca rca --k8s-namespace}, against fabric8's
 * mock API server holding what the real testkit executor-loss run would have left on a cluster
 * (its lost executor OOMKilled), reached through a kubeconfig as kubectl would.
 */
class K8sCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;
  private static ApiServer api;
  private static TestkitFixtures.Fixture fixture;
  private static FixtureCluster cluster;
  private static String lost;
  private static String kubeconfig;

  @BeforeAll
  static void start() {
    api = ApiServer.start();
    fixture = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    lost = fixture.label().path("culprit").path("executorId").asText();
    cluster = FixtureCluster.of(fixture).fate(lost, Fate.OOM_KILLED);
    cluster.populate(api, 2000);
    kubeconfig = api.kubeconfig(dir, "elsewhere").toString();
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  private static CliRun k8s(String action, String... more) {
    String[] base = {"k8s", action, "--app-id", cluster.appId(), "--kubeconfig", kubeconfig, "--k8s-namespace",
        FixtureCluster.NAMESPACE};
    String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
    System.arraycopy(more, 0, args, base.length, more.length);
    return CliRun.of(args);
  }

  @Test
  void podsAsJsonShowTheOomKilledExecutorAndExitOne() throws Exception {
    CliRun r = k8s("pods", "--format", "json");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    JsonNode pods = JSON.readTree(r.out()).path("pods");
    assertThat(pods.toString()).contains(cluster.executorPod(lost)).contains("\"OOMKilled\"").contains("137");
    assertThat(r.err()).contains("pod(s)").contains("failed, in namespace spark");
    assertThat(r.out() + r.err()).doesNotContain(ApiServer.TOKEN);
  }

  @Test
  void eventsAndLogsAreMarkdownByDefault() {
    CliRun events = k8s("events");
    assertThat(events.exitCode()).as(events.err()).isIn(0, 1);
    assertThat(events.out()).contains("### Kubernetes events of " + cluster.appId()).contains("Scheduled");

    CliRun logs = k8s("logs", "--executor", lost);
    assertThat(logs.exitCode()).as(logs.err()).isIn(0, 1);
    assertThat(logs.out()).contains("#### Logs (1)").contains(cluster.executorPod(lost));
  }

  @Test
  void rcaWithTheNamespaceConfirmsTheContainerKill() throws Exception {
    CliRun r = CliRun.of("rca", fixture.eventLog().toString(), "--kubeconfig", kubeconfig, "--k8s-namespace",
        FixtureCluster.NAMESPACE, "--format", "json");

    assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
    assertThat(RcaSchema.errors(r.out())).isEmpty();
    JsonNode root = JSON.readTree(r.out()).path("rootCause");
    assertThat(root.path("kind").asText()).isEqualTo("EXECUTOR_OOM_CONTAINER_KILLED");
    assertThat(root.path("confidence").asText()).isEqualTo("CONFIRMED");
    assertThat(root.toString()).contains(cluster.executorPod(lost));
    assertThat(r.out() + r.err()).doesNotContain(ApiServer.TOKEN);
  }

  @Test
  void anApplicationWithNoPodsIsAnErrorSayingWhatToEnable() throws Exception {
    CliRun r = CliRun.of("k8s", "pods", "--app-id", "spark-0000", "--kubeconfig", kubeconfig, "--k8s-namespace",
        FixtureCluster.NAMESPACE, "--format", "json");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(JSON.readTree(r.out()).path("status").asText()).isEqualTo("ERROR");
    assertThat(r.err()).contains("no pod in namespace spark has label spark-app-selector=spark-0000")
        .contains("deleteOnTermination=false").doesNotContain("\tat ");
  }

  @Test
  void aForbiddenListIsAnErrorNamingTheGrant() throws Exception {
    try (ApiServer denied = ApiServer.start()) {
      denied.forbid("/api/v1/namespaces/spark/pods", "list", "pods", "spark");
      Path config = denied.kubeconfig(java.nio.file.Files.createDirectories(dir.resolve("denied")), "spark");
      CliRun r = CliRun.of("k8s", "pods", "--app-id", cluster.appId(), "--kubeconfig", config.toString());

      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.err()).contains("HTTP 403 Forbidden").contains("kubectl auth can-i list pods -n spark")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void anActionIsRequired() {
    CliRun r = CliRun.of("k8s");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("an action is required: pods, events or logs");
  }
}
