package io.sparkrca.gcp;

import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.auth.oauth2.GoogleCredentials;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.gcp.internal.GcloudConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the Google Cloud provider needs to reach Google, in one place: the project and
 * region, the credentials (Application Default Credentials, an explicit credentials file, or none
 * for an emulator or fake on loopback), and the endpoint of every API, each overridable for
 * emulators, fakes and private endpoints. Values not set here come from the environment and the
 * gcloud configuration, as gcloud itself resolves them.
 *
 * <table>
 *   <caption>Where each value comes from, first match wins</caption>
 *   <tr><th>value</th><th>builder</th><th>environment</th><th>gcloud configuration</th></tr>
 *   <tr><td>project</td><td>{@link Builder#project}</td><td>{@code CLOUDSDK_CORE_PROJECT},
 *       {@code GOOGLE_CLOUD_PROJECT}</td><td>{@code [core] project}</td></tr>
 *   <tr><td>region</td><td>{@link Builder#region}</td><td>{@code CLOUDSDK_DATAPROC_REGION}</td>
 *       <td>{@code [dataproc] region}</td></tr>
 *   <tr><td>Dataproc (gRPC)</td><td>{@link Builder#dataprocEndpoint}</td><td>{@code SPARKRCA_DATAPROC_ENDPOINT}</td>
 *       <td>{@code {region}-dataproc.googleapis.com:443}</td></tr>
 *   <tr><td>sparkApplications (REST)</td><td>{@link Builder#sparkApplicationsEndpoint}</td>
 *       <td>{@code SPARKRCA_DATAPROC_REST_ENDPOINT}</td><td>{@code https://{region}-dataproc.googleapis.com}</td></tr>
 *   <tr><td>Cloud Logging (gRPC)</td><td>{@link Builder#loggingEndpoint}</td><td>{@code SPARKRCA_LOGGING_ENDPOINT}</td>
 *       <td>{@code logging.googleapis.com:443}</td></tr>
 *   <tr><td>Cloud Storage (JSON API)</td><td>{@link Builder#storageEndpoint}</td><td>{@code STORAGE_EMULATOR_HOST}</td>
 *       <td>{@code https://storage.googleapis.com}</td></tr>
 *   <tr><td>credentials file</td><td>{@link Builder#credentialsFile}</td><td>{@code GOOGLE_APPLICATION_CREDENTIALS}
 *       (read by ADC)</td><td>gcloud's application default credentials</td></tr>
 * </table>
 *
 * <p>An endpoint on a loopback address gets no credentials (emulators and fakes need none) unless
 * credentials are given explicitly; every other endpoint gets Application Default Credentials.
 * TLS is never turned off: a loopback gRPC endpoint is plain text only because it has no TLS.
 *
 * <pre>{@code
 * GcpSettings gcp = GcpSettings.builder().project("my-project").region("europe-west1").build();
 * GcpSettings fake = GcpSettings.builder().project("p").region("r")
 *     .sparkApplicationsEndpoint("http://127.0.0.1:8089").storageEndpoint("http://127.0.0.1:4443").build();
 * }</pre>
 */
public final class GcpSettings {
  /** The OAuth scope every call uses. */
  public static final String CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

  /** The default of {@link Builder#maxResponseBytes}: 64 MiB. */
  public static final long DEFAULT_MAX_RESPONSE_BYTES = 64L << 20;

  private final Optional<String> project;
  private final Optional<String> region;
  private final Optional<String> dataprocEndpoint;
  private final Optional<String> restEndpoint;
  private final Optional<String> loggingEndpoint;
  private final Optional<String> storageEndpoint;
  private final Optional<Path> credentialsFile;
  private final Optional<GoogleCredentials> credentials;
  private final boolean noCredentials;
  private final Optional<TransportChannelProvider> dataprocTransport;
  private final Optional<TransportChannelProvider> loggingTransport;
  private final Duration timeout;
  private final int maxAttempts;
  private final Duration retryDelay;
  private final int parallelism;
  private final long maxResponseBytes;
  private final Map<String, String> env;
  private final GcloudConfig gcloud;

  private GcpSettings(Builder b) {
    this.env = b.env;
    this.gcloud = GcloudConfig.read(b.gcloudConfigDir.orElseGet(() -> GcloudConfig.defaultDir(env)));
    this.project = b.project.or(() -> nonEmpty(env.get("CLOUDSDK_CORE_PROJECT")))
        .or(() -> nonEmpty(env.get("GOOGLE_CLOUD_PROJECT"))).or(() -> gcloud.get("core", "project"));
    this.region = b.region.or(() -> nonEmpty(env.get("CLOUDSDK_DATAPROC_REGION")))
        .or(() -> gcloud.get("dataproc", "region"));
    this.dataprocEndpoint = b.dataprocEndpoint.or(() -> nonEmpty(env.get("SPARKRCA_DATAPROC_ENDPOINT")));
    this.restEndpoint = b.restEndpoint.or(() -> nonEmpty(env.get("SPARKRCA_DATAPROC_REST_ENDPOINT")));
    this.loggingEndpoint = b.loggingEndpoint.or(() -> nonEmpty(env.get("SPARKRCA_LOGGING_ENDPOINT")));
    this.storageEndpoint = b.storageEndpoint.or(() -> nonEmpty(env.get("STORAGE_EMULATOR_HOST")))
        .map(GcpSettings::withScheme);
    this.credentialsFile = b.credentialsFile;
    this.credentials = b.credentials;
    this.noCredentials = b.noCredentials;
    this.dataprocTransport = b.dataprocTransport;
    this.loggingTransport = b.loggingTransport;
    this.timeout = b.timeout;
    this.maxAttempts = b.maxAttempts;
    this.retryDelay = b.retryDelay;
    this.parallelism = b.parallelism;
    this.maxResponseBytes = b.maxResponseBytes;
  }

  /** Settings from the environment and the gcloud configuration alone. */
  public static GcpSettings defaults() {
    return Defaults.INSTANCE;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.project = project;
    b.region = region;
    b.dataprocEndpoint = dataprocEndpoint;
    b.restEndpoint = restEndpoint;
    b.loggingEndpoint = loggingEndpoint;
    b.storageEndpoint = storageEndpoint;
    b.credentialsFile = credentialsFile;
    b.credentials = credentials;
    b.noCredentials = noCredentials;
    b.dataprocTransport = dataprocTransport;
    b.loggingTransport = loggingTransport;
    b.timeout = timeout;
    b.maxAttempts = maxAttempts;
    b.retryDelay = retryDelay;
    b.parallelism = parallelism;
    b.maxResponseBytes = maxResponseBytes;
    b.env = env;
    return b;
  }

  /** The project, when given or configured. */
  public Optional<String> project() {
    return project;
  }

  /** The region, when given or configured. */
  public Optional<String> region() {
    return region;
  }

  /** The project; an error naming every way to set it when there is none. */
  public String requireProject() {
    return project.orElseThrow(() -> new InvalidRequestException(
        "no Google Cloud project: name one, set CLOUDSDK_CORE_PROJECT (or GOOGLE_CLOUD_PROJECT), or set it in the "
            + "gcloud configuration with 'gcloud config set project PROJECT'"));
  }

  /** The region; an error naming every way to set it when there is none. */
  public String requireRegion() {
    return region.orElseThrow(() -> new InvalidRequestException(
        "no Dataproc region: name one, set CLOUDSDK_DATAPROC_REGION, or set it in the gcloud configuration with "
            + "'gcloud config set dataproc/region REGION'"));
  }

  /** The Dataproc control plane's gRPC endpoint ({@code host:port}) for {@code region}. */
  public String dataprocEndpoint(String region) {
    return dataprocEndpoint.orElse(region + "-dataproc.googleapis.com:443");
  }

  /** The base URL of the Dataproc REST API (sparkApplications) for {@code region}, without a trailing slash. */
  public String sparkApplicationsEndpoint(String region) {
    String e = restEndpoint.orElse("https://" + region + "-dataproc.googleapis.com");
    return e.endsWith("/") ? e.substring(0, e.length() - 1) : e;
  }

  /** Cloud Logging's gRPC endpoint ({@code host:port}). */
  public String loggingEndpoint() {
    return loggingEndpoint.orElse("logging.googleapis.com:443");
  }

  /** The Cloud Storage JSON API host, e.g. {@code https://storage.googleapis.com}. */
  public String storageEndpoint() {
    return storageEndpoint.orElse("https://storage.googleapis.com");
  }

  /** Whether the Cloud Storage endpoint was overridden (an emulator, a fake, a private endpoint). */
  public boolean storageOverridden() {
    return storageEndpoint.isPresent();
  }

  /** An in-process or custom gRPC transport for Dataproc (emulators, tests). */
  public Optional<TransportChannelProvider> dataprocTransport() {
    return dataprocTransport;
  }

  /** An in-process or custom gRPC transport for Cloud Logging (emulators, tests). */
  public Optional<TransportChannelProvider> loggingTransport() {
    return loggingTransport;
  }

  /** An explicit credentials file (a service-account key or authorized-user JSON). */
  public Optional<Path> credentialsFile() {
    return credentialsFile;
  }

  /** Credentials given in code. */
  public Optional<GoogleCredentials> credentials() {
    return credentials;
  }

  /** Whether credentials were turned off explicitly. */
  public boolean noCredentials() {
    return noCredentials;
  }

  /** Whether credentials were named explicitly (in code or as a file). */
  public boolean explicitCredentials() {
    return credentials.isPresent() || credentialsFile.isPresent();
  }

  /**
   * The timeout of one call, whole: for a REST call from sending the request to the last byte of
   * the answer; for a gRPC call (Dataproc, Cloud Logging) its deadline, retries included.
   */
  public Duration timeout() {
    return timeout;
  }

  /** How many times a call is tried in all when it fails with a transient status (429, 502, 503, 504). */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The delay before the first retry; doubled (with jitter) for each further one. */
  public Duration retryDelay() {
    return retryDelay;
  }

  /** How many REST calls run at once when a profile fetches many stages. */
  public int parallelism() {
    return parallelism;
  }

  /** The largest answer one REST call may return; a larger one is an error, never read to the end. */
  public long maxResponseBytes() {
    return maxResponseBytes;
  }

  /**
   * Whether {@code endpoint} (a URL or host:port) is on a loopback address: an address in
   * 127.0.0.0/8, ::1 or the name localhost, parsed, never looked up (see {@link
   * io.sparkrca.core.io.Loopback}).
   */
  public static boolean isLoopback(String endpoint) {
    if (endpoint.contains("://")) {
      String host = URI.create(endpoint).getHost();
      return host != null && io.sparkrca.core.io.Loopback.isLoopbackHost(host);
    }
    return io.sparkrca.core.io.Loopback.isLoopbackHostPort(endpoint);
  }

  private static String withScheme(String host) {
    return host.contains("://") ? host : "http://" + host;
  }

  private static Optional<String> nonEmpty(String s) {
    return s == null || s.isBlank() ? Optional.empty() : Optional.of(s.trim());
  }

  @Override
  public String toString() {
    return "GcpSettings{project=" + project.orElse("?") + ", region=" + region.orElse("?") + "}";
  }

  /** Builder for {@link GcpSettings}; every value is optional. */
  public static final class Builder {
    private Optional<String> project = Optional.empty();
    private Optional<String> region = Optional.empty();
    private Optional<String> dataprocEndpoint = Optional.empty();
    private Optional<String> restEndpoint = Optional.empty();
    private Optional<String> loggingEndpoint = Optional.empty();
    private Optional<String> storageEndpoint = Optional.empty();
    private Optional<Path> credentialsFile = Optional.empty();
    private Optional<GoogleCredentials> credentials = Optional.empty();
    private boolean noCredentials;
    private Optional<TransportChannelProvider> dataprocTransport = Optional.empty();
    private Optional<TransportChannelProvider> loggingTransport = Optional.empty();
    private Duration timeout = Duration.ofSeconds(60);
    private int maxAttempts = 4;
    private Duration retryDelay = Duration.ofMillis(500);
    private int parallelism = 8;
    private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
    private Map<String, String> env = System.getenv();
    private Optional<Path> gcloudConfigDir = Optional.empty();

    private Builder() {}

    public Builder project(String project) {
      this.project = Optional.of(nonBlank(project, "project"));
      return this;
    }

    public Builder region(String region) {
      this.region = Optional.of(nonBlank(region, "region"));
      return this;
    }

    /** The Dataproc gRPC endpoint, {@code host:port}. */
    public Builder dataprocEndpoint(String hostPort) {
      this.dataprocEndpoint = Optional.of(nonBlank(hostPort, "Dataproc endpoint"));
      return this;
    }

    /** The Dataproc REST base URL used for sparkApplications, e.g. {@code http://127.0.0.1:8089}. */
    public Builder sparkApplicationsEndpoint(String baseUrl) {
      this.restEndpoint = Optional.of(nonBlank(baseUrl, "sparkApplications endpoint"));
      return this;
    }

    /** The Cloud Logging gRPC endpoint, {@code host:port}. */
    public Builder loggingEndpoint(String hostPort) {
      this.loggingEndpoint = Optional.of(nonBlank(hostPort, "Logging endpoint"));
      return this;
    }

    /** The Cloud Storage JSON API host, e.g. {@code http://127.0.0.1:4443} (as STORAGE_EMULATOR_HOST). */
    public Builder storageEndpoint(String host) {
      this.storageEndpoint = Optional.of(withScheme(nonBlank(host, "Storage endpoint")));
      return this;
    }

    /** A credentials file to use instead of Application Default Credentials. */
    public Builder credentialsFile(Path file) {
      this.credentialsFile = Optional.of(Objects.requireNonNull(file, "file"));
      this.noCredentials = false;
      return this;
    }

    /** Credentials to use instead of Application Default Credentials. */
    public Builder credentials(GoogleCredentials credentials) {
      this.credentials = Optional.of(Objects.requireNonNull(credentials, "credentials"));
      this.noCredentials = false;
      return this;
    }

    /** Sends no credentials at all (an emulator or fake that needs none). */
    public Builder noCredentials() {
      this.noCredentials = true;
      this.credentials = Optional.empty();
      this.credentialsFile = Optional.empty();
      return this;
    }

    /** A gRPC transport for Dataproc (an in-process server, an emulator), instead of the endpoint. */
    public Builder dataprocTransport(TransportChannelProvider transport) {
      this.dataprocTransport = Optional.of(Objects.requireNonNull(transport, "transport"));
      return this;
    }

    /** A gRPC transport for Cloud Logging (an in-process server, an emulator), instead of the endpoint. */
    public Builder loggingTransport(TransportChannelProvider transport) {
      this.loggingTransport = Optional.of(Objects.requireNonNull(transport, "transport"));
      return this;
    }

    /** The timeout of one call, answer included (default 60 s); see {@link GcpSettings#timeout()}. */
    public Builder timeout(Duration timeout) {
      if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()) {
        throw new InvalidRequestException("the Google Cloud timeout must be positive, not " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** Attempts per call on 429/502/503/504 (default 4), and the first delay (default 500 ms). */
    public Builder retries(int maxAttempts, Duration firstDelay) {
      if (maxAttempts < 1 || maxAttempts > 10) {
        throw new InvalidRequestException("attempts per call must be between 1 and 10, not " + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      this.retryDelay = Objects.requireNonNull(firstDelay, "firstDelay");
      return this;
    }

    /** REST calls in flight at once for a profile (default 8). */
    public Builder parallelism(int calls) {
      if (calls < 1 || calls > 64) {
        throw new InvalidRequestException("parallel calls must be between 1 and 64, not " + calls);
      }
      this.parallelism = calls;
      return this;
    }

    /**
     * The largest answer one REST call may return (default 64 MiB, at least 1 KiB). A page of 100
     * stages with their quantiles is a few hundred KiB; a larger answer means a wrong endpoint, and
     * it is refused before it fills the heap.
     */
    public Builder maxResponseBytes(long bytes) {
      if (bytes < 1024) {
        throw new InvalidRequestException("the largest answer must be at least 1024 bytes, not " + bytes);
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /** The environment to read (default the process's); for tests and embedding. */
    public Builder environment(Map<String, String> env) {
      this.env = Map.copyOf(env);
      return this;
    }

    /** The gcloud configuration directory (default {@code CLOUDSDK_CONFIG} or {@code ~/.config/gcloud}). */
    public Builder gcloudConfigDir(Path dir) {
      this.gcloudConfigDir = Optional.of(Objects.requireNonNull(dir, "dir"));
      return this;
    }

    public GcpSettings build() {
      return new GcpSettings(this);
    }

    private static String nonBlank(String v, String what) {
      Objects.requireNonNull(v, what);
      if (v.isBlank()) {
        throw new InvalidRequestException("the " + what + " is empty");
      }
      return v.trim();
    }
  }

  /** Made on first use: they read the environment and the gcloud configuration files, which a command that reads no Google Cloud source never needs. */
  private static final class Defaults {
    static final GcpSettings INSTANCE = builder().build();
  }
}
