package io.sparkrca.core.logs.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskFailureGroup;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskStatus;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a log-rebuilt application says beyond the History Server's model, on real testkit logs:
 * the line each fact came from, how the application ended, the events and errors; and how it
 * reads damaged logs. Expected line numbers are looked up in the real files, never written here.
 */
class LogReplayTest {
  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  private static LogApplication read(TestkitFixtures.Fixture f) {
    return LogReplay.builder().build().read(LogReplayParityTest.logs(f));
  }

  /** The 1-based number of the first line of {@code log} that contains {@code text}. */
  private static long lineOf(Path log, String text) throws IOException {
    List<String> lines = Files.readAllLines(log);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        return i + 1;
      }
    }
    throw new AssertionError(text + " is not in " + log);
  }

  @Test
  void everyJobStageTaskAndFailureCitesTheLineItCameFrom() throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    Path log = f.driverLog();
    LogApplication app = read(f);

    LogProvenance.Span job = app.jobProvenance(0).orElseThrow();
    assertThat(job.start().orElseThrow()).isEqualTo(new LogProvenance(log.toString(), lineOf(log, "Got job 0 (")));
    assertThat(job.end().orElseThrow().line()).isEqualTo(lineOf(log, "Job 0 failed: "));
    LogProvenance.Span stage = app.stageProvenance(0, 0).orElseThrow();
    assertThat(stage.start().orElseThrow().line()).isEqualTo(lineOf(log, "Submitting ResultStage 0 ("));
    assertThat(stage.end().orElseThrow().line()).isEqualTo(lineOf(log, "ResultStage 0 (reduce at Workload.java:38) failed in"));
    LogProvenance.Span task = app.taskProvenance(2).orElseThrow();
    assertThat(task.start().orElseThrow().line()).isEqualTo(lineOf(log, "Starting task 2.0 in stage 0.0 (TID 2)"));
    assertThat(task.end().orElseThrow().line()).isEqualTo(lineOf(log, "Lost task 2.0 in stage 0.0 (TID 2)"));

    TaskFailureGroup failures = app.facts().taskFailures().get(0);
    assertThat(failures.count()).isEqualTo(4);
    assertThat(failures.exceptionClass()).isEqualTo("java.lang.NumberFormatException");
    assertThat(failures.partitionIndices()).containsExactly(2);
    assertThat(failures.source()).isEqualTo(log.toString());
    assertThat(failures.firstLine()).isEqualTo(lineOf(log, "Lost task 2.0 in stage 0.0 (TID 2)"));
    assertThat(failures.firstDetail()).startsWith("java.lang.NumberFormatException: For input string: \"12x\"\n\tat ");
    assertThat(app.facts().stageFailures()).singleElement()
        .satisfies(s -> assertThat(s.line()).isEqualTo(lineOf(log, "ResultStage 0 (reduce at Workload.java:38) failed in")));
  }

  @Test
  void aDriverWhoseMainThrewFailedAtTheLineThatSaysSo() throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "bad-record");
    LogApplication app = read(f);

    LogOutcome o = app.outcome();
    assertThat(o.status()).isEqualTo(LogOutcome.Status.FAILED);
    assertThat(o.reason()).startsWith("Exception in thread \"main\" org.apache.spark.SparkException: Job aborted");
    assertThat(o.at().orElseThrow().line()).isEqualTo(lineOf(f.driverLog(), "Exception in thread \"main\""));
    assertThat(o.exitCode()).as("SparkContext's 0 is not the process's code").isEmpty();
    assertThat(app.exceptions()).anySatisfy(e -> {
      assertThat(e.emitter()).isEqualTo("stderr");
      assertThat(e.level()).isEqualTo("ERROR");
      assertThat(e.trace().rootCause().orElseThrow().className()).isEqualTo("java.lang.NumberFormatException");
    });
    assertThat(app.info().latestAttempt().completed()).isTrue();
  }

  @Test
  void aHealthyRunSucceededAndAKilledDriversRunHasNoEnd() {
    LogApplication healthy = read(TestkitFixtures.get("3.5.9", "healthy"));
    assertThat(healthy.outcome().status()).isEqualTo(LogOutcome.Status.SUCCEEDED);
    assertThat(healthy.outcome().exitCode()).contains(0);
    assertThat(healthy.completeness().cutOff()).isFalse();

    LogApplication killed = read(TestkitFixtures.get("4.0.4", "driver-killed-mid-job"));
    assertThat(killed.outcome().status()).isEqualTo(LogOutcome.Status.UNKNOWN);
    assertThat(killed.info().latestAttempt().completed()).isFalse();
    assertThat(killed.completeness().cutOff()).isTrue();
    assertThat(killed.completeness().notes()).anyMatch(n -> n.startsWith("the driver's log does not show the application ending"));
    assertThat(killed.stages(StageQuery.all())).anyMatch(s -> s.status() == StageStatus.ACTIVE);
  }

  @Test
  void aLostExecutorsExitAndRemovalAreEventsWithTheirLines() throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure");
    LogApplication app = read(f);

    LogEvent exited = app.events().stream().filter(e -> e.kind() == LogEvent.Kind.EXECUTOR_EXITED).findFirst().orElseThrow();
    assertThat(exited.executorId()).contains("1");
    assertThat(exited.exitCode()).hasValue(137);
    assertThat(exited.at().line()).isEqualTo(lineOf(f.driverLog(), "is now EXITED (Command exited with code 137)"));
    LogProvenance.Span executor = app.executorProvenance("1").orElseThrow();
    assertThat(executor.end().orElseThrow().line()).isEqualTo(lineOf(f.driverLog(), "Lost executor 1 on localhost"));
    assertThat(app.facts().executorRemovals()).singleElement().satisfies(r -> {
      assertThat(r.reason()).isEqualTo("Command exited with code 137");
      assertThat(r.line()).isEqualTo(executor.end().orElseThrow().line());
    });
    assertThat(app.events()).anyMatch(e -> e.kind() == LogEvent.Kind.STAGES_RESUBMITTED);
    assertThat(app.events()).anyMatch(e -> e.kind() == LogEvent.Kind.FETCH_FAILURE && e.stageId().orElse(-1) == 1);
    assertThat(app.sections()).filteredOn(s -> s.role() == LogRole.EXECUTOR).extracting(s -> s.executorId().orElseThrow())
        .containsExactlyInAnyOrder("0", "1", "2");
    assertThat(app.master()).hasValueSatisfying(m -> assertThat(m).startsWith("spark://"));
  }

  @Test
  void executorsLinesGiveTheTraceTheDriversDuplicateLinesLeaveOut() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    LogApplication app = read(f);

    // "Lost task 2.1 ... [duplicate 1]" names the class and message only; the executor's lines have the trace
    var retry = app.tasks(0, 0, TaskQuery.all().withStatuses(Set.of(TaskStatus.FAILED))).stream()
        .filter(t -> t.taskId() == 4).findFirst().orElseThrow();
    assertThat(retry.errorMessage().orElseThrow())
        .startsWith("java.lang.NumberFormatException: For input string: \"12x\"\n\tat java.base/");
  }

  @Test
  void spillLinesAreEventsWithTheirBytes() {
    LogApplication app = read(TestkitFixtures.get("3.5.9", "spill"));

    List<LogEvent> spills = app.events().stream().filter(e -> e.kind() == LogEvent.Kind.SPILL).toList();
    assertThat(spills).isNotEmpty().allSatisfy(e -> assertThat(e.bytes().orElseThrow()).isEqualTo(36L << 20));
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("spill line"));
  }

  @Test
  void recordsJoinTheirContinuationLinesWhateverTheLayout() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    List<LogRecord> records = new ArrayList<>();
    List<LogSection> sections = LogReplay.builder().build().forEachRecord(f.driverLog().toString(), r -> records.add(r));

    assertThat(sections).singleElement().satisfies(s -> assertThat(s.records()).isEqualTo(records.size()));
    LogRecord lost = records.stream().filter(r -> r.message().startsWith("Lost task 2.0 in stage 0.0")).findFirst().orElseThrow();
    assertThat(lost.level()).isEqualTo("WARN");
    assertThat(lost.emitter()).isEqualTo("TaskSetManager");
    assertThat(lost.time()).isPresent();
    assertThat(lost.continuation()).startsWith("\tat java.base/java.lang.NumberFormatException.forInputString");
    LogRecord main = records.stream().filter(r -> r.emitter().equals("stderr")).findFirst().orElseThrow();
    assertThat(main.message()).startsWith("Exception in thread \"main\"");
    assertThat(main.continuation()).contains("Caused by: java.lang.NumberFormatException");

    List<LogRecord> firstTwo = new ArrayList<>();
    LogReplay.builder().build().forEachRecord(f.driverLog().toString(), r -> firstTwo.add(r) && firstTwo.size() < 2);
    assertThat(firstTwo).hasSize(2);
  }

  @Test
  void aStructuredJsonExceptionBecomesTheRecordsTrace() throws Exception {
    Path log = Path.of(getClass().getResource("structured-4.0.4/bad-record/driver-stderr.log.gz").toURI());
    List<LogRecord> records = new ArrayList<>();
    LogReplay.builder().build().forEachRecord(log.toString(), records::add);

    LogRecord exception = records.stream().filter(r -> r.message().equals("Exception in task 2.0 in stage 0.0 (TID 2)"))
        .findFirst().orElseThrow();
    assertThat(exception.emitter()).isEqualTo("Executor");
    assertThat(exception.level()).isEqualTo("ERROR");
    assertThat(exception.continuation()).startsWith("java.lang.NumberFormatException: For input string: \"12x\"\n\tat "
        + "java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)");
    assertThat(exception.time().orElseThrow().toEpochMilli() % 1000).as("structured times keep their milliseconds").isNotZero();
  }

  // ------------------------------------------------------------------ damage

  @Test
  void aLogCutMidLineGivesWhatItHoldsAndSaysItWasCut(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    byte[] all = Files.readAllBytes(f.driverLog());
    String text = new String(all, StandardCharsets.UTF_8);
    int cut = text.indexOf("Lost task 2.1 in stage 0.0") + 20;
    Path log = dir.resolve("driver.log");
    Files.write(log, java.util.Arrays.copyOf(all, text.substring(0, cut).getBytes(StandardCharsets.UTF_8).length));

    LogApplication app = LogReplay.builder().build().read(List.of(log.toString()));

    assertThat(app.completeness().cutOff()).isTrue();
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("ends in the middle of line"));
    StageData stage = app.stageAttempt(0, 0, StageQuery.all()).orElseThrow();
    assertThat(stage.status()).isEqualTo(StageStatus.ACTIVE);
    assertThat(stage.numCompleteTasks()).isEqualTo(3);
    assertThat(app.outcome().status()).isEqualTo(LogOutcome.Status.UNKNOWN);
  }

  @Test
  void garbageAndACutGzipAreNotedWhileTheOtherLogsAreRead(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    Path garbage = dir.resolve("executor-9.log");
    byte[] noise = new byte[20_000];
    new Random(7).nextBytes(noise);
    Files.write(garbage, noise);
    Path cutGzip = dir.resolve("executor-0.stderr.gz");
    java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(gz)) {
      out.write(Files.readAllBytes(f.dir().resolve("executor-logs/0.stderr")));
    }
    Files.write(cutGzip, java.util.Arrays.copyOf(gz.toByteArray(), gz.size() / 2));

    LogApplication app = LogReplay.builder().build()
        .read(List.of(f.driverLog().toString(), garbage.toString(), cutGzip.toString()));

    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("not read: it is binary"));
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("gzip stream ends early"));
    assertThat(app.completeness().cutOff()).isTrue();
    Parity p = Parity.compare("damaged", EventLogs.replay(f.eventLog()), app);
    assertThat(p.mismatches()).as(p::report).isEmpty();
  }

  @Test
  void overLongLinesAreCutAndCounted(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    Path log = dir.resolve("driver.log");
    Files.writeString(log, Files.readString(f.driverLog()).replace("For input string", "x".repeat(5000)));

    LogApplication app = LogReplay.builder().maxLineBytes(2048).build().read(List.of(log.toString()));

    assertThat(app.completeness().unreadableRecords()).isPositive();
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("longer than 2048 bytes"));
    assertThat(app.jobs(Set.of())).hasSize(1);
  }

  @Test
  void taskRowsAreCappedPerStageWhileCountsStayExact() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "too-many-small-tasks");
    LogApplication app = LogReplay.builder().maxTaskRowsPerStage(100).build().read(LogReplayParityTest.logs(f));
    StageData oracle = EventLogs.replay(f.eventLog()).stages(StageQuery.all()).get(0);

    StageData stage = app.stageAttempt(oracle.stageId(), oracle.attemptId(), StageQuery.all()).orElseThrow();
    assertThat(stage.numCompleteTasks()).isEqualTo(oracle.numCompleteTasks());
    assertThat(app.tasks(stage.stageId(), stage.attemptId(), TaskQuery.all())).hasSize(100);
    assertThat(app.completeness().droppedTaskRows()).isEqualTo(oracle.numTasks() - 100);
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("task rows were not kept"));
    assertThat(app.facts().totalTaskTimeMs()).isEqualTo(LogReplay.builder().build().read(LogReplayParityTest.logs(f))
        .facts().totalTaskTimeMs());
  }

  @Test
  void aLogThatIsNotThereIsAnErrorNamingIt(@TempDir Path dir) {
    String missing = dir.resolve("no-such-driver.log").toString();
    assertThatThrownBy(() -> LogReplay.builder().build().read(List.of(missing)))
        .isInstanceOf(InputNotFoundException.class).hasMessageContaining("no-such-driver.log");
    assertThatThrownBy(() -> LogReplay.builder().build().read(List.of()))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("no log given");
    assertThatThrownBy(() -> LogReplay.builder().maxLineBytes(10))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("line cap");
  }

  @Test
  void aDataprocDriverOutputPrefixIsReadAsOneLogAcrossItsParts(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "flaky-task");
    List<String> lines = Files.readAllLines(f.driverLog());
    int half = lines.size() / 2;
    Files.write(dir.resolve("driveroutput.000000000"), lines.subList(0, half));
    Files.write(dir.resolve("driveroutput.000000001"), lines.subList(half, lines.size()));
    Files.writeString(dir.resolve("driveroutput.000000002"), ""); // trailing parts are often empty

    LogApplication app = LogReplay.builder().build().read(List.of(dir.resolve("driveroutput").toString()));

    Parity p = Parity.compare("driveroutput", EventLogs.replay(f.eventLog()), app);
    assertThat(p.mismatches()).as(p::report).isEmpty();
    assertThat(app.completeness().notes()).anyMatch(n -> n.contains("Resolved the driver output prefix to 3 parts"));
  }

  @Test
  void secretsInTheLinesReachNoText(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    Path log = dir.resolve("driver.log");
    Files.writeString(log, Files.readString(f.driverLog()).replace("For input string: \"12x\"",
        "For input string: \"https://etl:hunter2@bucket.example.com/part-2\""));

    LogApplication app = LogReplay.builder().build().read(List.of(log.toString()));
    List<String> texts = new ArrayList<>();
    app.tasks(0, 0, TaskQuery.all()).forEach(t -> texts.add(t.errorMessage().orElse("")));
    app.stages(StageQuery.all()).forEach(s -> texts.add(s.failureReason().orElse("")));
    app.exceptions().forEach(e -> texts.add(e.headline() + e.text()));
    app.facts().taskFailures().forEach(g -> texts.add(g.description() + g.firstDetail()));
    texts.add(app.outcome().reason());
    List<String> records = new ArrayList<>();
    LogReplay.builder().build().forEachRecord(log.toString(), r -> records.add(r.text()));

    assertThat(String.join("\n", texts)).contains("https://***@bucket.example.com").doesNotContain("hunter2");
    assertThat(records).noneMatch(r -> r.contains("hunter2"));
    assertThat(LogReplay.builder().redact(false).build().forEachRecord(log.toString(), r -> !r.text().contains("hunter2")))
        .as("raw records when asked").isNotEmpty();
  }

  @Test
  void aGzippedLogIsReadLikeThePlainOne(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure");
    Path gz = dir.resolve("driver-stderr.log.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(Files.readAllBytes(f.driverLog()));
    }
    List<String> logs = new ArrayList<>(List.of(gz.toString()));
    WrappedLogs.executorLogs(f).forEach(p -> logs.add(p.toString()));

    Parity p = Parity.compare("gzip", EventLogs.replay(f.eventLog()), LogReplay.builder().build().read(logs));
    assertThat(p.mismatches()).as(p::report).isEmpty();
  }
}
