package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.analysis.rca.RcaEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FleetScan} over the testkit's real event logs. */
class FleetScanTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path fixtures;
  private static List<FleetRow> fixtureRows;

  @BeforeAll
  static void scanEveryFixture() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    fixtures = TestkitFixtures.root().get();
    List<FleetRow> rows = new ArrayList<>();
    FleetScan.builder().threads(2).build().run(fixtures.toString(), rows::add);
    fixtureRows = rows;
  }

  @Test
  void everyFixtureLogIsFoundInTheTreeAndNothingElse() {
    Set<String> expected = TestkitFixtures.all().stream().map(f -> f.eventLog().toString())
        .collect(Collectors.toCollection(TreeSet::new));

    assertThat(fixtureRows).extracting(FleetRow::path).containsExactlyElementsOf(expected);
  }

  @Test
  void eachRowNamesTheApplicationAndRootCauseThatRcaNames() throws Exception {
    Map<String, FleetRow> byPath = new LinkedHashMap<>();
    fixtureRows.forEach(r -> byPath.put(r.path(), r));
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      String path = f.eventLog().toString();
      JsonNode rca = JSON.readTree(RcaEngine.standard().analyze(
          EvidenceCollector.builder().application(path).build().collect()).toJson());
      FleetRow row = byPath.get(path);

      assertThat(row.error()).as(path).isEmpty();
      assertThat(row.appId()).as(path).contains(rca.path("application").path("id").asText());
      assertThat(row.rootCause().map(c -> c.kind().name())).as(path).contains(rca.path("rootCause").path("kind").asText());
      assertThat(row.rootCause().map(c -> c.confidence().name())).as(path)
          .contains(rca.path("rootCause").path("confidence").asText());
      assertThat(row.verdict().map(Enum::name)).as(path).contains(rca.path("verdict").asText());
      assertThat(row.outcome().map(Enum::name)).as(path).contains(rca.path("application").path("outcome").asText());
      assertThat(row.name()).as(path).contains(rca.path("application").path("name").asText());
      assertThat(row.durationMs().orElse(-1L)).as(path).isEqualTo(rca.path("application").path("durationMs").asLong(-1));
      JsonNode recs = rca.path("recommendations");
      assertThat(row.topRecommendation().isPresent()).as(path).isEqualTo(recs.size() > 0);
    }
  }

  @Test
  void inProgressLogsAreMarked() {
    List<String> running = fixtureRows.stream().filter(FleetRow::inProgress).map(FleetRow::path).toList();

    assertThat(running).isNotEmpty().allMatch(p -> p.contains("inprogress") || p.contains("driver-killed-mid-job"));
    assertThat(fixtureRows.stream().filter(r -> r.path().endsWith(".inprogress"))).allMatch(FleetRow::inProgress);
  }

  @Test
  void failedApplicationsWasteTheirWholeRunAndHealthyOnesNothing() {
    for (FleetRow r : fixtureRows) {
      assertThat(r.coreHours()).as(r.path()).isGreaterThanOrEqualTo(r.wastedCoreHours());
      if (r.rootCause().get().kind() == RootCauseKind.HEALTHY) {
        assertThat(r.wastedMs()).as(r.path()).isZero();
        assertThat(r.wastedCoreHours()).as(r.path()).isZero();
      }
      if (r.outcome().get().name().equals("FAILED")) {
        assertThat(r.wastedMs()).as(r.path()).isEqualTo(r.durationMs().orElse(0L));
        assertThat(r.wastedCoreHours()).as(r.path()).isEqualTo(r.coreHours());
      }
    }
    assertThat(fixtureRows).filteredOn(r -> r.outcome().get().name().equals("SUCCEEDED"))
        .anyMatch(r -> r.coreHours() > 0);
  }

  @Test
  void rowsComeInPathOrderWhateverTheNumberOfThreads() {
    List<String> one = new ArrayList<>();
    List<String> four = new ArrayList<>();
    FleetScan.builder().threads(1).build().run(fixtures.resolve("spark-3.5.9").toString(), r -> one.add(r.toJson()));
    FleetScan.builder().threads(4).build().run(fixtures.resolve("spark-3.5.9").toString(), r -> four.add(r.toJson()));

    assertThat(four).isEqualTo(one);
    assertThat(one).hasSize(TestkitFixtures.forVersion("3.5.9").size());
  }

  @Test
  void aBadLogIsAnErrorRowAndTheScanGoesOn(@TempDir Path dir) throws Exception {
    Fleets.copy(TestkitFixtures.get("3.5.9", "healthy"), dir);
    Fleets.copy(TestkitFixtures.get("4.0.4", "skew-join"), dir);
    byte[] real = Files.readAllBytes(TestkitFixtures.get("3.5.9", "flaky-task").eventLog());
    Files.write(dir.resolve("app-20240101000000-0001.zstd"), java.util.Arrays.copyOf(real, real.length / 3));
    Files.writeString(dir.resolve("app-20240101000000-0002"), "this is not an event log\n");
    Files.writeString(dir.resolve("app-20240101000000-0003.lz4"), "LZ4Block garbage that is no lz4 block");
    Files.createDirectories(dir.resolve("eventlog_v2_app-20240101000000-0004"));
    Files.writeString(dir.resolve("eventlog_v2_app-20240101000000-0004/appstatus_app-20240101000000-0004"), "");

    List<FleetRow> rows = new ArrayList<>();
    FleetScan.Result result = FleetScan.builder().threads(2).build().run(dir.toString(), rows::add);

    assertThat(rows).hasSize(6);
    assertThat(result.errors()).isEqualTo(rows.stream().filter(FleetRow::isError).count());
    Map<String, FleetRow> byName = rows.stream().collect(Collectors.toMap(r -> Path.of(r.path()).getFileName().toString(), r -> r));
    assertThat(byName.get("app-20240101000000-0002").error()).hasValueSatisfying(e -> assertThat(e).contains("no Spark events"));
    assertThat(byName.get("app-20240101000000-0003.lz4").error()).isPresent();
    assertThat(byName.get("eventlog_v2_app-20240101000000-0004").error())
        .hasValueSatisfying(e -> assertThat(e).contains("no events_"));
    FleetRow cut = byName.get("app-20240101000000-0001.zstd");
    assertThat(cut.isError() || cut.outcome().get().name().equals("INCOMPLETE"))
        .as("a log cut at a third is an error or an incomplete application: %s", cut.toJson()).isTrue();
    assertThat(byName.get(TestkitFixtures.get("3.5.9", "healthy").eventLog().getFileName().toString()).rootCause().get().kind())
        .isEqualTo(RootCauseKind.HEALTHY);
    assertThat(rows.stream().filter(FleetRow::isError))
        .allSatisfy(r -> assertThat(r.appId()).isEmpty())
        .allSatisfy(r -> assertThat(r.rootCause()).isEmpty());
    assertThat(result.summary().totals().errors()).isEqualTo(result.errors());
  }

  @Test
  void aRollingLogPartWhoseNumberIsTooLargeForALongIsSkippedAndEveryLogIsStillScanned(@TempDir Path dir) throws Exception {
    Fleets.copy(TestkitFixtures.get("3.5.9", "healthy"), dir);
    Path rolling = Fleets.copy(TestkitFixtures.get("4.0.4", "too-many-small-tasks"), dir);
    Files.copy(rolling.resolve("events_2_local-1795965015721.zstd"),
        rolling.resolve("events_99999999999999999999_local-1795965015721.zstd"));

    List<FleetRow> rows = new ArrayList<>();
    FleetScan.Result result = FleetScan.builder().threads(2).build().run(dir.toString(), rows::add);

    assertThat(rows).hasSize(2).noneMatch(FleetRow::isError);
    assertThat(result.errors()).isZero();
    assertThat(rows).anySatisfy(r -> assertThat(r.appId()).hasValue("local-1795965015721"));
  }

  @Test
  void aRootWithoutLogsIsAnErrorThatSaysSo(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("driver.log"), "INFO nothing\n");

    assertThatThrownBy(() -> FleetScan.builder().build().run(dir.toString(), r -> {}))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("none of them an event log");
    assertThatThrownBy(() -> FleetScan.builder().build().run(dir.resolve("missing").toString(), r -> {}))
        .isInstanceOf(io.sparkrca.core.error.SparkRcaException.class);
  }

  @Test
  void anUnchangedLogIsNotAnalysedAgainAndAChangedOneIs(@TempDir Path dir) throws Exception {
    Path fleet = Files.createDirectories(dir.resolve("fleet"));
    Path healthy = Fleets.copy(TestkitFixtures.get("3.5.9", "healthy"), fleet);
    Fleets.copy(TestkitFixtures.get("4.0.4", "healthy"), fleet);
    Fleets.copy(TestkitFixtures.get("3.5.9", "spill"), fleet);
    Path index = dir.resolve("index.jsonl");
    FleetScan scan = FleetScan.builder().threads(2).index(index).build();

    List<String> first = new ArrayList<>();
    FleetScan.Result r1 = scan.run(fleet.toString(), r -> first.add(r.toJson()));
    List<String> second = new ArrayList<>();
    FleetScan.Result r2 = scan.run(fleet.toString(), r -> second.add(r.toJson()));
    Files.setLastModifiedTime(healthy, FileTime.from(Instant.now().plusSeconds(5)));
    List<String> third = new ArrayList<>();
    FleetScan.Result r3 = scan.run(fleet.toString(), r -> third.add(r.toJson()));

    assertThat(r1.analysed()).isEqualTo(3);
    assertThat(r2.analysed()).isZero();
    assertThat(r2.reused()).isEqualTo(3);
    assertThat(second).isEqualTo(first);
    assertThat(r3.analysed()).isEqualTo(1);
    assertThat(third).hasSize(3);
    assertThat(Files.readAllLines(index)).hasSize(3);
  }

  @Test
  void aStoppedScanResumesWhereItStopped(@TempDir Path dir) throws Exception {
    Path fleet = Files.createDirectories(dir.resolve("fleet"));
    for (TestkitFixtures.Fixture f : TestkitFixtures.forVersion("3.5.9").subList(0, 8)) {
      Fleets.copy(f, fleet);
    }
    Path index = dir.resolve("index.jsonl");
    AtomicInteger handed = new AtomicInteger();
    assertThatThrownBy(() -> FleetScan.builder().threads(1).index(index).build().run(fleet.toString(), r -> {
      if (handed.incrementAndGet() == 3) {
        throw new IllegalStateException("stopped");
      }
    })).hasMessage("stopped");
    int recorded = Files.readAllLines(index).size();
    Files.writeString(index, "{\"path\":\"" + fleet + "/cut", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

    FleetScan.Result resumed = FleetScan.builder().threads(2).index(index).build().run(fleet.toString(), r -> {});

    assertThat(recorded).isBetween(3, 8);
    assertThat(resumed.reused()).isEqualTo(recorded);
    assertThat(resumed.analysed()).isEqualTo(8 - recorded);
    assertThat(resumed.summary().notes()).anyMatch(n -> n.contains("1 lines of the index"));
  }

  @Test
  void aSlowLogDoesNotHoldBackTheOtherThreads(@TempDir Path dir) throws Exception {
    Path fleet = Files.createDirectories(dir.resolve("fleet"));
    List<TestkitFixtures.Fixture> logs = TestkitFixtures.forVersion("3.5.9").subList(0, 16);
    for (TestkitFixtures.Fixture f : logs) {
      Fleets.copy(f, fleet);
    }
    // The first log to finish keeps its thread until every other log is analysed: one slow log.
    // Rows are handed on in path order, so the rows after it wait; the other thread must not.
    CountDownLatch others = new CountDownLatch(logs.size() - 1);
    AtomicBoolean first = new AtomicBoolean(true);
    AtomicBoolean othersFinishedMeanwhile = new AtomicBoolean();
    FleetScan.Listener slowFirst = new FleetScan.Listener() {
      @Override
      public void analysed(FleetRow row, long bytes) {
        if (first.getAndSet(false)) {
          try {
            othersFinishedMeanwhile.set(others.await(60, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        } else {
          others.countDown();
        }
      }
    };
    List<FleetRow> rows = new ArrayList<>();
    FleetScan.builder().threads(2).listener(slowFirst).build().run(fleet.toString(), rows::add);

    assertThat(othersFinishedMeanwhile).as("the other %d logs were analysed while one was slow", logs.size() - 1)
        .isTrue();
    assertThat(rows).hasSize(logs.size());
  }

  @Test
  void runningApplicationsCanBeLeftOut() {
    List<FleetRow> rows = new ArrayList<>();
    FleetScan.Result r = FleetScan.builder().skipInProgress(true).build()
        .run(fixtures.resolve("spark-3.5.9").toString(), rows::add);

    assertThat(rows).noneMatch(FleetRow::inProgress);
    assertThat(r.skippedInProgress()).isEqualTo(2);
    assertThat(r.summary().notes()).anyMatch(n -> n.contains("2 logs of applications still running were skipped"));
  }

  @Test
  void largeLogsDoNotRunSideBySidePastTheBudget(@TempDir Path dir) throws Exception {
    Path fleet = Files.createDirectories(dir.resolve("fleet"));
    for (TestkitFixtures.Fixture f : TestkitFixtures.forVersion("3.5.9").subList(0, 6)) {
      Fleets.copy(f, fleet);
    }
    // Every one of these logs is estimated at over half this budget: two never fit side by side.
    MemoryBudget budget = MemoryBudget.ofBytes(MemoryBudget.BASE_BYTES + (MemoryBudget.BASE_BYTES / 2));
    FleetScan.builder().threads(4).analysis(FleetAnalysis.builder().budget(budget).build()).build()
        .run(fleet.toString(), r -> {});

    assertThat(budget.peakLeases()).isEqualTo(1);
    assertThat(budget.peakInUse()).isLessThanOrEqualTo(budget.capacity());

    MemoryBudget roomy = MemoryBudget.ofBytes(1L << 30);
    FleetScan.builder().threads(4).analysis(FleetAnalysis.builder().budget(roomy).build()).build()
        .run(fleet.toString(), r -> {});
    assertThat(roomy.peakLeases()).isGreaterThan(1);
  }
}
