package io.sparkrca.core.logs.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every testkit fixture (real Spark 3.5 and 4.0 runs) rebuilt from its driver's and executors'
 * logs agrees with the same run replayed from its event log wherever the logs show the fact: jobs,
 * stage attempts, tasks (durations included), failures, executors and their removal reasons, the
 * outcome. What matched and what the logs lacked, per fixture, is written to {@code
 * target/log-replay-parity.md}.
 */
class LogReplayParityTest {
  private static final List<String> REPORT = new ArrayList<>();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  static Stream<TestkitFixtures.Fixture> fixturesWithLogs() {
    return TestkitFixtures.all().stream();
  }

  /** The logs of a fixture's run: the driver's, and each executor's for local-cluster runs. */
  static List<String> logs(TestkitFixtures.Fixture f) {
    List<String> logs = new ArrayList<>();
    logs.add(f.driverLog().toString());
    Path executors = f.dir().resolve("executor-logs");
    if (Files.isDirectory(executors)) {
      logs.add(executors.toString());
    }
    return logs;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fixturesWithLogs")
  void theLogsAgreeWithTheEventLogWhereverTheyShowTheFact(TestkitFixtures.Fixture f) {
    LogApplication fromLogs = LogReplay.builder().build().read(logs(f));
    Parity p = Parity.compare(f.sparkVersion() + "/" + f.scenario(), EventLogs.replay(f.eventLog()), fromLogs);
    REPORT.add(p.report());

    assertThat(p.mismatches()).as(p::report).isEmpty();
    assertThat(p.matched("jobs") + p.lacked("jobs")).as("jobs compared").isGreaterThanOrEqualTo(0);
    assertThat(fromLogs.completeness().notes()).anyMatch(n -> n.startsWith("rebuilt from "));
  }

  @AfterAll
  static void writeReport() throws IOException {
    if (!REPORT.isEmpty()) {
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target/log-replay-parity.md"), "# Logs against event logs\n\n" + String.join("", REPORT));
    }
  }
}
