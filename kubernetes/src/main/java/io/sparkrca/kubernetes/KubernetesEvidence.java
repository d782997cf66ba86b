package io.sparkrca.kubernetes;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.kubernetes.internal.Calls;
import io.sparkrca.kubernetes.internal.Clients;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The Kubernetes side of an application's story for {@link io.sparkrca.core.evidence.EvidenceCollector}:
 * its pods' termination records (OOMKilled, exit 137), evictions and preemptions, its nodes'
 * pressure, the events, its SparkApplication, and the driver's and failed executors' log tails
 * (see {@link SparkPods}). On the class path it is found with {@link java.util.ServiceLoader} and
 * asks, with kubectl's configuration, about applications whose master is {@code k8s://}; made
 * with {@link #of(KubernetesSettings)} it asks about any application, in the namespace and
 * context given. It only reads (get, list, log).
 *
 * <pre>{@code
 * Evidence e = EvidenceCollector.builder()
 *     .application("/tmp/spark-events/spark-4f1c0e8d")
 *     .clusterEvidence(KubernetesEvidence.of(KubernetesSettings.builder().namespace("spark").build()))
 *     .build().collect();
 * }</pre>
 */
public final class KubernetesEvidence implements ClusterEvidenceProvider {
  private final Optional<KubernetesSettings> settings;
  private final LogSignatures signatures;

  /** As found on the class path: kubectl's configuration, for applications run on Kubernetes. */
  public KubernetesEvidence() {
    this(Optional.empty(), LogSignatures.standard());
  }

  private KubernetesEvidence(Optional<KubernetesSettings> settings, LogSignatures signatures) {
    this.settings = settings;
    this.signatures = signatures;
  }

  /** With these settings, for any application (the namespace or context says where it ran). */
  public static KubernetesEvidence of(KubernetesSettings settings) {
    return new KubernetesEvidence(Optional.of(Objects.requireNonNull(settings, "settings")), LogSignatures.standard());
  }

  /** The signatures the pods' logs are scanned for (default {@link LogSignatures#standard()}). */
  public KubernetesEvidence withSignatures(LogSignatures signatures) {
    return new KubernetesEvidence(settings, Objects.requireNonNull(signatures, "signatures"));
  }

  @Override
  public String name() {
    return "kubernetes";
  }

  @Override
  public boolean supports(SparkApplication app) {
    return settings.isPresent() || app.sparkConf().map(c -> c.getOrDefault("spark.master", "")).orElse("")
        .toLowerCase(Locale.ROOT).startsWith("k8s://");
  }

  @Override
  public ClusterEvidence collect(SparkApplication app, SourceSettings sourceSettings) {
    KubernetesSettings s = settings.orElse(KubernetesSettings.defaults());
    SparkPods.Target target = target(app);
    if (settings.isEmpty() && !Clients.credentialsAvailable(s)) {
      return gapOnly(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, "", GapReason.NOT_REQUESTED,
          "the application ran on Kubernetes, but there is no kubeconfig (KUBECONFIG, ~/.kube/config) or in-cluster "
              + "service account here", "give the Kubernetes namespace and a kubeconfig to read its pods' records"));
    }
    try (SparkPods k8s = SparkPods.connect(s)) {
      return k8s.evidence(target, signatures);
    } catch (SparkRcaException e) {
      GapReason reason = e instanceof AccessDeniedException ? GapReason.ACCESS_DENIED
          : e instanceof InputNotFoundException ? GapReason.NOT_FOUND : GapReason.ERROR;
      return gapOnly(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, "", reason,
          Redactor.standard().redactText(String.valueOf(e.getMessage())), "check the kubeconfig and the context"));
    }
  }

  /** Which pods to look for: the application id, and what its Spark properties say about its pods. */
  static SparkPods.Target target(SparkApplication app) {
    Set<String> executors = new LinkedHashSet<>();
    for (ExecutorSummary e : app.executors(false)) {
      if (!e.id().equals("driver")) {
        executors.add(e.id());
      }
    }
    return SparkPods.Target.of(app.info().id(), app.sparkConf().orElse(Map.of()), executors);
  }

  private static ClusterEvidence gapOnly(EvidenceGap g) {
    return new ClusterEvidence(List.of(), List.of(), List.of(g));
  }

  @Override
  public String toString() {
    return "KubernetesEvidence{" + settings.map(KubernetesSettings::toString).orElse("kubectl's configuration") + "}";
  }
}
