package io.sparkrca.mcp;

import static io.sparkrca.mcp.McpSession.call;
import static io.sparkrca.mcp.McpSession.error;
import static io.sparkrca.mcp.McpSession.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.dataproc.v1.Batch;
import com.google.cloud.dataproc.v1.RuntimeInfo;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.dataproc.DataprocWorkload;
import io.sparkrca.gcp.dataproc.SparkApplicationViews;
import io.sparkrca.gcp.testing.DataprocFakes;
import io.sparkrca.historyserver.HistoryProfiles;
import io.sparkrca.historyserver.HistoryServerDiscovery;
import io.sparkrca.historyserver.HistoryServerSettings;
import io.sparkrca.historyserver.serve.HistoryApiServer;
import io.sparkrca.kubernetes.testing.ApiServer;
import io.sparkrca.kubernetes.testing.FixtureCluster;
import io.sparkrca.kubernetes.testing.FixtureCluster.Fate;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The History Server, Dataproc and Kubernetes tools as an agent sees them: the SDK's own client
 * talks to the real server, a child JVM over stdio (see {@link McpSession}) that finds the provider
 * modules with ServiceLoader (sparkrca-mcp holds them in runtime scope only), which reads real
 * backends over loopback: {@code serve}'s History Server API over a real testkit run, gcp's fakes (the
 * Google client libraries' Dataproc and Logging mock services over gRPC, sparkApplications and
 * Cloud Storage over HTTP) serving that run as a failed batch, and fabric8's mock API server holding
 * the pods the testkit executor-loss run would have left (its lost executor OOMKilled), reached
 * through a kubeconfig. Each result is checked against what the provider module's own entry point
 * (the one the command line prints) answers for the same read; malformed calls and unreachable backends are tool errors while the server keeps serving.
 */
class McpSourceToolsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path dir;

  private static McpSyncClient client;
  private static HistoryApiServer shs;
  private static TestkitFixtures.Fixture failed;
  private static String failedId;
  private static DataprocFakes fakes;
  private static ApiServer k8s;
  private static FixtureCluster cluster;
  private static String lost;
  private static String kubeconfig;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    failed = TestkitFixtures.get("4.0.4", "executor-oom");
    failedId = failed.label().path("application").path("id").asText();
    shs = HistoryApiServer.builder(failed.eventLog().getParent().toString()).port(0).build().start();
    fakes = new DataprocFakes();
    k8s = ApiServer.start();
    TestkitFixtures.Fixture lossRun = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    lost = lossRun.label().path("culprit").path("executorId").asText();
    cluster = FixtureCluster.of(lossRun).fate(lost, Fate.OOM_KILLED);
    cluster.populate(k8s, 2000);
    kubeconfig = k8s.kubeconfig(dir, "elsewhere").toString();
    client = McpSession.start();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.closeGracefully();
    }
    for (AutoCloseable c : new AutoCloseable[] {shs, fakes, k8s}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // closing a fake after the tests: nothing to report
      }
    }
  }

  @Test
  void theNewToolsAreListedWithTheirSharedArguments() {
    List<McpSchema.Tool> tools = client.listTools().tools();
    JsonNode profile = schema(tools, "shs_profile");
    assertThat(profile.path("required")).extracting(JsonNode::asText).containsExactlyInAnyOrder("app", "profile");
    assertThat(profile.at("/properties/historyServer/type").asText()).isEqualTo("string");
    assertThat(profile.at("/properties/stageLimit/maximum").asInt()).isEqualTo(50);
    assertThat(schema(tools, "dataproc_view").at("/properties/action/enum")).extracting(JsonNode::asText)
        .containsExactlyElementsOf(SparkApplicationViews.ACTIONS);
    assertThat(schema(tools, "dataproc_describe").at("/properties/dataprocEndpoint/type").asText()).isEqualTo("string");
    for (String k : List.of("k8s_pods", "k8s_events", "k8s_logs")) {
      assertThat(schema(tools, k).path("required")).as(k).extracting(JsonNode::asText).containsExactly("appId");
      assertThat(schema(tools, k).at("/properties/kubeconfig/type").asText()).as(k).isEqualTo("string");
    }
  }

  @Test
  void shsApplicationsAndProfilesAreWhatTheHistoryServerModuleAnswers() throws Exception {
    SparkHistory history = HistoryServerDiscovery.history(Optional.of(shs.url()), HistoryServerSettings.builder().build(),
        ByteSources.defaults(), note -> { });
    JsonNode apps = ok(call(client, "shs_applications", Map.of("historyServer", shs.url(), "limit", 10)));
    assertThat(apps.path("applications")).extracting(a -> a.path("id").asText()).contains(failedId);
    assertThat(apps.path("applications")).isEqualTo(JSON.readTree(HistoryProfiles.applications(history, Optional.empty(), 10).toJson()));

    JsonNode failure = ok(call(client, "shs_profile", Map.of("historyServer", shs.url(), "app", failedId,
        "profile", "failure", "stageLimit", 2, "taskLimit", 3)));
    SparkApplication app = HistoryProfiles.application(history, failedId, Optional.empty());
    JsonNode expected = JSON.readTree(HistoryProfiles.failure(app, new HistoryProfiles.Limits(2, 3)).toJson());
    assertThat(failure.path("applicationId").asText()).isEqualTo(failedId);
    assertThat(failure.path("failedStages")).isNotEmpty().isEqualTo(expected.path("failedStages"));
    assertThat(failure.path("failedJobs")).isEqualTo(expected.path("failedJobs"));
    assertThat(failure.path("limitations")).isEqualTo(expected.path("limitations"));

    JsonNode sqlList = ok(call(client, "shs_profile", Map.of("historyServer", shs.url(), "app", failedId, "profile", "sql-list")));
    assertThat(sqlList.path("sqlExecutions")).isEqualTo(JSON.readTree(HistoryProfiles.sqlList(app, 100).toJson()));
  }

  @Test
  void summarizeAndRcaReadAHistoryServerApplicationUrl() {
    String url = shs.url() + "/api/v1/applications/" + failedId;
    JsonNode s = ok(call(client, "summarize", Map.of("eventLog", url)));
    assertThat(s.at("/summaries/0/applicationId").asText()).isEqualTo(failedId);
    assertThat(s.at("/summaries/0/outcome").asText()).isEqualTo("FAILED");
    JsonNode report = ok(call(client, "rca", Map.of("eventLog", url)));
    assertThat(report.at("/rootCause/kind").asText()).isEqualTo(failed.rootCause().name());
  }

  @Test
  void dataprocDescribeGathersTheEvidenceRcaAnalyzes() throws Exception {
    fakes.reset();
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    serveBatch(f, "b-oom");
    JsonNode d = ok(call(client, "dataproc_describe", gcp(Map.of("batch", "b-oom"))));
    assertThat(d.path("workload").asText()).contains("b-oom");
    assertThat(d.path("notes").toString()).contains("BatchController.GetBatch(projects/p/locations/us-central1/batches/b-oom)")
        .contains("state FAILED");
    assertThat(d.path("logs")).extracting(l -> l.path("uri").asText()).contains("gs://staging/out/b-oom/driveroutput");
    assertThat(d.at("/application/id").asText()).isEqualTo(f.label().at("/application/id").asText());
    assertThat(d.at("/application/source").asText()).contains("sparkApplications");
  }

  @Test
  void dataprocViewIsThePayloadOfTheGcpModulesViews() throws Exception {
    fakes.reset();
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    serveBatch(f, "b-view");
    JsonNode v = ok(call(client, "dataproc_view", gcp(Map.of("batch", "b-view", "action", "stages", "status", "failed"))));
    assertThat(v.path("action").asText()).isEqualTo("stages");
    assertThat(v.path("payload").isArray()).isTrue();
    assertThat(v.at("/payload/0/status").asText()).isEqualTo("STAGE_STATUS_FAILED");
    GcpSettings gcp = GcpSettings.builder().project(DataprocFakes.PROJECT).region(DataprocFakes.REGION)
        .dataprocEndpoint(fakes.grpcEndpoint()).sparkApplicationsEndpoint(fakes.sparkApplications.endpoint()).build();
    String batch = DataprocWorkload.of(DataprocWorkload.Type.BATCH, "b-view", gcp).uri();
    JsonNode expected = SparkApplicationViews.of(gcp, batch)
        .render(SparkApplicationViews.Request.builder("stages").status("failed").build()).payload();
    assertThat(v.path("payload")).isEqualTo(expected);
    JsonNode summary = ok(call(client, "dataproc_view", gcp(Map.of("batch", "b-view"))));
    assertThat(summary.path("markdown").asText()).contains("## Failed stages");
  }

  @Test
  void k8sToolsShowTheOomKilledExecutor() {
    JsonNode pods = ok(call(client, "k8s_pods", k8sArgs(Map.of())));
    assertThat(pods.path("kind").asText()).isEqualTo("pods");
    assertThat(pods.path("pods").toString()).contains(cluster.executorPod(lost)).contains("\"OOMKilled\"").contains("137");
    assertThat(pods.path("problemFound").asBoolean()).isTrue();
    assertThat(pods.path("summary").asText()).contains("failed, in namespace " + FixtureCluster.NAMESPACE);
    assertThat(pods.toString()).doesNotContain(ApiServer.TOKEN);

    JsonNode events = ok(call(client, "k8s_events", k8sArgs(Map.of())));
    assertThat(events.path("events").toString()).contains("Scheduled");

    JsonNode logs = ok(call(client, "k8s_logs", k8sArgs(Map.of("executor", lost))));
    assertThat(logs.path("logs")).hasSize(1);
    assertThat(logs.path("logs").toString()).contains(cluster.executorPod(lost));
  }

  @Test
  void malformedCallsAndUnreachableBackendsAreToolErrorsAndTheServerKeepsServing() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    String dead = "http://127.0.0.1:" + closed;
    assertThat(error(call(client, "shs_applications", Map.of("historyServer", dead))))
        .contains("127.0.0.1:" + closed).contains("connection refused");
    assertThat(error(call(client, "shs_profile", Map.of("historyServer", shs.url(), "app", failedId, "profile", "sql"))))
        .contains("executionId");
    assertThat(error(call(client, "shs_profile", Map.of("historyServer", shs.url(), "app", failedId + "x", "profile", "slow"))))
        .contains(failedId + "x");
    assertThat(error(call(client, "shs_profile", Map.of("historyServer", shs.url(), "app", failedId, "profile", "fast"))))
        .contains("profile");

    assertThat(error(call(client, "dataproc_view", gcp(Map.of("batch", "a", "job", "b"))))).contains("batch and job");
    assertThat(error(call(client, "dataproc_view", gcp(Map.of("batch", "a/b"))))).contains("is not a Dataproc batch id");
    Map<String, Object> refused = new HashMap<>(gcp(Map.of("batch", "b-1")));
    refused.put("sparkApplicationsEndpoint", dead);
    assertThat(error(call(client, "dataproc_view", refused))).contains("connection refused").contains("127.0.0.1:" + closed);
    fakes.reset();
    fakes.batches.addException(Status.NOT_FOUND.withDescription("Batch not found").asRuntimeException());
    assertThat(error(call(client, "dataproc_describe", gcp(Map.of("batch", "nope")))))
        .contains("BatchController.GetBatch(projects/p/locations/us-central1/batches/nope)");

    assertThat(error(call(client, "k8s_pods", Map.of("kubeconfig", kubeconfig)))).contains("appId");
    assertThat(error(call(client, "k8s_pods", k8sArgs(Map.of("appId", "spark-0000")))))
        .contains("no pod in namespace spark has label spark-app-selector=spark-0000");
    Path deadConfig;
    try (ApiServer gone = ApiServer.start()) {
      deadConfig = gone.kubeconfig(Files.createDirectories(dir.resolve("gone")), "spark");
    }
    String unreachable = error(call(client, "k8s_pods", Map.of("appId", cluster.appId(), "kubeconfig", deadConfig.toString(),
        "requestTimeoutSeconds", 5)));
    assertThat(unreachable).contains("cannot reach the API server").contains("kubeconfig");

    // Still serving: good calls right after the bad ones.
    assertThat(ok(call(client, "shs_applications", Map.of("historyServer", shs.url()))).path("applications")).isNotEmpty();
    assertThat(ok(call(client, "k8s_events", k8sArgs(Map.of()))).path("kind").asText()).isEqualTo("events");
  }

  /**
   * Serves the testkit run {@code f} as the failed batch {@code id} on the fakes: its application on
   * sparkApplications, its driver output on Cloud Storage, no Cloud Logging entries.
   */
  private static void serveBatch(TestkitFixtures.Fixture f, String id) throws Exception {
    String parent = "projects/p/locations/us-central1/batches/" + id;
    SparkApplication app = EventLogs.replay(f.eventLog());
    fakes.sparkApplications.serve(parent, app);
    fakes.gcs.put("staging", "out/" + id + "/driveroutput.000000000", Files.readAllBytes(f.driverLog()));
    fakes.batch(Batch.newBuilder().setName(parent).setState(Batch.State.FAILED)
        .setStateTime(Timestamp.newBuilder().setSeconds(app.info().latestAttempt().endTime().getEpochSecond()))
        .setRuntimeInfo(RuntimeInfo.newBuilder().setOutputUri("gs://staging/out/" + id + "/driveroutput")).build());
    fakes.noLogs(2);
  }

  /** {@code args} with the endpoints of gcp's fakes, the project and the region. */
  private static Map<String, Object> gcp(Map<String, Object> args) {
    Map<String, Object> a = new HashMap<>(args);
    a.put("project", DataprocFakes.PROJECT);
    a.put("region", DataprocFakes.REGION);
    a.put("dataprocEndpoint", fakes.grpcEndpoint());
    a.put("loggingEndpoint", fakes.grpcEndpoint());
    a.put("sparkApplicationsEndpoint", fakes.sparkApplications.endpoint());
    a.put("storageEndpoint", fakes.gcs.host());
    return a;
  }

  /** {@code args} with the application, the kubeconfig and the namespace of the fixture cluster. */
  private static Map<String, Object> k8sArgs(Map<String, Object> args) {
    Map<String, Object> a = new HashMap<>(Map.of("appId", cluster.appId(), "kubeconfig", kubeconfig,
        "namespace", FixtureCluster.NAMESPACE));
    a.putAll(args);
    return a;
  }

  private static JsonNode schema(List<McpSchema.Tool> tools, String name) {
    return JSON.valueToTree(tools.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().inputSchema());
  }
}
