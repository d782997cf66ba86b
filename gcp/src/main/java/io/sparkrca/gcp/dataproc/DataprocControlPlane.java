package io.sparkrca.gcp.dataproc;

import com.google.api.core.ApiFunction;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.api.gax.grpc.InstantiatingGrpcChannelProvider;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.api.gax.rpc.TransportChannelProvider;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.BatchControllerClient;
import com.google.cloud.dataproc.v1.BatchControllerSettings;
import com.google.cloud.dataproc.v1.Cluster;
import com.google.cloud.dataproc.v1.ClusterControllerClient;
import com.google.cloud.dataproc.v1.ClusterControllerSettings;
import com.google.cloud.dataproc.v1.Job;
import com.google.cloud.dataproc.v1.JobControllerClient;
import com.google.cloud.dataproc.v1.JobControllerSettings;
import com.google.cloud.dataproc.v1.ListBatchesRequest;
import com.google.cloud.dataproc.v1.RuntimeConfig;
import com.google.cloud.dataproc.v1.Session;
import com.google.cloud.dataproc.v1.SessionControllerClient;
import com.google.cloud.dataproc.v1.SessionControllerSettings;
import com.google.cloud.dataproc.v1.YarnApplication;
import com.google.protobuf.Timestamp;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.Credentials;
import io.sparkrca.gcp.internal.Deadlines;
import io.sparkrca.gcp.internal.Messages;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Dataproc control plane over gRPC (google-cloud-dataproc): batches and sessions {@code get}
 * and {@code list}, cluster jobs and clusters {@code get}, with the endpoint, transport and
 * credentials of {@link GcpSettings} (plain text and no credentials for a loopback endpoint; an
 * in-process transport for tests). Failures are sparkrca exceptions naming the exact call and what
 * to do. Clients are created on first use and closed with this object.
 *
 * <pre>{@code
 * try (DataprocControlPlane dp = DataprocControlPlane.create(GcpSettings.defaults(), "us-central1")) {
 *   WorkloadRecord b = dp.describe(DataprocWorkload.parse("dataproc:batches/b-1", GcpSettings.defaults()));
 *   System.out.println(b.describe());
 * }
 * }</pre>
 */
public final class DataprocControlPlane implements AutoCloseable {
  private static final Pattern YARN_APP = Pattern.compile("(application_\\d+_\\d+)");

  private final GcpSettings settings;
  private final String region;
  private BatchControllerClient batches;
  private SessionControllerClient sessions;
  private JobControllerClient jobs;
  private ClusterControllerClient clusters;

  private DataprocControlPlane(GcpSettings settings, String region) {
    this.settings = settings;
    this.region = region;
  }

  public static DataprocControlPlane create(GcpSettings settings, String region) {
    return new DataprocControlPlane(settings, region);
  }

  /** The workload's record, by the {@code get} of its kind. */
  public WorkloadRecord describe(DataprocWorkload w) {
    return switch (w.type()) {
      case BATCH -> batch(w);
      case SESSION -> session(w);
      case JOB -> job(w);
    };
  }

  private WorkloadRecord batch(DataprocWorkload w) {
    String call = "BatchController.GetBatch(" + w.parent() + ")";
    Batch b = call(call, w, () -> batches().getBatch(w.parent()));
    Optional<String> main = Optional.empty();
    Optional<String> mainClass = Optional.empty();
    List<String> other = new ArrayList<>();
    if (b.hasPysparkBatch()) {
      main = nonEmpty(b.getPysparkBatch().getMainPythonFileUri());
      other.addAll(b.getPysparkBatch().getPythonFileUrisList());
      other.addAll(b.getPysparkBatch().getJarFileUrisList());
    } else if (b.hasSparkBatch()) {
      main = nonEmpty(b.getSparkBatch().getMainJarFileUri());
      mainClass = nonEmpty(b.getSparkBatch().getMainClass());
      other.addAll(b.getSparkBatch().getJarFileUrisList());
    } else if (b.hasSparkSqlBatch()) {
      main = nonEmpty(b.getSparkSqlBatch().getQueryFileUri());
      other.addAll(b.getSparkSqlBatch().getJarFileUrisList());
    } else if (b.hasSparkRBatch()) {
      main = nonEmpty(b.getSparkRBatch().getMainRFileUri());
    }
    return new WorkloadRecord(w, call, b.getState().name(), b.getStateMessage(), time(b.getStateTime()),
        time(b.getCreateTime()), nonEmpty(b.getRuntimeInfo().getOutputUri()), Optional.empty(), main, mainClass, other,
        b.getRuntimeConfig().getPropertiesMap(), autotuning(b.getRuntimeConfig()), Optional.empty(), List.of());
  }

  private WorkloadRecord session(DataprocWorkload w) {
    String call = "SessionController.GetSession(" + w.parent() + ")";
    Session s = call(call, w, () -> sessions().getSession(w.parent()));
    return new WorkloadRecord(w, call, s.getState().name(), s.getStateMessage(), time(s.getStateTime()),
        time(s.getCreateTime()), nonEmpty(s.getRuntimeInfo().getOutputUri()), Optional.empty(), Optional.empty(),
        Optional.empty(), List.of(), s.getRuntimeConfig().getPropertiesMap(), autotuning(s.getRuntimeConfig()),
        Optional.empty(), List.of());
  }

  private WorkloadRecord job(DataprocWorkload w) {
    String call = "JobController.GetJob(projects/" + w.project() + "/regions/" + w.region() + "/jobs/" + w.id() + ")";
    Job j = call(call, w, () -> jobs().getJob(w.project(), w.region(), w.id()));
    Optional<String> main = Optional.empty();
    Optional<String> mainClass = Optional.empty();
    List<String> other = new ArrayList<>();
    Map<String, String> props = new LinkedHashMap<>();
    if (j.hasPysparkJob()) {
      main = nonEmpty(j.getPysparkJob().getMainPythonFileUri());
      other.addAll(j.getPysparkJob().getPythonFileUrisList());
      other.addAll(j.getPysparkJob().getJarFileUrisList());
      props.putAll(j.getPysparkJob().getPropertiesMap());
    } else if (j.hasSparkJob()) {
      main = nonEmpty(j.getSparkJob().getMainJarFileUri());
      mainClass = nonEmpty(j.getSparkJob().getMainClass());
      other.addAll(j.getSparkJob().getJarFileUrisList());
      props.putAll(j.getSparkJob().getPropertiesMap());
    } else if (j.hasSparkSqlJob()) {
      main = nonEmpty(j.getSparkSqlJob().getQueryFileUri());
      props.putAll(j.getSparkSqlJob().getPropertiesMap());
    } else if (j.hasSparkRJob()) {
      main = nonEmpty(j.getSparkRJob().getMainRFileUri());
      props.putAll(j.getSparkRJob().getPropertiesMap());
    }
    List<String> apps = new ArrayList<>();
    for (YarnApplication y : j.getYarnApplicationsList()) {
      Matcher m = YARN_APP.matcher(y.getTrackingUrl() + " " + y.getName());
      if (m.find() && !apps.contains(m.group(1))) {
        apps.add(m.group(1));
      }
    }
    Optional<Instant> created = j.getStatusHistoryList().stream().map(s -> time(s.getStateStartTime()))
        .flatMap(Optional::stream).min(Instant::compareTo);
    return new WorkloadRecord(w, call, j.getStatus().getState().name(), j.getStatus().getDetails(),
        time(j.getStatus().getStateStartTime()), created, Optional.empty(), nonEmpty(j.getDriverOutputResourceUri()),
        main, mainClass, other, props, List.of(), nonEmpty(j.getPlacement().getClusterName()), apps);
  }

  /** A cluster, for its Spark event-log directory and history server. */
  public Cluster cluster(DataprocWorkload job, String clusterName) {
    String call = "ClusterController.GetCluster(projects/" + job.project() + "/regions/" + job.region() + "/clusters/"
        + clusterName + ")";
    return call(call, job, () -> clusters().getCluster(job.project(), job.region(), clusterName));
  }

  /** Up to {@code max} batches of the region, newest first, as their resource names. */
  public List<String> listBatches(String project, int max) {
    String parent = "projects/" + project + "/locations/" + region;
    String call = "BatchController.ListBatches(" + parent + ")";
    DataprocWorkload where = new DataprocWorkload(DataprocWorkload.Type.BATCH, project, region, "-");
    return call(call, where, () -> {
      List<String> out = new ArrayList<>();
      for (Batch b : batches().listBatches(ListBatchesRequest.newBuilder().setParent(parent)
          .setPageSize(Math.min(100, max)).setOrderBy("create_time desc").build()).iterateAll()) {
        if (out.size() >= max) {
          break;
        }
        out.add(b.getName());
      }
      return out;
    });
  }

  private <T> T call(String call, DataprocWorkload w, Supplier<T> rpc) {
    try {
      return rpc.get();
    } catch (ApiException e) {
      StatusCode.Code code = e.getStatusCode().getCode();
      String detail = code + ": " + Messages.oneLine(e.getMessage());
      switch (code) {
        case NOT_FOUND:
          throw new InputNotFoundException(w.describe() + " (" + call + " answered " + detail + ")",
              "check the " + w.type().word() + " ID, the project and the region (gcloud dataproc " + w.type().collection()
                  + " list --region " + w.region() + ")", e);
        case PERMISSION_DENIED:
          throw new AccessDeniedException(call, detail, "grant the caller roles/dataproc.viewer on project "
              + w.project() + " (dataproc." + w.type().collection() + ".get)", e);
        case UNAUTHENTICATED:
          throw new AccessDeniedException(call, detail, "run 'gcloud auth application-default login', or set "
              + "GOOGLE_APPLICATION_CREDENTIALS to a service-account key file", e);
        case DEADLINE_EXCEEDED:
          throw new SparkRcaException(Messages.timedOut(call, "no answer", settings.timeout(), " (" + detail + ")"), e);
        default:
          throw new SparkRcaException(call + " failed (" + detail + ")" + (e.isRetryable() ? " after retries" : ""), e);
      }
    } catch (RuntimeException e) {
      if (e instanceof SparkRcaException s) {
        throw s;
      }
      throw new SparkRcaException(call + " failed: " + Messages.oneLine(String.valueOf(e.getMessage())), e);
    }
  }

  private static List<String> autotuning(RuntimeConfig c) {
    return c.getAutotuningConfig().getScenariosList().stream().map(Enum::name).toList();
  }

  private static Optional<Instant> time(Timestamp t) {
    return t.getSeconds() <= 0 ? Optional.empty() : Optional.of(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()));
  }

  private static Optional<String> nonEmpty(String s) {
    return s == null || s.isBlank() ? Optional.empty() : Optional.of(s);
  }

  // --- clients

  private synchronized BatchControllerClient batches() {
    if (batches == null) {
      batches = open(() -> BatchControllerClient.create(
          configure(BatchControllerSettings.newBuilder().applyToAllUnaryMethods(deadline())).build()));
    }
    return batches;
  }

  private synchronized SessionControllerClient sessions() {
    if (sessions == null) {
      sessions = open(() -> SessionControllerClient.create(
          configure(SessionControllerSettings.newBuilder().applyToAllUnaryMethods(deadline())).build()));
    }
    return sessions;
  }

  private synchronized JobControllerClient jobs() {
    if (jobs == null) {
      jobs = open(() -> JobControllerClient.create(
          configure(JobControllerSettings.newBuilder().applyToAllUnaryMethods(deadline())).build()));
    }
    return jobs;
  }

  private synchronized ClusterControllerClient clusters() {
    if (clusters == null) {
      clusters = open(() -> ClusterControllerClient.create(
          configure(ClusterControllerSettings.newBuilder().applyToAllUnaryMethods(deadline())).build()));
    }
    return clusters;
  }

  private interface Open<T> {
    T open() throws IOException;
  }

  private <T> T open(Open<T> o) {
    try {
      return o.open();
    } catch (IOException e) {
      throw new SparkRcaException("the Dataproc client could not be created for " + settings.dataprocEndpoint(region) + ": "
          + Messages.oneLine(e.getMessage()), e);
    }
  }

  /** Every call within the settings' timeout, retries included ({@link Deadlines}). */
  private ApiFunction<UnaryCallSettings.Builder<?, ?>, Void> deadline() {
    return Deadlines.within(settings.timeout());
  }

  private <B extends com.google.api.gax.rpc.ClientSettings.Builder<?, ?>> B configure(B b) {
    Optional<TransportChannelProvider> given = settings.dataprocTransport();
    if (given.isPresent()) {
      b.setTransportChannelProvider(given.get());
      Credentials c = Credentials.forInProcess(settings);
      b.setCredentialsProvider(c.none() ? NoCredentialsProvider.create() : c.provider());
      return b;
    }
    String endpoint = settings.dataprocEndpoint(region);
    Credentials c = Credentials.forEndpoint(settings, endpoint);
    InstantiatingGrpcChannelProvider.Builder channel = InstantiatingGrpcChannelProvider.newBuilder().setEndpoint(endpoint);
    if (GcpSettings.isLoopback(endpoint)) {
      // An emulator or fake on this machine has no TLS; a remote endpoint always gets it.
      channel.setChannelConfigurator(m -> m.usePlaintext());
    }
    b.setTransportChannelProvider(channel.build());
    b.setCredentialsProvider(c.provider());
    b.setEndpoint(endpoint);
    return b;
  }

  @Override
  public synchronized void close() {
    for (AutoCloseable c : new AutoCloseable[] {batches, sessions, jobs, clusters}) {
      if (c != null) {
        try {
          c.close();
        } catch (Exception ignored) {
          // closing a channel: nothing to report
        }
      }
    }
  }
}
