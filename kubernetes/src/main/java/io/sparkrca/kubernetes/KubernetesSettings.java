package io.sparkrca.kubernetes;

import io.sparkrca.core.error.InvalidRequestException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how the Kubernetes provider reads: the credentials and cluster (a kubeconfig file and
 * context, resolved as kubectl resolves them: {@code KUBECONFIG}, then {@code ~/.kube/config}, then
 * the in-cluster service account), the namespace, a client-mode driver's pod, timeouts and the caps
 * that bound what it reads. One immutable value, in the style of google-cloud-java's settings.
 * TLS verification is never disabled: a kubeconfig that asks for {@code insecure-skip-tls-verify}
 * is refused with what to do instead.
 *
 * <pre>{@code
 * KubernetesSettings k8s = KubernetesSettings.builder()
 *     .context("prod-eu")
 *     .namespace("spark-jobs")
 *     .requestTimeout(Duration.ofSeconds(5))
 *     .build();
 * }</pre>
 */
public final class KubernetesSettings {
  private static final KubernetesSettings DEFAULTS = builder().build();

  private final Optional<Path> kubeconfig;
  private final Optional<String> context;
  private final Optional<String> namespace;
  private final Optional<String> driverPod;
  private final Duration requestTimeout;
  private final Duration connectTimeout;
  private final Duration budget;
  private final int retries;
  private final int logTailLines;
  private final int maxLogBytes;
  private final int maxLogs;
  private final int maxPods;
  private final int maxNodes;
  private final int maxEvents;

  private KubernetesSettings(Builder b) {
    this.kubeconfig = b.kubeconfig;
    this.context = b.context;
    this.namespace = b.namespace;
    this.driverPod = b.driverPod;
    this.requestTimeout = b.requestTimeout;
    this.connectTimeout = b.connectTimeout;
    this.budget = b.budget;
    this.retries = b.retries;
    this.logTailLines = b.logTailLines;
    this.maxLogBytes = b.maxLogBytes;
    this.maxLogs = b.maxLogs;
    this.maxPods = b.maxPods;
    this.maxNodes = b.maxNodes;
    this.maxEvents = b.maxEvents;
  }

  /** The kubeconfig's current context and namespace, kubectl's resolution, the default caps. */
  public static KubernetesSettings defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.kubeconfig = kubeconfig;
    b.context = context;
    b.namespace = namespace;
    b.driverPod = driverPod;
    b.requestTimeout = requestTimeout;
    b.connectTimeout = connectTimeout;
    b.budget = budget;
    b.retries = retries;
    b.logTailLines = logTailLines;
    b.maxLogBytes = maxLogBytes;
    b.maxLogs = maxLogs;
    b.maxPods = maxPods;
    b.maxNodes = maxNodes;
    b.maxEvents = maxEvents;
    return b;
  }

  /** The kubeconfig file; empty: {@code KUBECONFIG}, {@code ~/.kube/config}, the in-cluster account. */
  public Optional<Path> kubeconfig() {
    return kubeconfig;
  }

  /** The kubeconfig context; empty: its current context. */
  public Optional<String> context() {
    return context;
  }

  /**
   * The namespace; empty: the application's {@code spark.kubernetes.namespace}, else the context's
   * namespace, else {@code default}.
   */
  public Optional<String> namespace() {
    return namespace;
  }

  /** A client-mode driver's pod (Spark labels only the pods it creates); empty: from the application. */
  public Optional<String> driverPod() {
    return driverPod;
  }

  /** How long one API request may take, a log read to its end included (what came by then is kept). */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** How long connecting to the API server may take. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** How long reading everything about one application may take; what is left then is a gap. */
  public Duration budget() {
    return budget;
  }

  /** How often a request that failed on the network or with 429/5xx is tried again. */
  public int retries() {
    return retries;
  }

  /** How many trailing lines of a container's log are read. */
  public int logTailLines() {
    return logTailLines;
  }

  /**
   * The most bytes of one container's log kept (its last ones). A server that sends more than 8
   * times this for the tail asked for (it ignored tailLines) is read only so far, with a gap.
   */
  public int maxLogBytes() {
    return maxLogBytes;
  }

  /** How many pods' logs are read (the driver first, then failed executors). */
  public int maxLogs() {
    return maxLogs;
  }

  /** The most pods of one application described. */
  public int maxPods() {
    return maxPods;
  }

  /** The most nodes read. */
  public int maxNodes() {
    return maxNodes;
  }

  /** The most events read from one namespace. */
  public int maxEvents() {
    return maxEvents;
  }

  @Override
  public String toString() {
    return "KubernetesSettings{kubeconfig=" + kubeconfig.map(Path::toString).orElse("(kubectl's)")
        + ", context=" + context.orElse("(current)") + ", namespace=" + namespace.orElse("(resolved)")
        + ", requestTimeout=" + requestTimeout + "}";
  }

  /** Builder for {@link KubernetesSettings}. */
  public static final class Builder {
    private Optional<Path> kubeconfig = Optional.empty();
    private Optional<String> context = Optional.empty();
    private Optional<String> namespace = Optional.empty();
    private Optional<String> driverPod = Optional.empty();
    private Duration requestTimeout = Duration.ofSeconds(15);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration budget = Duration.ofMinutes(2);
    private int retries = 2;
    private int logTailLines = 2000;
    private int maxLogBytes = 1 << 20;
    private int maxLogs = 8;
    private int maxPods = 500;
    private int maxNodes = 20;
    private int maxEvents = 5000;

    private Builder() {}

    /** A kubeconfig file to read instead of kubectl's ({@code KUBECONFIG}, {@code ~/.kube/config}). */
    public Builder kubeconfig(Path file) {
      this.kubeconfig = Optional.of(Objects.requireNonNull(file, "file"));
      return this;
    }

    /** A context of the kubeconfig instead of its current one. */
    public Builder context(String name) {
      this.context = Optional.of(name(name, "context"));
      return this;
    }

    /** The namespace the application ran in. */
    public Builder namespace(String name) {
      this.namespace = Optional.of(name(name, "namespace"));
      return this;
    }

    /** The driver's pod, for a client-mode driver whose pod Spark did not create or label. */
    public Builder driverPod(String name) {
      this.driverPod = Optional.of(name(name, "driver pod"));
      return this;
    }

    public Builder requestTimeout(Duration d) {
      this.requestTimeout = positive(d, "request timeout");
      return this;
    }

    public Builder connectTimeout(Duration d) {
      this.connectTimeout = positive(d, "connect timeout");
      return this;
    }

    public Builder budget(Duration d) {
      this.budget = positive(d, "time budget");
      return this;
    }

    public Builder retries(int n) {
      this.retries = range(n, 0, 10, "retries");
      return this;
    }

    public Builder logTailLines(int n) {
      this.logTailLines = range(n, 1, 1_000_000, "log tail lines");
      return this;
    }

    public Builder maxLogBytes(int n) {
      this.maxLogBytes = range(n, 1024, 64 << 20, "log bytes");
      return this;
    }

    public Builder maxLogs(int n) {
      this.maxLogs = range(n, 0, 200, "logs");
      return this;
    }

    public Builder maxPods(int n) {
      this.maxPods = range(n, 1, 100_000, "pods");
      return this;
    }

    public Builder maxNodes(int n) {
      this.maxNodes = range(n, 0, 1000, "nodes");
      return this;
    }

    public Builder maxEvents(int n) {
      this.maxEvents = range(n, 1, 1_000_000, "events");
      return this;
    }

    public KubernetesSettings build() {
      return new KubernetesSettings(this);
    }

    private static String name(String value, String what) {
      Objects.requireNonNull(value, what);
      if (value.isBlank()) {
        throw new InvalidRequestException("the Kubernetes " + what + " is empty");
      }
      return value.trim();
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new InvalidRequestException("the Kubernetes " + what + " must be positive, not " + d);
      }
      return d;
    }

    private static int range(int n, int min, int max, String what) {
      if (n < min || n > max) {
        throw new InvalidRequestException("the Kubernetes " + what + " setting must be between " + min + " and " + max
            + ", not " + n);
      }
      return n;
    }
  }
}
