package io.sparkrca.gcp.testing;

import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.MockBatchController;
import com.google.cloud.dataproc.v1.MockClusterController;
import com.google.cloud.dataproc.v1.MockJobController;
import com.google.cloud.dataproc.v1.MockSessionController;
import com.google.cloud.logging.v2.MockLoggingServiceV2;
import com.google.logging.v2.ListLogEntriesResponse;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocHistoryProvider;
import io.sparkrca.gcp.storage.GcsByteSourceProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

/**
 * Every Google API the provider calls, faked on loopback and spoken to over its real wire
 * protocol: the Dataproc control plane and Cloud Logging are the mock services shipped in the
 * client libraries' test jars ({@code MockBatchController}, {@code MockJobController}, {@code
 * MockLoggingServiceV2}, ...) behind a real gRPC server (HTTP/2 on 127.0.0.1); sparkApplications is
 * {@link SparkApplicationsFake}; Cloud Storage is {@link FakeGcs}. {@link #settings()} points a
 * provider at all of them, with no credentials (loopback).
 */
public final class DataprocFakes implements AutoCloseable {
  public static final String PROJECT = "p";
  public static final String REGION = "us-central1";

  public final MockBatchController batches = new MockBatchController();
  public final MockSessionController sessions = new MockSessionController();
  public final MockJobController jobs = new MockJobController();
  public final MockClusterController clusters = new MockClusterController();
  public final MockLoggingServiceV2 logging = new MockLoggingServiceV2();
  public final SparkApplicationsFake sparkApplications;
  public final FakeGcs gcs;
  private final Server grpc;

  public DataprocFakes() throws IOException {
    grpc = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
        .addService(batches.getServiceDefinition())
        .addService(sessions.getServiceDefinition())
        .addService(jobs.getServiceDefinition())
        .addService(clusters.getServiceDefinition())
        .addService(logging.getServiceDefinition())
        .build().start();
    sparkApplications = new SparkApplicationsFake();
    gcs = new FakeGcs();
  }

  /** The gRPC endpoint, {@code 127.0.0.1:port}. */
  public String grpcEndpoint() {
    return "127.0.0.1:" + grpc.getPort();
  }

  public GcpSettings.Builder settingsBuilder() {
    return GcpSettings.builder().environment(Map.of()).project(PROJECT).region(REGION)
        .dataprocEndpoint(grpcEndpoint()).loggingEndpoint(grpcEndpoint())
        .sparkApplicationsEndpoint(sparkApplications.endpoint()).storageEndpoint(gcs.host())
        .retries(2, Duration.ofMillis(10)).timeout(Duration.ofSeconds(30));
  }

  public GcpSettings settings() {
    return settingsBuilder().build();
  }

  /** Byte sources that read gs:// from the fake. */
  public ByteSources bytes() {
    return ByteSources.builder().add(GcsByteSourceProvider.of(settings())).build();
  }

  /** Sources of applications reading the fakes (Dataproc URIs, gs:// event logs, local files). */
  public SparkSources sources() {
    return SparkSources.builder().settings(SourceSettings.builder().byteSources(bytes()).build())
        .add(new DataprocHistoryProvider(settings())).build();
  }

  /** Answers the next GetBatch with {@code b}. */
  public DataprocFakes batch(Batch b) {
    batches.addResponse(b);
    return this;
  }

  /** Answers the next {@code n} log queries with no entries. */
  public DataprocFakes noLogs(int n) {
    for (int i = 0; i < n; i++) {
      logging.addResponse(ListLogEntriesResponse.getDefaultInstance());
    }
    return this;
  }

  public void reset() {
    batches.reset();
    sessions.reset();
    jobs.reset();
    clusters.reset();
    logging.reset();
    sparkApplications.reset();
    gcs.reset();
  }

  @Override
  public void close() {
    grpc.shutdownNow();
    sparkApplications.close();
    gcs.close();
  }
}
