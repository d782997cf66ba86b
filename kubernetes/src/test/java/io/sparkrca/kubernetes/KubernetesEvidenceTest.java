package io.sparkrca.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * How the provider plugs into an analysis: found on the class path it asks only about applications
 * run on Kubernetes; made with settings it asks about any; the target is what the event log says
 * about the pods.
 */
class KubernetesEvidenceTest {
  private final SparkApplication local =
      EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure").eventLog());

  @Test
  void theClassPathProviderAsksOnlyAboutApplicationsRunOnKubernetes() {
    ClusterEvidenceProvider found = ServiceLoader.load(ClusterEvidenceProvider.class).stream()
        .map(ServiceLoader.Provider::get).filter(p -> p instanceof KubernetesEvidence).findFirst().orElseThrow();

    assertThat(found.name()).isEqualTo("kubernetes");
    // A local-cluster run: no cluster to ask.
    assertThat(found.supports(local)).isFalse();
    // Asked explicitly (a namespace, a context), it asks about any application.
    assertThat(KubernetesEvidence.of(KubernetesSettings.builder().namespace("spark").build()).supports(local)).isTrue();
  }

  @Test
  void theTargetIsTheApplicationIdAndTheExecutorsTheEventLogKnows() {
    SparkPods.Target t = KubernetesEvidence.target(local);

    assertThat(t.appId()).isEqualTo(local.info().id());
    assertThat(t.executorIds()).isNotEmpty().doesNotContain("driver");
    assertThat(t.namespace()).isEmpty();
  }

  @Test
  void sparkPropertiesNameTheNamespaceDriverPodAndPodPrefix() {
    SparkPods.Target t = SparkPods.Target.of("spark-1", java.util.Map.of("spark.kubernetes.namespace", "jobs",
        "spark.kubernetes.driver.pod.name", "etl-driver", "spark.kubernetes.executor.podNamePrefix", " etl "),
        java.util.Set.of("1"));

    assertThat(t.namespace()).contains("jobs");
    assertThat(t.driverPod()).contains("etl-driver");
    assertThat(t.podNamePrefix()).contains("etl");
  }
}
