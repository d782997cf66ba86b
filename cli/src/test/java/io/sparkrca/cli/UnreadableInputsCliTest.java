package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directories of real logs (testkit fixtures) with unreadable members next to them: one line says
 * how many were skipped and why, an empty log is an error as in {@code rca}, a damaged rolling log
 * keeps a directory answering, and a named pipe never blocks a {@code logs} command.
 */
class UnreadableInputsCliTest {
  @TempDir Path dir;

  private void realLogsAndGarbage(int garbage) throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Files.copy(TestkitFixtures.get("3.5.9", "healthy").eventLog(), dir.resolve("local-1795964768091"));
    Random random = new Random(7);
    for (int i = 0; i < garbage; i++) {
      byte[] bytes = new byte[5000];
      random.nextBytes(bytes);
      bytes[0] = 0; // binary for sure
      Files.write(dir.resolve("app-garbage-" + i), bytes);
    }
  }

  @Test
  void summarizeOverADirectoryWithGarbageSaysOnceHowManyLogsWereSkippedAndWhy() throws IOException {
    realLogsAndGarbage(4);

    CliRun run = CliRun.of("summarize", dir.toString());

    assertThat(run.exitCode()).isZero();
    assertThat(run.err().lines()).singleElement().asString()
        .startsWith("sparkrca: skipped 4 of 5 logs in " + dir + ": 4 ")
        .endsWith("(run again with --debug for each log's reason)");
    CliRun debug = CliRun.of("summarize", "--debug", dir.toString());
    assertThat(debug.err().lines()).hasSize(5).filteredOn(l -> l.contains("app-garbage-")).hasSize(4);
  }

  @Test
  void logsSearchAndCountOverADirectoryWithCorruptMembersSayOnceHowManyWereSkipped() throws IOException {
    realLogsAndGarbage(0);
    Random random = new Random(11);
    for (int i = 0; i < 3; i++) {
      byte[] bytes = new byte[4000];
      random.nextBytes(bytes);
      bytes[0] = 0x1f; // gzip's magic bytes, then garbage
      bytes[1] = (byte) 0x8b;
      Files.write(dir.resolve("executor-" + i + ".log.gz"), bytes);
    }

    for (String action : new String[] {"search", "count"}) {
      CliRun run = CliRun.of("logs", action, "--literal", "SparkListenerJobStart", dir.toString());

      assertThat(run.exitCode()).as("logs %s", action).isEqualTo(2);
      assertThat(run.out()).as("logs %s still answers for the readable log", action).contains("local-1795964768091");
      assertThat(run.err().lines()).as("logs %s", action).singleElement().asString()
          .startsWith("sparkrca: skipped 3 of 4 logs: 3 ")
          .endsWith("(run again with --debug for each log's reason)");
      CliRun debug = CliRun.of("--debug", "logs", action, "--literal", "SparkListenerJobStart", dir.toString());
      assertThat(debug.err().lines()).as("logs %s --debug", action)
          .filteredOn(l -> l.startsWith("sparkrca: skipped ") && l.contains("executor-")).hasSize(3);
    }
  }

  @Test
  void apiOverADirectoryWithALogCutBeforeItsApplicationStartSaysItLeftItOut() throws IOException {
    realLogsAndGarbage(0);
    byte[] whole = Files.readAllBytes(TestkitFixtures.get("3.5.9", "bad-record").eventLog());
    String text = new String(whole, java.nio.charset.StandardCharsets.UTF_8);
    int start = text.indexOf("{\"Event\":\"SparkListenerApplicationStart\"");
    assertThat(start).as("the fixture has its application start").isPositive();
    Files.writeString(dir.resolve("local-1795962689745"), text.substring(0, start - 10)); // cut mid-line, before it

    CliRun run = CliRun.of("api", dir.toString(), "applications");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("local-1795964768091").doesNotContain("local-1795962689745");
    assertThat(run.err().lines()).singleElement().asString().contains("skipped 1 of 2 logs in " + dir);
    CliRun debug = CliRun.of("--debug", "api", dir.toString(), "applications");
    assertThat(debug.err()).contains("local-1795962689745: has no application start event");
  }

  @Test
  void apiOverAnEmptyFileIsTheErrorRcaGivesWithExitTwo() throws IOException {
    Path empty = Files.createFile(dir.resolve("app-empty"));

    CliRun api = CliRun.of("api", empty.toString(), "applications");
    CliRun rca = CliRun.of("rca", empty.toString());

    assertThat(api.exitCode()).isEqualTo(2).isEqualTo(rca.exitCode());
    assertThat(api.out()).doesNotContain("[");
    assertThat(api.err()).contains(empty + " is empty").contains("not an event log");
  }

  @Test
  void apiOverADirectoryWithGarbageAnswersAndSaysOnceWhatItSkipped() throws IOException {
    realLogsAndGarbage(3);

    CliRun run = CliRun.of("api", dir.toString(), "applications");

    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("local-1795964768091");
    assertThat(run.err().lines()).singleElement().asString().contains("skipped 3 of 4 logs in " + dir);
  }

  @Test
  void apiOverADirectoryOfOnlyGarbageIsAnError() throws IOException {
    realLogsAndGarbage(3);
    Files.delete(dir.resolve("local-1795964768091"));

    CliRun run = CliRun.of("api", dir.toString(), "applications");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("none of the 3 logs in " + dir + " could be read");
  }

  @Test
  void aRollingLogPartWhoseNumberIsTooLargeForALongLeavesTheDirectoryAnswering() throws IOException {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Path fixture = TestkitFixtures.get("4.0.4", "too-many-small-tasks").eventLog();
    Path rolling = Files.createDirectories(dir.resolve(fixture.getFileName().toString()));
    try (Stream<Path> files = Files.list(fixture)) {
      for (Path f : files.toList()) {
        Files.copy(f, rolling.resolve(f.getFileName()));
      }
    }
    Files.copy(rolling.resolve("events_2_local-1795965015721.zstd"),
        rolling.resolve("events_99999999999999999999_local-1795965015721.zstd"));

    CliRun api = CliRun.of("api", dir.toString(), "applications/local-1795965015721/jobs");
    CliRun summary = CliRun.of("summarize", dir.toString());

    assertThat(api.exitCode()).isZero();
    assertThat(api.err()).doesNotContain("NumberFormatException");
    assertThat(summary.exitCode()).isZero();
    assertThat(summary.out()).contains("was skipped: its part number 99999999999999999999 is too large");
  }

  @Test
  void logsCommandsRefuseANamedPipeInsteadOfWaitingForAWriter() throws Exception {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
    Files.copy(TestkitFixtures.get("4.0.4", "healthy").driverLog(), dir.resolve("driver-stderr.log"));
    Path fifo = io.sparkrca.core.testkit.NamedPipes.make(dir.resolve("pipe.log"));

    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      CliRun search = CliRun.of("logs", "search", "--literal", "Executor", dir.toString());
      assertThat(search.out()).contains("driver-stderr.log");
      assertThat(search.err()).contains("pipe.log is a named pipe (FIFO), not a regular file");
      for (String[] action : new String[][] {{"tail", "-n", "5"}, {"count"}}) {
        String[] args = Stream.concat(Stream.concat(Stream.of("logs"), Stream.of(action)), Stream.of(fifo.toString()))
            .toArray(String[]::new);
        CliRun run = CliRun.of(args);
        assertThat(run.exitCode()).as(action[0]).isEqualTo(2);
        assertThat(run.err()).as(action[0]).contains("named pipe (FIFO)");
      }
    });
  }
}
