package io.sparkrca.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.io.DecodedStream;
import io.sparkrca.core.model.StageData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The event-log line parser and replay on mutated lines of real Spark event logs: whatever the
 * damage, replay answers (a partial application) or throws the library's own exception, and every
 * view of the application it answers can be read, each try within a time bound.
 */
class EventLogReplayFuzzTest {
  /** Real logs of a failed run, a healthy one and a cluster run with executors lost, decompressed. */
  private static final String[][] LOGS = {
    {"bad-record", "eventlog/local-1795962689745"},
    {"flaky-task", "eventlog/local-1795962701117.zstd"},
    {"gc-pressure", "eventlog/local-1795962859128.gz"},
    {"task-not-serializable", "eventlog/local-1796159063511.snappy"},
  };
  private static byte[][] texts;
  private static Path dir;

  @BeforeContainer
  static void readFixtures() throws IOException {
    texts = new byte[LOGS.length][];
    for (int i = 0; i < LOGS.length; i++) {
      byte[] stored = Fuzz.fixture(LOGS[i][0], LOGS[i][1]);
      try (InputStream in = DecodedStream.open(ByteSource.of(LOGS[i][1], stored), false)) {
        texts[i] = in.readAllBytes();
      }
    }
    dir = Files.createTempDirectory("sparkrca-fuzz-eventlog");
  }

  @AfterContainer
  static void removeFiles() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Property(shrinking = ShrinkingMode.OFF)
  void replayOfAMutatedLogAnswersOrSaysWhyNot(@ForAll long seed, @ForAll Mutations mutation,
      @ForAll @IntRange(min = 0, max = 3) int log) throws IOException {
    byte[] damaged = mutation.apply(texts[log], new Random(seed));
    Path file = dir.resolve("local-" + Math.abs(seed % 1_000_000) + "-" + mutation);
    Files.write(file, damaged);
    try {
      String input = mutation + " of " + LOGS[log][0] + " (seed " + seed + ")";
      Fuzz.holdsContract(input, () -> readEverything(EventLogs.replay(file)));
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /**
   * Was a known violation (issue 44 section 1): a task-end record without its executor id (here the
   * key damaged, as a bit flip does it) ended the whole replay with a raw NullPointerException; it
   * is now a bad line, skipped and counted, and the rest of the log is read.
   */
  @Example
  void aTaskEndWithoutItsExecutorIdIsSkippedAsABadLine() throws IOException {
    String log = new String(texts[0], StandardCharsets.UTF_8);
    int taskEnd = log.indexOf("{\"Event\":\"SparkListenerTaskEnd\"");
    int key = log.indexOf("\"Executor ID\"", taskEnd);
    String damaged = log.substring(0, key) + "\"Executor_ID\"" + log.substring(key + "\"Executor ID\"".length());
    assertThat(badLinesOfReplaying("local-1795962689745", damaged)).isEqualTo(1);
  }

  /**
   * Found by the mutation corpus (a JSON value made null): an executor event whose executor id is
   * null ended the replay with a raw NullPointerException from the executors' sorted map; it is now
   * a bad line, skipped and counted like any other.
   */
  @Example
  void anExecutorAddedEventWithANullExecutorIdIsSkippedAsABadLine() throws IOException {
    byte[] stored = Fuzz.fixture("task-not-serializable", "eventlog/local-1796159063511.snappy");
    String log;
    try (InputStream in = DecodedStream.open(ByteSource.of("local-1796159063511.snappy", stored), false)) {
      log = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int added = log.indexOf("{\"Event\":\"SparkListenerExecutorAdded\"");
    int key = log.indexOf("\"Executor ID\":\"", added);
    int end = log.indexOf('"', key + "\"Executor ID\":\"".length());
    String damaged = log.substring(0, key) + "\"Executor ID\":null" + log.substring(end + 1);
    assertThat(badLinesOfReplaying("local-1796159063511", damaged)).isEqualTo(1);
  }

  /** Replays {@code log} written as {@code name}, reads every view of it, and returns its bad-line count. */
  private long badLinesOfReplaying(String name, String log) throws IOException {
    Path file = dir.resolve(name);
    Files.writeString(file, log);
    try {
      ReplayedApplication app = EventLogs.replay(file);
      readEverything(app);
      return app.report().badLineCount();
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Every view the History Server would serve, so lazily built parts are exercised too. */
  static int readEverything(ReplayedApplication app) {
    int n = 0;
    n += app.info().toString().length();
    n += app.completeness().toString().length();
    n += app.jobs(Set.of()).size();
    for (StageData s : app.stages(StageQuery.all())) {
      n += app.tasks(s.stageId(), s.attemptId(), TaskQuery.first(20)).size();
      n += app.taskSummary(s.stageId(), s.attemptId(), StageQuery.DEFAULT_QUANTILES).isPresent() ? 1 : 0;
    }
    n += app.executors(false).size();
    n += app.sqlExecutions().size();
    n += app.rdds().size();
    n += app.environment().isPresent() ? 1 : 0;
    return n;
  }
}
