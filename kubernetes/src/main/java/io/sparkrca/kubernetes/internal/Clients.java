package io.sparkrca.kubernetes.internal;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.KubernetesSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds the fabric8 client the way kubectl resolves its configuration: a kubeconfig named in the
 * settings, else {@code KUBECONFIG} (a list of files), else {@code ~/.kube/config}, else the
 * in-cluster service account; the context named, else the current one. The settings' timeouts and
 * retries apply. TLS verification stays on: a configuration that would turn it off is refused.
 */
public final class Clients {
  private static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private Clients() {}

  /** Whether kubectl would find credentials here (without reading or contacting anything). */
  public static boolean credentialsAvailable(KubernetesSettings s) {
    if (s.kubeconfig().isPresent()) {
      return true;
    }
    for (String f : Config.getKubeconfigFilenames()) {
      if (Files.isRegularFile(Path.of(f))) {
        return true;
      }
    }
    return System.getenv("KUBERNETES_SERVICE_HOST") != null && Files.isReadable(SERVICE_ACCOUNT_TOKEN);
  }

  /** The client configuration for these settings. */
  public static Config config(KubernetesSettings s) {
    Config config;
    String where = s.kubeconfig().map(Path::toString).orElse("the kubeconfig (KUBECONFIG, ~/.kube/config)");
    try {
      if (s.kubeconfig().isPresent()) {
        Path file = s.kubeconfig().get();
        if (!Files.isRegularFile(file)) {
          throw new InputNotFoundException("kubeconfig " + file, "check the path of the kubeconfig file");
        }
        config = Config.fromKubeconfig(s.context().orElse(null), file.toFile());
      } else {
        if (!credentialsAvailable(s)) {
          throw new InputNotFoundException("Kubernetes credentials", "neither KUBECONFIG, ~/.kube/config nor an "
              + "in-cluster service account is there: give a kubeconfig file, or run where kubectl works");
        }
        config = Config.autoConfigure(s.context().orElse(null));
      }
    } catch (SparkRcaException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new SparkRcaException("could not read " + where + (s.context().map(c -> " for context " + c).orElse(""))
          + ": " + Redactor.standard().redactText(String.valueOf(e.getMessage()))
          + "; check the file and the context name (kubectl config get-contexts)", e);
    }
    if (s.context().isPresent() && config.getCurrentContext() != null
        && !s.context().get().equals(config.getCurrentContext().getName())) {
      throw new InputNotFoundException("Kubernetes context " + s.context().get() + " in " + where,
          "list the contexts with kubectl config get-contexts");
    }
    String master = Optional.ofNullable(config.getMasterUrl()).orElse("");
    if (master.toLowerCase(Locale.ROOT).startsWith("https") && (config.isTrustCerts() || config.isDisableHostnameVerification())) {
      throw new AccessDeniedException("the Kubernetes API server " + Redactor.redactUri(master),
          "the configuration turns TLS verification off (insecure-skip-tls-verify, KUBERNETES_TRUST_CERTIFICATES or "
              + "KUBERNETES_DISABLE_HOSTNAME_VERIFICATION)",
          "sparkrca never turns TLS verification off: give the cluster's CA (certificate-authority-data in the "
              + "kubeconfig) instead");
    }
    config.setRequestTimeout((int) Math.min(Integer.MAX_VALUE, s.requestTimeout().toMillis()));
    config.setConnectionTimeout((int) Math.min(Integer.MAX_VALUE, s.connectTimeout().toMillis()));
    config.setRequestRetryBackoffLimit(s.retries());
    config.setRequestRetryBackoffInterval(200);
    // HTTP/1.1: every API server speaks it, the requests here are few and sequential, and the JDK
    // client's HTTP/2 stalls against some servers (fabric8's own mock server among them).
    config.setHttp2Disable(true);
    return config;
  }

  /** A client for these settings; close it after use. */
  public static KubernetesClient create(KubernetesSettings s) {
    Config config = config(s);
    try {
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (RuntimeException e) {
      // No HTTP client on the class path, or a certificate or key the kubeconfig names that is unreadable.
      throw new SparkRcaException("could not set up the Kubernetes client for "
          + Redactor.redactUri(Optional.ofNullable(config.getMasterUrl()).orElse("the API server")) + ": "
          + Redactor.standard().redactText(String.valueOf(e.getMessage()))
          + "; check the kubeconfig's certificate and key entries", e);
    }
  }

  /** The namespace of the configuration's context (or the in-cluster account's), when it names one. */
  public static Optional<String> contextNamespace(Config config) {
    return Optional.ofNullable(config.getNamespace()).filter(n -> !n.isBlank());
  }
}
