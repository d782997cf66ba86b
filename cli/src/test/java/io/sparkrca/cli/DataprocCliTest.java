package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.RuntimeInfo;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.testing.DataprocFakes;
import io.sparkrca.gcp.testing.StalledGrpc;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code sparkrca rca --batch} and {@code sparkrca dataproc} in-process, through the real Google
 * clients against gcp's loopback fakes (the libraries' Dataproc and Logging mock services over
 * gRPC, sparkApplications and Cloud Storage over HTTP).
 */
class DataprocCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static DataprocFakes fakes;

  @BeforeAll
  static void start() throws Exception {
    fakes = new DataprocFakes();
  }

  @AfterAll
  static void stop() {
    fakes.close();
  }

  @BeforeEach
  void reset() {
    fakes.reset();
  }

  private static List<String> gcpFlags(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--project", DataprocFakes.PROJECT, "--region", DataprocFakes.REGION,
        "--dataproc-endpoint", fakes.grpcEndpoint(), "--logging-endpoint", fakes.grpcEndpoint(),
        "--sparkapplications-endpoint", fakes.sparkApplications.endpoint(), "--storage-endpoint", fakes.gcs.host()));
    return a;
  }

  /** Serves fixture {@code f} as failed batch {@code id}: sparkApplications from its event log, driver output in GCS. */
  private static void serveBatch(TestkitFixtures.Fixture f, String id) throws Exception {
    serveBatch(fakes, f, id);
  }

  /** As {@link #serveBatch(TestkitFixtures.Fixture, String)}, on {@code fakes}. */
  static void serveBatch(DataprocFakes fakes, TestkitFixtures.Fixture f, String id) throws Exception {
    String parent = "projects/p/locations/us-central1/batches/" + id;
    SparkApplication app = EventLogs.replay(f.eventLog());
    fakes.sparkApplications.serve(parent, app);
    fakes.gcs.put("staging", "out/" + id + "/driveroutput.000000000", Files.readAllBytes(f.driverLog()));
    fakes.batch(Batch.newBuilder().setName(parent).setState(Batch.State.FAILED)
        .setStateTime(Timestamp.newBuilder().setSeconds(app.info().latestAttempt().endTime().getEpochSecond()))
        .setRuntimeInfo(RuntimeInfo.newBuilder().setOutputUri("gs://staging/out/" + id + "/driveroutput")).build());
    fakes.noLogs(2);
  }

  @Test
  void rcaOfABatchNamesTheSameRootCauseAsRcaOfItsEventLogAndExitsOne() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    serveBatch(f, "b-oom");

    CliRun batch = CliRun.of(gcpFlags("rca", "--batch", "b-oom", "--format", "json").toArray(String[]::new));
    CliRun local = CliRun.of("rca", f.eventLog().toString(), "--driver-log", f.driverLog().toString(), "--format", "json");

    assertThat(batch.exitCode()).as("stderr %s", batch.err()).isEqualTo(1);
    JsonNode b = JSON.readTree(batch.out());
    assertThat(b.path("rootCause").path("kind").asText())
        .isEqualTo(JSON.readTree(local.out()).path("rootCause").path("kind").asText())
        .isEqualTo(f.rootCause().name());
    assertThat(batch.out()).contains("sparkApplications").contains("gs://staging/out/b-oom/driveroutput");
  }

  @Test
  void anUnknownBatchExitsTwoWithTheCallOnOneLine() {
    fakes.batches.addException(Status.NOT_FOUND.withDescription("Batch not found").asRuntimeException());
    CliRun r = CliRun.of(gcpFlags("rca", "--batch", "nope").toArray(String[]::new));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("BatchController.GetBatch(projects/p/locations/us-central1/batches/nope)")
        .doesNotContain("\tat ");
  }

  @Test
  void aDataprocEndpointThatNeverAnswersEndsAtTheGcpTimeoutWithTheCallOnOneLine() throws Exception {
    try (StalledGrpc stalled = new StalledGrpc()) {
      CliRun r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> CliRun.of("rca", "--batch", "b-1",
          "--project", DataprocFakes.PROJECT, "--region", DataprocFakes.REGION, "--dataproc-endpoint", stalled.endpoint(),
          "--gcp-timeout", "1"));
      assertThat(r.exitCode()).isEqualTo(2);
      assertThat(r.err()).contains("BatchController.GetBatch(projects/p/locations/us-central1/batches/b-1) timed out: "
          + "no answer within 1 s", "--gcp-timeout").doesNotContain("\tat ");
    }
  }

  @Test
  void aGcpTimeoutBelowOneSecondIsABadRequest() {
    CliRun r = CliRun.of(gcpFlags("rca", "--batch", "b-1", "--gcp-timeout", "0").toArray(String[]::new));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--gcp-timeout must be at least 1 second, not 0");
  }

  @Test
  void aBatchWithoutAProjectAnywhereSaysWhatToSet() {
    CliRun r = CliRun.of("rca", "--batch", "b-1", "--region", "us-central1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("no Google Cloud project", "CLOUDSDK_CORE_PROJECT", "gcloud config set project");
  }

  @Test
  void twoWorkloadFlagsAreABadRequest() {
    CliRun r = CliRun.of(gcpFlags("rca", "--batch", "a", "--job", "b").toArray(String[]::new));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("give one of --batch, --session or --job");
  }

  @Test
  void dataprocSummaryOfAFailedApplicationExitsOneAndJsonIsThePayload() throws Exception {
    serveBatch(TestkitFixtures.get("3.5.9", "executor-oom"), "b-sum");
    CliRun md = CliRun.of(gcpFlags("dataproc", "summary", "--batch", "b-sum").toArray(String[]::new));
    assertThat(md.exitCode()).as("stderr %s", md.err()).isEqualTo(1);
    assertThat(md.out()).contains("# Spark application summary:", "## Failed stages");
    CliRun json = CliRun.of(gcpFlags("dataproc", "stages", "--batch", "b-sum", "--status", "failed", "--format", "json")
        .toArray(String[]::new));
    assertThat(json.exitCode()).isZero();
    assertThat(JSON.readTree(json.out()).isArray()).isTrue();
    assertThat(JSON.readTree(json.out()).get(0).path("status").asText()).isEqualTo("STAGE_STATUS_FAILED");
  }

  @Test
  void dataprocOfACompletelyForbiddenBatchNamesTheRoleToGrant() throws Exception {
    serveBatch(TestkitFixtures.get("3.5.9", "healthy"), "b-403");
    fakes.sparkApplications.fault(io.sparkrca.gcp.testing.SparkApplicationsFake.Fault.of(403, "Permission denied"));
    CliRun r = CliRun.of(gcpFlags("dataproc", "summary", "--batch", "b-403", "--format", "json").toArray(String[]::new));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("roles/dataproc.viewer");
    assertThat(JSON.readTree(r.out()).path("status").asText()).isEqualTo("ERROR");
  }
}
