package io.sparkrca.cli;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.analysis.rca.RcaRunner;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.io.HttpByteSourceProvider;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocEvidenceProvider;
import io.sparkrca.gcp.dataproc.DataprocWorkload;
import io.sparkrca.gcp.storage.GcsByteSourceProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The Dataproc workload a command reads ({@code --batch}, {@code --session} or {@code --job}) and
 * where Google Cloud is ({@code --project}, {@code --region}, endpoint overrides, a credentials
 * file, how long one call may take). Sugar over the gcp module: the flags build a {@code dataproc:}
 * workload URI and the {@link GcpSettings} its providers read with; without flags those come from
 * the environment and the gcloud configuration, exactly as for a {@code dataproc:} or {@code gs://}
 * URI given directly.
 */
final class DataprocOptions {
  @Option(names = "--batch", paramLabel = "ID", description = "A Dataproc Serverless batch to diagnose.")
  String batch;

  @Option(names = "--session", paramLabel = "ID", description = "A Dataproc Serverless (interactive) session.")
  String session;

  @Option(names = "--job", paramLabel = "ID", description = "A job on a Dataproc cluster.")
  String job;

  @Option(names = "--project", paramLabel = "PROJECT",
      description = "The Google Cloud project (default: CLOUDSDK_CORE_PROJECT, then the gcloud configuration).")
  String project;

  @Option(names = "--region", paramLabel = "REGION",
      description = "The Dataproc region (default: CLOUDSDK_DATAPROC_REGION, then gcloud's dataproc/region).")
  String region;

  @Option(names = "--gcp-credentials", paramLabel = "JSON",
      description = "A service-account or authorized-user credentials file (default: Application Default Credentials).")
  Path credentials;

  @Option(names = "--dataproc-endpoint", paramLabel = "HOST:PORT",
      description = "The Dataproc gRPC endpoint (env SPARKRCA_DATAPROC_ENDPOINT; default REGION-dataproc.googleapis.com:443).")
  String dataprocEndpoint;

  @Option(names = "--sparkapplications-endpoint", paramLabel = "URL",
      description = "The Dataproc REST base URL for sparkApplications (env SPARKRCA_DATAPROC_REST_ENDPOINT).")
  String restEndpoint;

  @Option(names = "--logging-endpoint", paramLabel = "HOST:PORT",
      description = "The Cloud Logging gRPC endpoint (env SPARKRCA_LOGGING_ENDPOINT).")
  String loggingEndpoint;

  @Option(names = "--storage-endpoint", paramLabel = "URL",
      description = "The Cloud Storage endpoint, e.g. an emulator (env STORAGE_EMULATOR_HOST).")
  String storageEndpoint;

  @Option(names = "--gcp-timeout", paramLabel = "SECONDS",
      description = "How long one Google Cloud call may take, its whole answer included (default 60 s).")
  Long timeoutSeconds;

  /** The workload the flags name, as a {@code dataproc:} URI; empty when none was given. */
  Optional<String> workloadUri() {
    List<String> given = new ArrayList<>();
    Optional<DataprocWorkload.Type> type = Optional.empty();
    String id = null;
    if (batch != null) {
      given.add("--batch");
      type = Optional.of(DataprocWorkload.Type.BATCH);
      id = batch;
    }
    if (session != null) {
      given.add("--session");
      type = Optional.of(DataprocWorkload.Type.SESSION);
      id = session;
    }
    if (job != null) {
      given.add("--job");
      type = Optional.of(DataprocWorkload.Type.JOB);
      id = job;
    }
    if (given.size() > 1) {
      throw new InvalidRequestException("give one of --batch, --session or --job, not " + String.join(" and ", given));
    }
    if (type.isEmpty()) {
      return Optional.empty();
    }
    DataprocWorkload w = DataprocWorkload.of(type.get(), id, settings());
    return Optional.of(DataprocWorkload.uri(w.type(), w.id(), Optional.of(w.project()), Optional.of(w.region())));
  }

  /** The Google Cloud settings: these flags over the environment and the gcloud configuration. */
  GcpSettings settings() {
    GcpSettings.Builder b = GcpSettings.builder();
    if (project != null) {
      b.project(project);
    }
    if (region != null) {
      b.region(region);
    }
    if (credentials != null) {
      b.credentialsFile(credentials);
    }
    if (dataprocEndpoint != null) {
      b.dataprocEndpoint(dataprocEndpoint);
    }
    if (restEndpoint != null) {
      b.sparkApplicationsEndpoint(restEndpoint);
    }
    if (loggingEndpoint != null) {
      b.loggingEndpoint(loggingEndpoint);
    }
    if (storageEndpoint != null) {
      b.storageEndpoint(storageEndpoint);
    }
    if (timeoutSeconds != null) {
      if (timeoutSeconds < 1) {
        throw new InvalidRequestException("--gcp-timeout must be at least 1 second, not " + timeoutSeconds);
      }
      b.timeout(Duration.ofSeconds(timeoutSeconds));
    }
    return b.build();
  }

  /** Byte sources reading gs:// with these settings, then the class path's providers and http(s) as {@code http} says. */
  ByteSources byteSources(HttpOptions http) {
    return ByteSources.builder().add(GcsByteSourceProvider.of(settings())).loadServiceProviders()
        .add(HttpByteSourceProvider.of(http.settings())).build();
  }

  /** Gives {@code runner} what describes the workload, read with these settings; nothing when no workload flag was given. */
  void addTo(RcaRunner.Builder runner) {
    if (workloadUri().isPresent()) {
      runner.workloadEvidence(new DataprocEvidenceProvider(settings()));
    }
  }
}
