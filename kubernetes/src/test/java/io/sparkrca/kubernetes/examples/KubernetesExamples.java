package io.sparkrca.kubernetes.examples;

import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.kubernetes.ContainerInfo;
import io.sparkrca.kubernetes.EventInfo;
import io.sparkrca.kubernetes.EventsView;
import io.sparkrca.kubernetes.KubernetesEvidence;
import io.sparkrca.kubernetes.KubernetesSettings;
import io.sparkrca.kubernetes.KubernetesView;
import io.sparkrca.kubernetes.LogTail;
import io.sparkrca.kubernetes.LogsView;
import io.sparkrca.kubernetes.NodeInfo;
import io.sparkrca.kubernetes.PodInfo;
import io.sparkrca.kubernetes.PodsView;
import io.sparkrca.kubernetes.SparkApplicationInfo;
import io.sparkrca.kubernetes.SparkPods;
import io.sparkrca.kubernetes.Termination;
import java.time.Duration;
import java.util.Optional;

/** The Javadoc examples of {@code io.sparkrca.kubernetes}, compiled (see {@link JavadocExamplesTest}). */
class KubernetesExamples {
  /** The example of {@code ContainerInfo}. */
  void containerInfo(PodInfo pod) throws Exception {
    for (ContainerInfo c : pod.containers()) {
      System.out.println(c.name() + " " + c.state() + " limit " + c.memoryLimitBytes().orElse(-1L));
    }
  }

  /** The example of {@code EventInfo}. */
  void eventInfo(EventsView events) throws Exception {
    events.events().stream().filter(EventInfo::warning).forEach(e -> System.out.println(e.reason() + ": " + e.message()));
  }

  /** The example of {@code EventsView}. */
  void eventsView(SparkPods k8s, String appId) throws Exception {
    EventsView v = k8s.events(SparkPods.Target.of(appId));
    v.events().stream().filter(EventInfo::warning).forEach(e -> System.out.println(e.reason()));
  }

  /** The example of {@code KubernetesEvidence}. */
  void kubernetesEvidence() throws Exception {
    Evidence e = EvidenceCollector.builder()
        .application("/tmp/spark-events/spark-4f1c0e8d")
        .clusterEvidence(KubernetesEvidence.of(KubernetesSettings.builder().namespace("spark").build()))
        .build().collect();
  }

  /** The example of {@code KubernetesSettings}. */
  void kubernetesSettings() throws Exception {
    KubernetesSettings k8s = KubernetesSettings.builder()
        .context("prod-eu")
        .namespace("spark-jobs")
        .requestTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** The example of {@code KubernetesView}. */
  void kubernetesView(SparkPods k8s, String appId) throws Exception {
    KubernetesView v = k8s.pods(SparkPods.Target.of(appId)).requireRead();
    System.err.println(v.summary());
  }

  /** The example of {@code LogTail}. */
  void logTail(LogsView logs) throws Exception {
    for (LogTail t : logs.logs()) {
      System.out.println(t.pod() + (t.previous() ? " (previous)" : "") + ": " + t.scan().signatureCounts());
    }
  }

  /** The example of {@code LogsView}. */
  void logsView(SparkPods k8s, String appId) throws Exception {
    LogsView v = k8s.logs(SparkPods.Target.of(appId), Optional.of("3"), false);
    System.out.println(v.toMarkdown());
  }

  /** The example of {@code NodeInfo}. */
  void nodeInfo(NodeInfo node) throws Exception {
    node.conditions().stream().filter(NodeInfo.Condition::abnormal)
        .forEach(c -> System.out.println(node.name() + ": " + c.type() + " since " + c.since().orElse(null)));
  }

  /** The example of {@code PodInfo}. */
  void podInfo(PodsView pods) throws Exception {
    pods.pods().stream().filter(p -> p.reason().equals("Evicted"))
        .forEach(p -> System.out.println(p.name() + " evicted from " + p.node().orElse("?")));
  }

  /** The example of {@code PodsView}. */
  void podsView(SparkPods k8s, String appId) throws Exception {
    PodsView v = k8s.pods(SparkPods.Target.of(appId));
    System.out.println(v.toMarkdown());
    System.exit(v.exitCode());
  }

  /** The example of {@code SparkApplicationInfo}. */
  void sparkApplicationInfo(Optional<SparkApplicationInfo> app) throws Exception {
    app.filter(a -> a.state().equals("FAILED")).ifPresent(a -> System.out.println(a.errorMessage()));
  }

  /** The example of {@code SparkPods}. */
  void sparkPods() throws Exception {
    try (SparkPods k8s = SparkPods.connect(KubernetesSettings.builder().namespace("spark").build())) {
      PodsView pods = k8s.pods(SparkPods.Target.of("spark-4f1c0e8d2b7a4c1e9d6f3a5b7c9e1d2f"));
      System.out.println(pods.toMarkdown());
    }
  }

  /** The example of {@code Termination}. */
  void termination(PodInfo pod) throws Exception {
    pod.sparkContainer().flatMap(ContainerInfo::terminated)
        .filter(Termination::oomKilled)
        .ifPresent(t -> System.out.println("OOM-killed at " + t.finishedAt().orElseThrow()));
  }

  /** The example of {@code io.sparkrca.kubernetes}. */
  void overview(String appId) throws Exception {
    try (SparkPods k8s = SparkPods.connect(KubernetesSettings.builder().namespace("spark").build())) {
      System.out.println(k8s.pods(SparkPods.Target.of(appId)).toMarkdown());
    }
  }
}
