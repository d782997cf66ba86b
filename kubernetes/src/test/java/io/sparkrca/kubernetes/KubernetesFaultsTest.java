package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.evidence.ClusterEvidenceProvider.ClusterEvidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import io.sparkrca.analysis.rca.RcaEngine;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the provider does when the cluster does not answer as hoped, on the real executor-loss run
 * with its lost executor OOMKilled: RBAC refusals (which verb on which resource to grant), pods
 * already deleted, a slow API server and a spent time budget, TLS verification turned off, a
 * context that is not there, a server that is not reachable. Each is a gap with the exact reason
 * or a clear error, never a hang or a confirmed root cause on missing records.
 */
class KubernetesFaultsTest {
  private static final String NS = FixtureCluster.NAMESPACE;
  @TempDir Path dir;
  private ApiServer api;
  private TestkitFixtures.Fixture fixture;
  private FixtureCluster cluster;
  private String exec;

  @BeforeEach
  void start() {
    api = ApiServer.start();
    fixture = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    exec = fixture.label().path("culprit").path("executorId").asText();
    cluster = FixtureCluster.of(fixture).fate(exec, Fate.OOM_KILLED);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private KubernetesSettings.Builder settings() {
    return api.settings(dir).namespace(NS);
  }

  private ClusterEvidence evidence(KubernetesSettings s) {
    try (SparkPods k8s = SparkPods.connect(s)) {
      return k8s.evidence(KubernetesEvidence.target(cluster.app()), LogSignatures.standard());
    }
  }

  private RcaReport rca(KubernetesSettings s) {
    return RcaEngine.standard().analyze(EvidenceCollector.builder().application(fixture.eventLog().toString())
        .clusterEvidence(KubernetesEvidence.of(s)).build().collect());
  }

  @Test
  void aForbiddenPodListIsAGapNamingTheVerbResourceAndTheRoleToGrant() {
    cluster.populate(api, 2000);
    api.forbid("/api/v1/namespaces/" + NS + "/pods", "list", "pods", NS);

    RcaReport r = rca(settings().build());

    assertThat(r.rootCause().confidence()).isEqualTo(Confidence.LEADING_HYPOTHESIS);
    assertThat(r.missingEvidence()).anySatisfy(m -> {
      assertThat(m.what()).startsWith("cluster records");
      assertThat(m.reason()).isEqualTo(GapReason.ACCESS_DENIED);
      assertThat(m.detail()).startsWith("HTTP 403 Forbidden: pods is forbidden").contains("cannot list resource");
      assertThat(m.howToGet()).contains("grant 'list' on 'pods' with a Role in namespace " + NS)
          .contains("kubectl auth can-i list pods -n " + NS);
    });
    // A refusal is not "the pods are gone".
    assertThat(r.missingEvidence()).noneSatisfy(m -> assertThat(m.detail()).contains("are deleted"));
  }

  @Test
  void forbiddenNodesAreOneGapForAClusterRoleAndThePodsStillConfirmTheKill() {
    cluster.populate(api, 2000);
    api.forbid("/api/v1/nodes/" + cluster.node(exec), "get", "nodes", "");
    api.forbid("/api/v1/nodes/localhost", "get", "nodes", "");

    ClusterEvidence e = evidence(settings().build());

    List<EvidenceGap> nodeGaps = e.gaps().stream().filter(g -> g.uri().contains("/api/v1/nodes/")).toList();
    assertThat(nodeGaps).hasSize(1);
    assertThat(nodeGaps.get(0).reason()).isEqualTo(GapReason.ACCESS_DENIED);
    assertThat(nodeGaps.get(0).whatToDo()).contains("grant 'get' on 'nodes' with a ClusterRole (nodes are cluster-scoped)");
    assertThat(e.events()).anySatisfy(c -> assertThat(c.reason()).isEqualTo("OOMKilled"));
    assertThat(rca(settings().build()).rootCause().confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @Test
  void aForbiddenLogIsAGapNamingPodsLog() {
    cluster.populate(api, 2000);
    api.forbid("/api/v1/namespaces/" + NS + "/pods/" + cluster.driverPod() + "/log", "get", "pods/log", NS);

    ClusterEvidence e = evidence(settings().build());

    assertThat(e.gaps()).anySatisfy(g -> {
      assertThat(g.what()).isEqualTo("driver log");
      assertThat(g.reason()).isEqualTo(GapReason.ACCESS_DENIED);
      assertThat(g.whatToDo()).contains("grant 'get' on 'pods/log'");
    });
    // The executor's log, which was allowed, is still read.
    assertThat(e.logs()).anySatisfy(l -> assertThat(l.uri()).contains(cluster.executorPod(exec)));
  }

  @Test
  void podsAlreadyDeletedAreAGapThatSaysWhatToEnable() {
    // Nothing of the application on the cluster: no pod, no event.
    ClusterEvidence e = evidence(settings().build());

    assertThat(e.events()).isEmpty();
    assertThat(e.gaps()).anySatisfy(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.NOT_FOUND);
      assertThat(g.detail()).contains("no pod in namespace " + NS + " has label spark-app-selector=" + cluster.appId());
      assertThat(g.whatToDo()).contains("spark.kubernetes.executor.deleteOnTermination=false").contains("event exporter");
    });
  }

  @Test
  void aSlowApiServerIsATimeoutGapNotAHang() {
    cluster.populate(api, 2000);
    api.slow("/api/v1/namespaces/" + NS + "/pods", Duration.ofSeconds(4));

    ClusterEvidence e = evidence(settings().requestTimeout(Duration.ofSeconds(1)).build());

    assertThat(e.gaps()).anySatisfy(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT);
      assertThat(g.detail()).isEqualTo("list pods in namespace " + NS + " got no answer within 1000 ms");
      assertThat(g.whatToDo()).contains("raise the request timeout");
    });
    assertThat(e.events()).noneSatisfy(c -> assertThat(c.reason()).isEqualTo("OOMKilled"));
  }

  @Test
  void whenTheTimeBudgetIsSpentTheRestIsOneGap() {
    cluster.populate(api, 2000);
    api.slow("/api/v1/namespaces/" + NS + "/pods", Duration.ofMillis(1500));

    ClusterEvidence e = evidence(settings().requestTimeout(Duration.ofSeconds(10)).budget(Duration.ofSeconds(1)).build());

    // The pods came (slowly); what would have followed them was not asked for.
    assertThat(e.events()).anySatisfy(c -> assertThat(c.reason()).isEqualTo("OOMKilled"));
    List<EvidenceGap> budget = e.gaps().stream().filter(g -> g.detail().contains("time budget")).toList();
    assertThat(budget).hasSize(1);
    assertThat(budget.get(0).reason()).isEqualTo(GapReason.TIMEOUT);
    assertThat(budget.get(0).whatToDo()).contains("raise the Kubernetes time budget");
    assertThat(api.requests()).noneSatisfy(q -> assertThat(q).contains("/log"));
  }

  @Test
  void aKubeconfigThatTurnsTlsVerificationOffIsRefused() {
    Path insecure = api.kubeconfig(dir, NS, true);
    KubernetesSettings s = KubernetesSettings.builder().kubeconfig(insecure).build();

    assertThatThrownBy(() -> SparkPods.connect(s)).isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("TLS verification off").hasMessageContaining("certificate-authority-data");
    // Through the analysis it is a gap, and nothing was sent.
    ClusterEvidence e = KubernetesEvidence.of(s).collect(cluster.app(), io.sparkrca.core.source.SourceSettings.defaults());
    assertThat(e.gaps()).singleElement().satisfies(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.ACCESS_DENIED);
      assertThat(g.detail()).contains("never turns TLS verification off");
    });
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void aContextThatIsNotInTheKubeconfigIsNamed() {
    Path config = api.kubeconfig(dir, NS);
    assertThatThrownBy(() -> SparkPods.connect(KubernetesSettings.builder().kubeconfig(config).context("prod").build()))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("Kubernetes context prod")
        .hasMessageContaining("kubectl config get-contexts");
    assertThatThrownBy(() -> SparkPods.connect(KubernetesSettings.builder().kubeconfig(dir.resolve("missing")).build()))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("kubeconfig " + dir.resolve("missing"));
  }

  @Test
  void anUnreachableServerIsAGapNamingTheServer() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String text = Files.readString(api.kubeconfig(dir, NS)).replace(api.url(), "https://localhost:" + port);
    Path config = Files.writeString(dir.resolve("unreachable"), text);

    ClusterEvidence e = evidence(KubernetesSettings.builder().kubeconfig(config).retries(0)
        .connectTimeout(Duration.ofSeconds(2)).build());

    assertThat(e.gaps()).first().satisfies(g -> {
      assertThat(g.uri()).startsWith("https://localhost:" + port + "/api/v1/namespaces/" + NS + "/pods");
      assertThat(g.detail()).contains("cannot reach the API server");
      assertThat(g.whatToDo()).contains("server address");
    });
  }

  @Test
  void theContextsNamespaceIsUsedWhenNoneIsGiven() {
    cluster.populate(api, 2000);
    KubernetesSettings s = KubernetesSettings.builder().kubeconfig(api.kubeconfig(dir, NS)).build();
    try (SparkPods k8s = SparkPods.connect(s)) {
      assertThat(k8s.namespace(SparkPods.Target.of(cluster.appId()))).isEqualTo(NS);
      assertThat(k8s.pods(SparkPods.Target.of(cluster.appId())).pods()).isNotEmpty();
    }
  }
}
