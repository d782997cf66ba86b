package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.kubernetes.KubernetesEvidence;
import io.sparkrca.kubernetes.KubernetesSettings;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Where the Kubernetes cluster's records of an application are read: the namespace, the kubeconfig
 * context and file (resolved as kubectl resolves them when not given), a client-mode driver's pod,
 * the request timeout and the log cap. Mixed into {@code rca} (which then asks the cluster even
 * when the application's master is not {@code k8s://}) and into {@code k8s}.
 *
 * <pre>{@code
 * sparkrca rca /tmp/spark-events/spark-4f1c --k8s-namespace spark-jobs --k8s-context prod-eu
 * }</pre>
 */
final class KubernetesOptions {
  @Option(names = "--k8s-namespace", paramLabel = "NS",
      description = "The Kubernetes namespace the application ran in (default: spark.kubernetes.namespace, else the context's).")
  String namespace;

  @Option(names = "--k8s-context", paramLabel = "CONTEXT",
      description = "The kubeconfig context to use (default: its current context).")
  String context;

  @Option(names = "--kubeconfig", paramLabel = "FILE",
      description = "The kubeconfig file (default: as kubectl: KUBECONFIG, ~/.kube/config, the in-cluster service account).")
  Path kubeconfig;

  @Option(names = "--k8s-driver-pod", paramLabel = "POD",
      description = "The driver's pod when Spark did not create it (client mode, e.g. a notebook's pod).")
  String driverPod;

  @Option(names = "--k8s-request-timeout", paramLabel = "SECONDS",
      description = "How long one Kubernetes API request may take (default 15 s).")
  Long requestTimeoutSeconds;

  @Option(names = "--max-k8s-log-lines", paramLabel = "N",
      description = "How many trailing lines of each container's log are read (default 2000).")
  Integer maxLogLines;

  /** Whether any Kubernetes option was given. */
  boolean given() {
    return namespace != null || context != null || kubeconfig != null || driverPod != null
        || requestTimeoutSeconds != null || maxLogLines != null;
  }

  /** The settings these options say. */
  KubernetesSettings settings() {
    KubernetesSettings.Builder b = KubernetesSettings.builder();
    if (namespace != null) {
      b.namespace(namespace);
    }
    if (context != null) {
      b.context(context);
    }
    if (kubeconfig != null) {
      b.kubeconfig(kubeconfig);
    }
    if (driverPod != null) {
      b.driverPod(driverPod);
    }
    if (requestTimeoutSeconds != null) {
      if (requestTimeoutSeconds < 1) {
        throw new InvalidRequestException("--k8s-request-timeout must be at least 1 second, not " + requestTimeoutSeconds);
      }
      b.requestTimeout(Duration.ofSeconds(requestTimeoutSeconds));
    }
    if (maxLogLines != null) {
      b.logTailLines(maxLogLines);
    }
    return b.build();
  }

  /**
   * Adds the cluster, as these options name it, to {@code b}; without options the class path's
   * provider still asks kubectl's cluster about applications whose master is {@code k8s://}.
   */
  void addTo(RcaRunner.Builder runner) {
    if (given()) {
      runner.clusterEvidence(KubernetesEvidence.of(settings()));
    }
  }
}
