package io.sparkrca.core.eventlog.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.app.Completeness;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ExecutionData;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events that contradict the rest of a log (a task's end without its start, a job ended twice,
 * tasks that never ended in an application that did) are counted by the replay and stated in the
 * application's {@link Completeness}; real logs, written by Spark and untouched, have none.
 */
class ReplayInconsistenciesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void everyRealTestkitRunReplaysWithoutAContradiction() {
    List<String> found = new ArrayList<>();
    for (TestkitFixtures.Fixture f : TestkitFixtures.all()) {
      Completeness c = EventLogs.replay(f.eventLog()).completeness();
      if (!c.inconsistencies().isEmpty()) {
        found.add(f.sparkVersion() + "/" + f.scenario() + ": " + c.inconsistencies());
      }
    }
    assertThat(found).isEmpty();
  }

  @Test
  void sparksOwnGoldenLogsReplayWithoutAContradiction() throws IOException {
    Path events = Path.of("..", "..", "shared", "conformance", "spark-shs", "spark-events");
    Path dir = Path.of(System.getProperty("user.dir")).resolve("../../shared/conformance/spark-shs/spark-events").normalize();
    assumeTrue(Files.isDirectory(dir), "../shared/conformance is absent (" + dir + "); skipped");
    List<String> found = new ArrayList<>();
    try (Stream<Path> logs = Files.list(dir)) {
      for (Path log : logs.sorted().toList()) {
        Completeness c = EventLogs.replay(log).completeness();
        if (!c.inconsistencies().isEmpty()) {
          found.add(log.getFileName() + ": " + c.inconsistencies());
        }
      }
    }
    assertThat(found).as(events.toString()).isEmpty();
  }

  @Test
  void aRepeatedTaskEndIsStatedWithItsLine(@TempDir Path dir) throws IOException {
    List<String> lines = healthyLines();
    int at = firstIndex(lines, l -> l.contains("\"SparkListenerTaskEnd\""));
    lines.add(at + 1, lines.get(at));
    Completeness c = EventLogs.replay(write(dir, lines)).completeness();
    assertThat(c.isComplete()).isFalse();
    assertThat(c.inconsistencies()).containsExactly(
        "task end events without the task's start (a start lost or an end repeated): 1, the first at local-1795964768091 line "
            + (at + 2));
    assertThat(c.describe()).contains("records contradict each other");
  }

  @Test
  void deletedTaskEndsLeaveTasksThatNeverEndedInAnApplicationThatDid(@TempDir Path dir) throws IOException {
    List<String> lines = healthyLines();
    long ends = lines.stream().filter(l -> l.contains("\"SparkListenerTaskEnd\"")).count();
    lines.removeIf(l -> l.contains("\"SparkListenerTaskEnd\""));
    Completeness c = EventLogs.replay(write(dir, lines)).completeness();
    assertThat(c.inconsistencies()).containsExactly(
        "tasks launched that never ended although the application did: " + ends + ", found once the whole log was read");
  }

  @Test
  void aJobEndedTwiceAndAJobEndWithoutItsStartAreStated(@TempDir Path dir) throws IOException {
    List<String> lines = healthyLines();
    int end = firstIndex(lines, l -> l.contains("\"SparkListenerJobEnd\""));
    lines.add(end + 1, lines.get(end));
    int start = firstIndex(lines, l -> l.contains("\"SparkListenerJobStart\"") && jobId(l) != jobId(lines.get(end)));
    lines.remove(start);
    Completeness c = EventLogs.replay(write(dir, lines)).completeness();
    assertThat(c.inconsistencies()).anyMatch(s -> s.startsWith("job end events for a job already ended: 1, the first at"))
        .anyMatch(s -> s.startsWith("job end events for a job whose start is not in the log: 1, the first at"));
  }

  @Test
  void aSqlExecutionThatNeverEndedRunsAtMostUntilTheApplicationEnded(@TempDir Path dir) throws IOException {
    List<String> lines = healthyLines();
    lines.removeIf(l -> l.contains("SparkListenerSQLExecutionEnd"));
    Path log = write(dir, lines);
    // The log's modification time, which the History Server takes for "now", years after the run.
    Files.setLastModifiedTime(log, java.nio.file.attribute.FileTime.fromMillis(4_000_000_000_000L));
    ReplayedApplication app = EventLogs.replay(log);
    long start = app.info().latestAttempt().startTimeEpoch();
    long end = app.info().latestAttempt().endTime().toEpochMilli();
    List<ExecutionData> running = app.sqlExecutions().stream().filter(x -> x.status().equals("RUNNING")).toList();
    assertThat(running).isNotEmpty().allSatisfy(x -> {
      assertThat(x.submissionTime().toEpochMilli()).isGreaterThanOrEqualTo(start);
      assertThat(x.submissionTime().toEpochMilli() + x.duration()).isEqualTo(end);
    });
  }

  private static List<String> healthyLines() throws IOException {
    return new ArrayList<>(Files.readAllLines(TestkitFixtures.get("3.5.9", "healthy").eventLog(), StandardCharsets.UTF_8));
  }

  private static Path write(Path dir, List<String> lines) throws IOException {
    return Files.write(dir.resolve("local-1795964768091"), lines, StandardCharsets.UTF_8);
  }

  private static int firstIndex(List<String> lines, Predicate<String> p) {
    for (int i = 0; i < lines.size(); i++) {
      if (p.test(lines.get(i))) {
        return i;
      }
    }
    throw new AssertionError("the healthy fixture has no such line");
  }

  private static int jobId(String line) {
    try {
      return JSON.readTree(line).path("Job ID").asInt(-1);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
