package io.sparkrca.core.eventlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Corrupt, truncated and hostile logs give a clear error or a partial result that says so. */
class BadInputTest {
  private static final String START =
      "{\"Event\":\"SparkListenerApplicationStart\",\"App Name\":\"a\",\"App ID\":\"app-1\",\"Timestamp\":1000,\"User\":\"u\"}\n";
  private static final String JOB_START =
      "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":0,\"Submission Time\":1001,\"Stage Infos\":[],\"Stage IDs\":[]}\n";
  private static final String JOB_END =
      "{\"Event\":\"SparkListenerJobEnd\",\"Job ID\":0,\"Completion Time\":1002,\"Job Result\":{\"Result\":\"JobSucceeded\"}}\n";
  private static final String END = "{\"Event\":\"SparkListenerApplicationEnd\",\"Timestamp\":2000}\n";

  private static Path write(Path dir, String name, String content) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, content, StandardCharsets.UTF_8);
    return p;
  }

  @Test
  void aLineThatIsNotJsonIsCountedWithItsLineNumberAndTheRestIsRead(@TempDir Path dir) throws IOException {
    Path log = write(dir, "app-1", START + "this is not json\n" + JOB_START + JOB_END + END);

    ReplayedApplication app = EventLogs.replay(log);

    assertThat(app.report().badLineCount()).isEqualTo(1);
    assertThat(app.report().badLines()).singleElement().satisfies(b -> {
      assertThat(b.lineNumber()).isEqualTo(2);
      assertThat(b.reason()).contains("not a JSON object");
    });
    assertThat(app.jobs(Set.of())).hasSize(1);
    assertThat(app.report().completed()).isTrue();
  }

  @Test
  void aFieldOfTheWrongTypeIsABadLineNamingTheField(@TempDir Path dir) throws IOException {
    String badTask =
        "{\"Event\":\"SparkListenerTaskStart\",\"Stage ID\":0,\"Task Info\":{\"Task ID\":\"seven\"}}\n";
    Path log = write(dir, "app-1", START + badTask + END);

    ReplayedApplication app = EventLogs.replay(log);

    assertThat(app.report().badLines()).singleElement().satisfies(b -> {
      assertThat(b.lineNumber()).isEqualTo(2);
      assertThat(b.reason()).contains("'Task ID' should be a number but is a string");
    });
  }

  @Test
  void strictModeMakesTheFirstBadLineFatal(@TempDir Path dir) throws IOException {
    Path log = write(dir, "app-1", START + "{\"Event\":\"SparkListenerJobStart\",\"Job ID\":\"x\"}\n" + END);

    assertThatThrownBy(() -> EventLogs.reader().strict(true).build().replay(log.toString()))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("line 2")
        .hasMessageContaining("strict mode");
  }

  @Test
  void aLastLineCutMidWriteIsTruncationNotABadLine(@TempDir Path dir) throws IOException {
    Path log = write(dir, "app-1.inprogress", START + JOB_START + "{\"Event\":\"SparkListenerJobEnd\",\"Job I");

    ReplayedApplication app = EventLogs.replay(log);

    assertThat(app.report().badLineCount()).isZero();
    assertThat(app.report().truncated()).isTrue();
    assertThat(app.report().completed()).isFalse();
    assertThat(app.report().notes()).anyMatch(n -> n.contains("incomplete line (line 3)"));
    assertThat(app.attemptInfo().completed()).isFalse();
  }

  @Test
  void anOverlongLineIsSkippedAndReportedWithoutBufferingIt(@TempDir Path dir) throws IOException {
    String huge = "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"x\":\"" + "a".repeat(50_000) + "\"}\n";
    Path log = write(dir, "app-1", START + huge + JOB_START + JOB_END + END);

    ReplayedApplication app = EventLogs.reader().maxLineBytes(4096).build().replay(log.toString());

    assertThat(app.report().overlongLines()).isEqualTo(1);
    assertThat(app.report().notes()).anyMatch(n -> n.contains("line 2 is") && n.contains("line cap"));
    assertThat(app.jobs(Set.of())).hasSize(1);
  }

  @Test
  void anEmptyFileIsAnErrorThatSaysEmpty(@TempDir Path dir) throws IOException {
    Path log = write(dir, "app-1", "");

    assertThatThrownBy(() -> EventLogs.replay(log))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("is empty")
        .hasMessageContaining("spark.eventLog.enabled");
  }

  @Test
  void aDirectoryWithoutLogsSaysWhatWasExpected(@TempDir Path dir) throws IOException {
    Files.createDirectory(dir.resolve("nothing-here"));

    assertThatThrownBy(() -> EventLogs.replay(dir.resolve("nothing-here")))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("holds no event log files");
  }

  @Test
  void aDriverLogGivenByMistakeIsNotAnEventLog(@TempDir Path dir) throws IOException {
    Path log =
        write(dir, "driver.log", "24/01/01 10:00:00 INFO SparkContext: Running Spark version 3.5.1\n"
            + "24/01/01 10:00:01 ERROR Executor: Exception in task 0.0\n");

    assertThatThrownBy(() -> EventLogs.replay(log))
        .isInstanceOf(CorruptInputException.class)
        .hasMessageContaining("is not a Spark event log")
        .hasMessageContaining("not a driver log");
  }

  @Test
  void aMissingPathIsNotFound(@TempDir Path dir) {
    assertThatThrownBy(() -> EventLogs.replay(dir.resolve("nope")))
        .isInstanceOf(InputNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void aDirectoryOfSeveralLogsMustBeNarrowedForASingleReplay(@TempDir Path dir) throws IOException {
    write(dir, "app-1", START + END);
    write(dir, "app-2", START.replace("app-1", "app-2") + END);

    assertThatThrownBy(() -> EventLogs.replay(dir))
        .hasMessageContaining("holds 2 event logs")
        .hasMessageContaining("name one of them");
  }
}
