package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.testing.RepeatedStages;
import io.sparkrca.gcp.testing.SparkApplicationsFake;
import io.sparkrca.gcp.testing.SparkApplicationsFake.StageIdsFilter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A session's stage list read by stage-id sets at once (the real client against the loopback fake):
 * it is the list the token chain reads, whatever the server does with the filter, and it goes side
 * by side only when the filter can be trusted.
 */
class SessionStageListingTest {
  private static final String SESSION = "projects/p/locations/us-central1/sessions/s-many";
  private static final String BATCH = "projects/p/locations/us-central1/batches/b-many";
  private static SparkApplication base;
  private static SparkApplicationsFake fake;

  @BeforeAll
  static void start() throws Exception {
    base = EventLogs.replay(TestkitFixtures.get("3.5.9", "skew-join").eventLog());
    fake = new SparkApplicationsFake();
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
  void aSessionsStagesComeByIdSetsSideBySideAndEqualTheBatchChain() {
    SparkApplication app = new RepeatedStages(base, 1000);
    List<StageData> chain = stagesOf(BATCH, app);
    int chainCalls = fake.requests("searchStages");
    fake.reset();
    fake.latency(20); // long enough for the sets asked at once to meet at the fake

    List<StageData> split = stagesOf(SESSION, app);

    assertThat(split).isEqualTo(chain).hasSize(1000);
    assertThat(chainCalls).isEqualTo(10);
    assertThat(fake.requests("searchStages")).as("the first page and one call per set of 100 ids").isEqualTo(10);
    assertThat(fake.requests("summarizeStages")).isEqualTo(1);
    assertThat(fake.log()).filteredOn(l -> l.contains(":searchStages")).noneMatch(l -> l.contains("pageToken="));
    assertThat(fake.maxInFlight()).as("the id sets asked for at once, within the parallelism").isEqualTo(4);
  }

  @Test
  void aListingNewestFirstGoesDownToStageZero() {
    SparkApplication app = new RepeatedStages(base, 450);
    List<StageData> chain = stagesOf(BATCH, app);
    fake.reset();
    fake.stagesNewestFirst(true);

    assertThat(stagesOf(SESSION, app)).isEqualTo(chain).hasSize(450);
    assertThat(fake.log()).filteredOn(l -> l.contains(":searchStages")).noneMatch(l -> l.contains("pageToken="))
        .anyMatch(l -> l.contains("stageIds=0&") || l.endsWith("stageIds=0"));
  }

  @Test
  void gapsInTheStageIdsAreFoundInFurtherRounds() {
    // Ids 200-299 dropped (retention) and every seventh missing: the first guess falls short of the count.
    SparkApplication app = new RepeatedStages(base, 1000, id -> id % 7 != 3 && (id < 200 || id >= 300));
    List<StageData> chain = stagesOf(BATCH, app);
    fake.reset();

    List<StageData> split = stagesOf(SESSION, app);

    assertThat(split).isEqualTo(chain);
    assertThat(fake.log()).filteredOn(l -> l.contains(":searchStages")).noneMatch(l -> l.contains("pageToken="));
  }

  /** A server that ignores the filter (answers other stages) or rejects it (400) is detected. */
  @ParameterizedTest
  @EnumSource(value = StageIdsFilter.class, names = {"IGNORED", "REJECTED"})
  void aServerThatDoesNotHonourTheFilterIsAnsweredByTheTokenChain(StageIdsFilter filter) {
    SparkApplication app = new RepeatedStages(base, 300);
    List<StageData> chain = stagesOf(BATCH, app);
    fake.reset();
    fake.stageIdsFilter(filter);

    assertThat(stagesOf(SESSION, app)).isEqualTo(chain);
    assertThat(fake.log()).filteredOn(l -> l.contains(":searchStages")).anyMatch(l -> l.contains("pageToken="));
  }

  @Test
  void aSessionWithOnePageOfStagesCostsOneCall() {
    SparkApplication app = new RepeatedStages(base, 60);

    assertThat(stagesOf(SESSION, app)).hasSize(60);
    assertThat(fake.requests("searchStages")).isEqualTo(1);
    assertThat(fake.log()).filteredOn(l -> l.contains(":searchStages")).noneMatch(l -> l.contains("stageIds="));
  }

  @Test
  void aBatchNeverSendsTheFilterItsApiLacks() {
    stagesOf(BATCH, new RepeatedStages(base, 250));

    assertThat(fake.requests("searchStages")).isEqualTo(3);
    assertThat(fake.requests("summarizeStages")).isZero();
    assertThat(fake.log()).noneMatch(l -> l.contains("stageIds="));
  }

  private static List<StageData> stagesOf(String parent, SparkApplication app) {
    fake.serve(parent, app);
    GcpSettings s = GcpSettings.builder().environment(Map.of()).project("p").region("us-central1")
        .sparkApplicationsEndpoint(fake.endpoint()).parallelism(4).timeout(Duration.ofSeconds(60)).build();
    return new DataprocHistoryProvider(s).application("dataproc:" + parent, SourceSettings.defaults())
        .stages(StageQuery.all().withSummaries(StageQuery.DEFAULT_QUANTILES));
  }
}
