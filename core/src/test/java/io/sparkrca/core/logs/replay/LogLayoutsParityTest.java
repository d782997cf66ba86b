package io.sparkrca.core.logs.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same parity with the event log as {@link LogReplayParityTest}, for the layouts the fixtures
 * lack, made by wrapping each fixture's real lines ({@link WrappedLogs}): YARN aggregated logs,
 * Airflow task logs (2.x and ISO times), {@code kubectl logs --timestamps} and {@code --prefix},
 * Cloud Logging exports (a JSON array and one entry per line), and other log4j patterns; and real
 * Spark 4.0.4 structured JSON logs.
 */
class LogLayoutsParityTest {
  private static final Map<Path, SparkApplication> ORACLES = new ConcurrentHashMap<>();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  /** Each layout over every fixture of one Spark version, the versions taking turns (the message forms are tested on both by the plain parity test). */
  static Stream<Arguments> layoutsAndFixtures() {
    List<Arguments> all = new ArrayList<>();
    for (WrappedLogs.Layout layout : WrappedLogs.Layout.values()) {
      String version = layout.ordinal() % 2 == 0 ? "3.5.9" : "4.0.4";
      for (TestkitFixtures.Fixture f : TestkitFixtures.forVersion(version)) {
        all.add(Arguments.of(layout, f));
      }
    }
    return all.stream();
  }

  private static SparkApplication oracle(TestkitFixtures.Fixture f) {
    return ORACLES.computeIfAbsent(f.eventLog(), EventLogs::replay);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("layoutsAndFixtures")
  void realLinesInAnyLayoutAgreeWithTheEventLog(WrappedLogs.Layout layout, TestkitFixtures.Fixture f, @TempDir Path dir) {
    LogApplication app = LogReplay.builder().build().read(WrappedLogs.write(layout, f, dir));
    Parity p = Parity.compare(layout + " " + f.sparkVersion() + "/" + f.scenario(), oracle(f), app);

    assertThat(p.mismatches()).as(p::report).isEmpty();
    assertThat(app.sections()).as("the driver's log was found").anyMatch(s -> s.role() == LogRole.DRIVER && s.records() > 0);
    for (var s : app.stages(StageQuery.all())) {
      for (TaskData t : app.tasks(s.stageId(), s.attemptId(), TaskQuery.all())) {
        assertThat(t.errorMessage().orElse("")).as("an Airflow line joined a task's error").doesNotContain("heartbeat");
      }
    }
  }

  @Test
  void yarnSectionsAreEachTheirOwnLogWithTheirRoleAndHost(@TempDir Path dir) {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure");
    LogApplication app = LogReplay.builder().build().read(WrappedLogs.write(WrappedLogs.Layout.YARN_AGGREGATED, f, dir));

    assertThat(app.sections()).extracting(LogSection::name).contains(
        "container_e01_1795962689745_0001_01_000001/stdout", "container_e01_1795962689745_0001_01_000001/stderr",
        "container_e01_1795962689745_0001_01_000002/stderr", "container_e01_1795962689745_0001_01_000004/stderr");
    LogSection exec1 = app.sections().stream().filter(s -> s.name().endsWith("000003/stderr")).findFirst().orElseThrow();
    assertThat(exec1.role()).isEqualTo(LogRole.EXECUTOR);
    assertThat(exec1.executorId()).contains("1");
    assertThat(exec1.host()).contains("localhost");
    assertThat(exec1.layout()).startsWith("YARN aggregated > log4j yy/MM/dd HH:mm:ss");
    LogSection driver = app.sections().stream().filter(s -> s.name().endsWith("000001/stderr")).findFirst().orElseThrow();
    assertThat(driver.role()).isEqualTo(LogRole.DRIVER);
  }

  @Test
  void kubectlPrefixesMakeOneSectionPerPod(@TempDir Path dir) {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure");
    LogApplication app = LogReplay.builder().build().read(WrappedLogs.write(WrappedLogs.Layout.KUBECTL_PREFIX, f, dir));

    assertThat(app.sections()).filteredOn(s -> s.records() > 0).extracting(LogSection::name).containsExactlyInAnyOrder(
        "pod/sparkrca-app-driver/spark-kubernetes-driver", "pod/sparkrca-app-exec-1/spark-kubernetes-executor",
        "pod/sparkrca-app-exec-2/spark-kubernetes-executor", "pod/sparkrca-app-exec-3/spark-kubernetes-executor");
    assertThat(app.sections()).filteredOn(s -> s.records() > 0).extracting(LogSection::layout)
        .allMatch(l -> l.startsWith("kubectl pod prefixes and timestamps > log4j"));
  }

  static Stream<String> structuredRuns() {
    return Stream.of("bad-record", "executor-lost-fetch-failure");
  }

  /** Real Spark 4.0.4 runs with {@code spark.log.structuredLogging.enabled} (see the resources' README). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("structuredRuns")
  void sparkStructuredJsonLogsAgreeWithTheEventLog(String run) throws URISyntaxException {
    Path dir = Path.of(LogLayoutsParityTest.class.getResource("structured-4.0.4/" + run).toURI());
    List<String> logs = new ArrayList<>(List.of(dir.resolve("driver-stderr.log.gz").toString()));
    if (dir.resolve("executor-logs").toFile().isDirectory()) {
      logs.add(dir.resolve("executor-logs").toString());
    }
    Path eventLog = dir.resolve("eventlog").toFile().listFiles()[0].toPath();
    LogApplication app = LogReplay.builder().build().read(logs);
    Parity p = Parity.compare("structured 4.0.4/" + run, EventLogs.replay(eventLog), app);

    assertThat(p.mismatches()).as(p::report).isEmpty();
    assertThat(p.matched("task attempts")).isPositive();
    assertThat(app.sections()).filteredOn(s -> s.role() == LogRole.DRIVER).extracting(LogSection::layout)
        .containsExactly("Spark structured JSON");
  }
}
