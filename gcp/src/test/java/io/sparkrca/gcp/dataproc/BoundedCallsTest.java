package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.google.cloud.dataproc.v1.Batch;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.testing.DataprocFakes;
import io.sparkrca.gcp.testing.RawHttpServer;
import io.sparkrca.gcp.testing.StalledGrpc;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every Google Cloud call ends within {@link GcpSettings#timeout()} and reads no more than {@link
 * GcpSettings#maxResponseBytes()}, whatever the endpoint does: a sparkApplications answer that
 * stalls after its headers (which the JDK's own request timeout does not cover), an answer past the
 * cap by its declared length or by streaming on, and Dataproc and Cloud Logging gRPC endpoints that
 * never answer (GetBatch and GetSession have no deadline of their own, GetJob 15 minutes). The
 * preemptive timeouts below only stop a hang from stalling the build; they assert no speed.
 */
class BoundedCallsTest {
  private static final String PARENT = "projects/p/locations/us-central1/batches/b-1";
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);

  private static GcpSettings.Builder settings() {
    return GcpSettings.builder().environment(Map.of()).project("p").region("us-central1")
        .retries(2, Duration.ofMillis(10)).timeout(Duration.ofSeconds(1));
  }

  private static SparkApplicationsClient client(RawHttpServer server, GcpSettings.Builder b) {
    return SparkApplicationsClient.create(b.sparkApplicationsEndpoint(server.endpoint()).build(), "us-central1");
  }

  @Test
  void aSparkApplicationsAnswerThatStallsAfterItsHeadersEndsAtTheTimeoutAndIsRetried() throws Exception {
    try (RawHttpServer server = new RawHttpServer((out, body) -> {
      out.write(RawHttpServer.head(1000));
      out.write("{\"sparkApplications\": [".getBytes(StandardCharsets.UTF_8));
      out.flush();
      Thread.sleep(120_000); // the rest never comes
    })) {
      SparkApplicationsClient api = client(server, settings());

      assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
          () -> api.call(PARENT, Optional.empty(), "search", Map.of("pageSize", "10"))))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("search: GET " + server.endpoint() + "/v1/" + PARENT + "/sparkApplications:search")
          .hasMessageContaining("timed out: no complete answer within 1 s on each of 2 attempts")
          .hasMessageContaining("--gcp-timeout");
      assertThat(server.requests()).as("a stalled answer is retried like a broken connection").isEqualTo(2);
    }
  }

  @Test
  void anAnswerDeclaringMoreThanTheCapIsRefusedOnceWithoutReadingItsBody() throws Exception {
    long declared = 512L << 20;
    try (RawHttpServer server = new RawHttpServer((out, body) -> writeBody(out, body, declared))) {
      SparkApplicationsClient api = client(server, settings().maxResponseBytes(64 * 1024));

      assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
          () -> api.call(PARENT, Optional.of("app-1"), "searchStages", Map.of())))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("searchStages: GET " + server.endpoint())
          .hasMessageContaining("the answer declares " + declared + " bytes, more than the 65536 allowed")
          .hasMessageContaining("GcpSettings.maxResponseBytes")
          .hasMessageContaining("SPARKRCA_DATAPROC_REST_ENDPOINT");
      assertThat(server.requests()).as("the same endpoint would send the same answer: no retry").isEqualTo(1);
      assertThat(server.awaitEnded(1, HANG_GUARD)).as("the client hung up").isTrue();
      assertThat(server.bodyBytes()).as("body bytes the server got out before the client hung up").isLessThan(declared);
    }
  }

  @Test
  void anAnswerWithoutALengthIsCutWhereItPassesTheCap() throws Exception {
    try (RawHttpServer server = new RawHttpServer((out, body) -> writeBody(out, body, -1))) {
      SparkApplicationsClient api = client(server, settings().maxResponseBytes(256 * 1024));

      assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
          () -> api.call(PARENT, Optional.of("app-1"), "searchStages", Map.of())))
          .isInstanceOf(SparkRcaException.class)
          .hasMessageContaining("the answer runs past the 262144 bytes allowed");
      assertThat(server.awaitEnded(1, HANG_GUARD)).as("the endless answer ended: the client hung up").isTrue();
      assertThat(server.requests()).isEqualTo(1);
    }
  }

  /** A body of {@code length} bytes of JSON white space ({@code -1}: chunked, endless), counted as it goes out. */
  private static void writeBody(java.io.OutputStream out, java.util.concurrent.atomic.AtomicLong body, long length)
      throws java.io.IOException {
    out.write(RawHttpServer.head(length));
    byte[] chunk = new byte[64 * 1024];
    Arrays.fill(chunk, (byte) ' ');
    byte[] chunkHead = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
    while (length < 0 || body.get() < length) {
      if (length < 0) {
        out.write(chunkHead);
      }
      out.write(chunk);
      if (length < 0) {
        out.write(crlf);
      }
      body.addAndGet(chunk.length);
    }
  }

  @Test
  void aDataprocEndpointThatNeverAnswersEndsEachLookupAtItsDeadline() throws Exception {
    try (StalledGrpc grpc = new StalledGrpc()) {
      GcpSettings s = settings().dataprocEndpoint(grpc.endpoint()).build();
      try (DataprocControlPlane dp = DataprocControlPlane.create(s, "us-central1")) {
        // GetBatch has no deadline of its own; GetJob has 15 minutes and retries DEADLINE_EXCEEDED.
        assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
            () -> dp.describe(DataprocWorkload.parse("dataproc:batches/b-1", s))))
            .isInstanceOf(SparkRcaException.class)
            .hasMessageContaining("BatchController.GetBatch(" + PARENT + ") timed out: no answer within 1 s")
            .hasMessageContaining("DEADLINE_EXCEEDED")
            .hasMessageContaining("--gcp-timeout");
        assertThatThrownBy(() -> assertTimeoutPreemptively(HANG_GUARD,
            () -> dp.describe(DataprocWorkload.parse("dataproc:jobs/j-1", s))))
            .hasMessageContaining("JobController.GetJob(projects/p/regions/us-central1/jobs/j-1) timed out");
      }
      assertThat(grpc.calls()).contains("google.cloud.dataproc.v1.BatchController/GetBatch",
          "google.cloud.dataproc.v1.JobController/GetJob");
    }
  }

  @Test
  void aCloudLoggingEndpointThatNeverAnswersIsATimeoutGapAndTheRestIsStillCollected() throws Exception {
    try (DataprocFakes fakes = new DataprocFakes(); StalledGrpc logging = new StalledGrpc()) {
      fakes.sparkApplications.serve(PARENT, EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog()));
      fakes.batch(Batch.newBuilder().setName(PARENT).setState(Batch.State.FAILED).build());
      // Long enough for a loaded machine's answers from the other fakes; the logging call uses it all.
      GcpSettings s = fakes.settingsBuilder().loggingEndpoint(logging.endpoint()).timeout(Duration.ofSeconds(3)).build();

      Evidence e = assertTimeoutPreemptively(HANG_GUARD, () -> EvidenceCollector.builder().sources(fakes.sources())
          .loadServiceProviders(false).workloadEvidence(new DataprocEvidenceProvider(s)).workload("dataproc:batches/b-1")
          .build().collect());

      assertThat(e.gaps(EvidenceKind.LOG).stream().filter(x -> x.what().equals(DataprocEvidenceProvider.LOGS)).toList()).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT);
        assertThat(g.detail() + " " + g.whatToDo()).contains("no answer within 3 s").contains("--gcp-timeout");
      });
      assertThat(logging.calls()).contains("google.logging.v2.LoggingServiceV2/ListLogEntries");
      assertThat(e.application()).as("the application data does not depend on Cloud Logging").isPresent();
    }
  }
}
