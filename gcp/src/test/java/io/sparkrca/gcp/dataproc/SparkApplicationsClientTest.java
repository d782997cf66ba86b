package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.testing.FakeTokenServer;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import io.sparkrca.gcp.testing.SparkApplicationsFake.Fault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sparkApplications client over real HTTP against the loopback fake: addressing, paging, retries and faults. */
class SparkApplicationsClientTest {
  static final String PARENT = "projects/p/locations/us-central1/batches/b-1";
  private static SparkApplicationsFake fake;
  private static SparkApplication app;
  private static SparkApplicationsClient api;

  @BeforeAll
  static void start() throws Exception {
    fake = new SparkApplicationsFake();
    app = EventLogs.replay(TestkitFixtures.get("3.5.9", "executor-oom").eventLog());
    fake.serve(PARENT, app);
    api = SparkApplicationsClient.create(settings().build(), "us-central1");
  }

  static GcpSettings.Builder settings() {
    return GcpSettings.builder().project("p").region("us-central1").sparkApplicationsEndpoint(fake.endpoint())
        .retries(3, Duration.ofMillis(20));
  }

  @AfterAll
  static void stop() {
    fake.close();
  }

  @BeforeEach
  void reset() {
    fake.reset();
  }

  @Test
  void searchListsTheApplicationAndPerAppCallsCarryParent() {
    JsonNode r = api.call(PARENT, Optional.empty(), "search", Map.of("pageSize", "10"));
    String id = r.path("sparkApplications").get(0).path("application").path("applicationId").asText();
    assertThat(id).isEqualTo(app.info().id());
    JsonNode env = api.call(PARENT, Optional.of(id), "accessEnvironmentInfo", Map.of());
    assertThat(env.path("applicationEnvironmentInfo").path("sparkProperties").size()).isPositive();
    assertThat(fake.log().get(0)).contains("/v1/" + PARENT + "/sparkApplications:search").doesNotContain("parent=");
    assertThat(fake.log().get(1)).contains("/sparkApplications/" + id + ":accessEnvironmentInfo?parent=projects%2Fp");
  }

  @Test
  void pagingFollowsTokensAcrossManyPagesAndStopsAtTheCap() {
    SparkApplication many = EventLogs.replay(TestkitFixtures.get("3.5.9", "too-many-small-tasks").eventLog());
    String parent = "projects/p/locations/us-central1/batches/many";
    fake.serve(parent, many);
    String id = many.info().id();
    int tasks = many.tasks(0, 0, io.sparkrca.core.app.TaskQuery.all()).size();
    assertThat(tasks).as("a stage with many tasks").isGreaterThan(250);
    List<JsonNode> all = api.paginate(parent, Optional.of(id), "searchStageAttemptTasks",
        "sparkApplicationStageAttemptTasks", Map.of("stageId", "0", "stageAttemptId", "0"), 100_000);
    assertThat(all).hasSize(tasks);
    assertThat(fake.requests("searchStageAttemptTasks")).isEqualTo((tasks + 99) / 100);
    assertThat(fake.log().get(0)).contains("pageSize=100").doesNotContain("pageToken=");
    assertThat(fake.log().get(1)).contains("pageToken=");
    fake.reset();
    assertThat(api.paginate(parent, Optional.of(id), "searchStageAttemptTasks", "sparkApplicationStageAttemptTasks",
        Map.of("stageId", "0", "stageAttemptId", "0", "pageSize", "7"), 10)).hasSize(10);
    assertThat(fake.requests("searchStageAttemptTasks")).isEqualTo(2);
  }

  @Test
  void transientStatusesAreRetriedAndRetryAfterIsHonoured() {
    fake.fault(new Fault(429, "{\"error\":{\"code\":429,\"message\":\"Quota exceeded\"}}", Optional.of("0")))
        .fault(Fault.of(503, "The service is currently unavailable."));
    JsonNode r = api.call(PARENT, Optional.empty(), "search", Map.of());
    assertThat(r.path("sparkApplications").size()).isEqualTo(1);
    assertThat(fake.requests()).isEqualTo(3);
  }

  @Test
  void retriesStopAfterTheLastAttemptWithTheStatusInTheError() {
    for (int i = 0; i < 3; i++) {
      fake.fault(Fault.of(503, "The service is currently unavailable."));
    }
    assertThatThrownBy(() -> api.call(PARENT, Optional.empty(), "search", Map.of()))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("search failed with HTTP 503")
        .hasMessageContaining("GET " + fake.endpoint() + "/v1/" + PARENT + "/sparkApplications:search");
    assertThat(fake.requests()).isEqualTo(3);
  }

  @Test
  void aForbiddenCallNamesTheRoleToGrant() {
    fake.fault(Fault.of(403, "Permission 'dataproc.batches.sparkApplicationRead' denied on resource"));
    assertThatThrownBy(() -> api.call(PARENT, Optional.empty(), "search", Map.of()))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessageContaining("HTTP 403")
        .hasMessageContaining("roles/dataproc.viewer on p");
    assertThat(fake.requests()).isEqualTo(1);
  }

  @Test
  void anUnknownWorkloadIsNotFoundWithWhatToCheck() {
    assertThatThrownBy(() -> api.call("projects/p/locations/us-central1/batches/nope", Optional.empty(), "search", Map.of()))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining("check the project, region and batch or session ID");
  }

  @Test
  void theBackendCauseOfAnInternalErrorIsQuotedOnce() {
    String id = app.info().id();
    assertThatThrownBy(() -> api.call(PARENT, Optional.of(id), "searchStageAttemptTasks",
        Map.of("stageId", "0", "stageAttemptId", "0", "sortRuntime", "true")))
        .hasMessageContaining("searchStageAttemptTasks failed with HTTP 500: Internal error encountered. "
            + "(Filtering by task status is not supported yet.)");
    assertThatThrownBy(() -> api.call(PARENT, Optional.of(id), "accessStageAttempt",
        Map.of("stageId", "999", "stageAttemptId", "0")))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("(StageData not found for id: 999 - 0)");
    assertThat(fake.requests()).as("no retry of a 500").isEqualTo(2);
  }

  @Test
  void aRejectedTokenIsRefreshedOnceAndTheCallRetried(@TempDir Path dir) throws Exception {
    try (FakeTokenServer tokens = new FakeTokenServer()) {
      SparkApplicationsClient withCreds = SparkApplicationsClient.create(
          settings().credentialsFile(tokens.credentialsFile(dir)).build(), "us-central1");
      fake.requireToken("token-2"); // the first token is refused, as a revoked or expired one
      JsonNode r = withCreds.call(PARENT, Optional.empty(), "search", Map.of());
      assertThat(r.path("sparkApplications").size()).isEqualTo(1);
      assertThat(tokens.issued()).isEqualTo(2);
      assertThat(fake.requests()).isEqualTo(2);
      fake.requireToken("token-99");
      assertThatThrownBy(() -> withCreds.call(PARENT, Optional.empty(), "search", Map.of()))
          .isInstanceOf(AccessDeniedException.class)
          .hasMessageContaining("HTTP 401")
          .hasMessageContaining("gcloud auth application-default login");
    }
  }

  @Test
  void aLoopbackEndpointGetsNoCredentials() {
    api.call(PARENT, Optional.empty(), "search", Map.of());
    assertThat(GcpSettings.isLoopback(fake.endpoint())).isTrue();
  }

  @Test
  void onlyAnAddressOrNameThatIsLoopbackCountsAsLoopbackNeverAPrefix() {
    assertThat(GcpSettings.isLoopback("http://127.0.0.1:8080")).isTrue();
    assertThat(GcpSettings.isLoopback("localhost:8443")).isTrue();
    assertThat(GcpSettings.isLoopback("[::1]:8443")).isTrue();
    assertThat(GcpSettings.isLoopback("127.attacker.example:443")).isFalse();
    assertThat(GcpSettings.isLoopback("https://127.attacker.example")).isFalse();
    assertThat(GcpSettings.isLoopback("localhost.evil.com:443")).isFalse();
    assertThat(GcpSettings.isLoopback("0x7f.0.0.1:443")).isFalse();
  }

  @Test
  void aRefusedConnectionIsOneAttemptAndSaysSo() throws Exception {
    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    SparkApplicationsClient dead = SparkApplicationsClient.create(
        settings().sparkApplicationsEndpoint("http://127.0.0.1:" + closed).build(), "us-central1");
    assertThatThrownBy(() -> dead.call(PARENT, Optional.empty(), "search", Map.of()))
        .isInstanceOf(SparkRcaException.class)
        .hasMessageContaining("connection refused").hasMessageContaining("127.0.0.1:" + closed);
    assertThat(dead.requests()).as("refused: not retried").isEqualTo(1);
  }

  @Test
  void factsAskForTheirIndependentPartsAtOnceAndNeverMoreThanTheParallelism() {
    fake.latency(50); // long enough for the parts asked at once to meet at the fake
    GcpSettings s = settings().parallelism(3).build();
    DataprocSparkApplication a = new DataprocSparkApplication(SparkApplicationsClient.create(s, "us-central1"), PARENT,
        io.sparkrca.gcp.testing.DataprocShapes.application(app.info()));

    a.facts();

    assertThat(fake.maxInFlight()).as("jobs, executors, environment and SQL beside the stage pages").isGreaterThan(1)
        .isLessThanOrEqualTo(3);
    assertThat(fake.requests("searchStages")).isEqualTo(1);
    assertThat(fake.requests("searchJobs")).isEqualTo(1);
    assertThat(fake.requests("searchExecutors")).isEqualTo(1);
  }

  @Test
  void prefetchedTaskListsAreFetchedAtOnceAndThenReadWithoutAnotherRequest() {
    SparkApplication many = skewJoin();
    DataprocSparkApplication a = served("projects/p/locations/us-central1/batches/prefetch", many,
        SparkApplicationsClient.create(settings().parallelism(3).build(), "us-central1"));
    List<io.sparkrca.core.model.StageData> stages = a.stages(StageQuery.all());
    assertThat(stages).hasSizeGreaterThan(3);
    fake.latency(50); // long enough for the lists asked at once to meet at the fake

    a.prefetchTasks(stages);

    assertThat(fake.requests("searchStageAttemptTasks")).isEqualTo(stages.size());
    assertThat(fake.maxInFlight()).as("the task lists side by side, within the parallelism").isEqualTo(3);
    for (io.sparkrca.core.model.StageData s : stages) {
      assertThat(a.tasks(s.stageId(), s.attemptId(), TaskQuery.all())).extracting(TaskData::taskId)
          .isEqualTo(many.tasks(s.stageId(), s.attemptId(), TaskQuery.all()).stream().map(TaskData::taskId).toList());
    }
    assertThat(fake.requests("searchStageAttemptTasks")).as("read from what the prefetch kept").isEqualTo(stages.size());
    a.prefetchTasks(stages);
    assertThat(fake.requests("searchStageAttemptTasks")).as("kept lists are not fetched again").isEqualTo(stages.size());
  }

  @Test
  void aPrefetchStopsWhereTheStagesStatedTasksWouldPassWhatTheCacheKeeps() {
    DataprocSparkApplication a = served("projects/p/locations/us-central1/batches/prefetch-budget", skewJoin(), api);
    List<io.sparkrca.core.model.StageData> stages = a.stages(StageQuery.all());
    assertThat(stages).hasSizeGreaterThanOrEqualTo(3);
    // The prefetch budgets by each stage's own numTasks: the second stage says it has most of the
    // budget, so the third would pass it and is left to be read when asked for.
    int most = DataprocSparkApplication.CACHED_TASKS - stages.get(0).numTasks() - 1;
    List<io.sparkrca.core.model.StageData> hinted = List.of(stages.get(0), withNumTasks(stages.get(1), most),
        withNumTasks(stages.get(2), most));

    a.prefetchTasks(hinted);

    assertThat(fake.requests("searchStageAttemptTasks")).isEqualTo(2);
    a.tasks(stages.get(2).stageId(), stages.get(2).attemptId(), TaskQuery.all());
    assertThat(fake.requests("searchStageAttemptTasks")).as("read when asked for").isEqualTo(3);
  }

  /** The skew-join fixture replayed once for the tests that read its stages' task lists. */
  private static SparkApplication skewJoin;

  private static SparkApplication skewJoin() {
    if (skewJoin == null) {
      skewJoin = EventLogs.replay(TestkitFixtures.get("3.5.9", "skew-join").eventLog());
    }
    return skewJoin;
  }

  /** {@code app} served by the fake at {@code parent}, read through {@code client}. */
  private static DataprocSparkApplication served(String parent, SparkApplication app, SparkApplicationsClient client) {
    fake.serve(parent, app);
    return new DataprocSparkApplication(client, parent, io.sparkrca.gcp.testing.DataprocShapes.application(app.info()));
  }

  /** The stage as the source would state it with another task count (only the prefetch's hint changes). */
  private static io.sparkrca.core.model.StageData withNumTasks(io.sparkrca.core.model.StageData s, int numTasks) {
    com.fasterxml.jackson.databind.ObjectMapper m = io.sparkrca.core.json.SparkJson.mapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree = m.valueToTree(s);
    tree.put("numTasks", numTasks);
    return m.convertValue(tree, io.sparkrca.core.model.StageData.class);
  }

  @Test
  void oneStageAttemptsDetailsCostOneCallNotOnePerAttempt() {
    String parent = "projects/p/locations/us-central1/batches/many-stages";
    SparkApplication many = skewJoin();
    DataprocSparkApplication a = served(parent, many, api);
    int attempts = a.stages(StageQuery.all()).size();
    assertThat(attempts).isGreaterThan(1);
    io.sparkrca.core.model.StageData first = a.stages(StageQuery.all()).get(0);

    Optional<io.sparkrca.core.model.StageData> d = a.stageAttempt(first.stageId(), first.attemptId(),
        StageQuery.all().withDetails(true));

    assertThat(d).hasValueSatisfying(x -> assertThat(x.tasks()).isPresent());
    assertThat(fake.requests("accessStageAttempt")).isEqualTo(1);
    a.stages(StageQuery.all().withDetails(true));
    assertThat(fake.requests("accessStageAttempt")).as("the listing fetches only the attempts not fetched yet")
        .isEqualTo(attempts);
  }
}
