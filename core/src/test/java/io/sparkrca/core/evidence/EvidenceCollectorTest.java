package io.sparkrca.core.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.TestHttpServer;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The collector on real testkit runs: logs told apart, signatures found with lines, gaps exact. */
class EvidenceCollectorTest {
  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void executorLogsOfADirectoryAreToldApartAndTheirOomIsExcerptedWithLines() throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "executor-oom");
    Evidence e = EvidenceCollector.builder()
        .application(f.eventLog().toString())
        .driverLog(f.driverLog().toString())
        .executorLogs(f.dir().resolve("executor-logs").toString())
        .build()
        .collect();
    assertThat(e.application()).isPresent();
    assertThat(e.application().get().provider()).isEqualTo("event-log");
    assertThat(e.executorLogs()).extracting(l -> l.executorId().orElse("?")).containsExactly("0", "1");
    assertThat(e.executorLogs()).allMatch(l -> l.channel() == LogChannel.STDERR);
    LogEvidence exec0 = e.executorLogs("0").get(0);
    assertThat(exec0.count(LogSignatures.JAVA_HEAP_OOM)).isGreaterThanOrEqualTo(1);
    LogExcerpt oom = exec0.excerpts(LogSignatures.JAVA_HEAP_OOM).get(0);
    // The OOM line belongs to the log4j record that announced it, which has the time.
    assertThat(oom.line()).isEqualTo(52);
    assertThat(oom.text()).endsWith("ERROR Executor: Exception in task 0.0 in stage 0.0 (TID 0)");
    assertThat(oom.continuation().get(0)).isEqualTo("java.lang.OutOfMemoryError: Java heap space");
    assertThat(oom.continuation().subList(1, oom.continuation().size())).allMatch(l -> l.startsWith("\tat "));
    String announcing = Files.readAllLines(f.dir().resolve("executor-logs/0.stderr")).get(51);
    assertThat(oom.time()).isEqualTo(io.sparkrca.core.evidence.internal.LogTimes.parse(announcing));
    assertThat(oom.time()).isPresent();
    assertThat(oom.signatures()).contains(LogSignatures.ERROR_LINE, LogSignatures.JAVA_HEAP_OOM);
    assertThat(e.driverLogs()).hasSize(1);
    assertThat(e.driverLogs().get(0).count(LogSignatures.JAVA_HEAP_OOM)).isPositive();
    assertThat(e.gaps()).extracting(EvidenceGap::what, EvidenceGap::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("code", GapReason.NOT_REQUESTED));
  }

  @Test
  void aMixedDirectoryIsSortedIntoDriverAndExecutorLogsByContent(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "executor-lost-fetch-failure");
    Files.copy(f.driverLog(), dir.resolve("a.log"));
    Files.copy(f.dir().resolve("executor-logs/1.stderr"), dir.resolve("b.log"));
    Evidence e = EvidenceCollector.builder().logs(dir.toString()).build().collect();
    assertThat(e.driverLogs()).extracting(LogEvidence::uri).singleElement().asString().endsWith("a.log");
    assertThat(e.executorLogs()).singleElement().satisfies(l -> {
      assertThat(l.uri()).endsWith("b.log");
      assertThat(l.executorId()).contains("1");
      assertThat(l.classifiedBy()).startsWith("content");
    });
    assertThat(e.gaps(EvidenceKind.EVENT_LOG)).isEmpty();
    // No event log: the application is rebuilt from the two logs, and says so.
    assertThat(e.application()).hasValueSatisfying(a -> {
      assertThat(a.provider()).isEqualTo(EvidenceCollector.FROM_LOGS);
      assertThat(a.app().executors(false)).isNotEmpty();
    });
    assertThat(e.notes()).anyMatch(n -> n.startsWith("no event log: the application was rebuilt from 2 logs"));
    assertThat(EvidenceCollector.builder().logs(dir.toString()).rebuildFromLogs(false).build().collect().application())
        .isEmpty();
  }

  @Test
  void whatCannotBeCollectedIsAGapWithTheExactReason(@TempDir Path dir) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    try (TestHttpServer server = TestHttpServer.start()) {
      server.serve("/driver.log", TestHttpServer.Content.of("26/11/29 14:33:11 INFO SparkContext: Running Spark version 3.5.9\n"))
          .requireAuthorization("Bearer right");
      Evidence e = EvidenceCollector.builder()
          .application(f.eventLog().toString())
          .driverLog(server.url("/driver.log"))
          .executorLogs(dir.resolve("missing").toString())
          .build()
          .collect();
      assertThat(e.application()).isPresent();
      assertThat(e.gaps(EvidenceKind.DRIVER_LOG)).singleElement().satisfies(g -> {
        assertThat(g.reason()).isEqualTo(GapReason.ACCESS_DENIED);
        assertThat(g.detail()).contains("401");
      });
      assertThat(e.gaps(EvidenceKind.EXECUTOR_LOGS)).singleElement()
          .satisfies(g -> assertThat(g.reason()).isEqualTo(GapReason.NOT_FOUND));
    }
  }

  @Test
  void aCutOffEventLogIsACutOffGapAndItsApplicationIsStillThere() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record-inprogress");
    Evidence e = EvidenceCollector.builder().application(f.eventLog().toString()).build().collect();
    assertThat(e.application()).isPresent();
    assertThat(e.gaps(EvidenceKind.EVENT_LOG)).singleElement()
        .satisfies(g -> assertThat(g.reason()).isEqualTo(GapReason.CUT_OFF));
    assertThat(e.gaps()).extracting(EvidenceGap::what).contains("driver log", "executor logs", "code");
  }

  @Test
  void anUnreadableApplicationIsAGapNotAnException(@TempDir Path dir) throws IOException {
    Path notALog = Files.writeString(dir.resolve("app-1"), "hello\n");
    Evidence e = EvidenceCollector.builder().application(notALog.toString()).build().collect();
    assertThat(e.application()).isEmpty();
    assertThat(e.gaps(EvidenceKind.EVENT_LOG)).singleElement().satisfies(g -> {
      assertThat(g.reason()).isIn(GapReason.UNREADABLE, GapReason.ERROR);
      assertThat(g.detail()).contains("app-1");
    });
  }

  @Test
  void aSourceThatNeverAnswersBecomesATimeoutGap() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "flaky-task");
    try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + silent.getLocalPort() + "/driver.log";
      Evidence e = EvidenceCollector.builder()
          .application(f.eventLog().toString())
          .driverLog(url)
          .timeout(Duration.ofSeconds(2))
          .build()
          .collect();
      assertThat(e.application()).isPresent();
      assertThat(e.gaps(EvidenceKind.DRIVER_LOG)).singleElement()
          .satisfies(g -> assertThat(g.reason()).isEqualTo(GapReason.TIMEOUT));
    }
  }

  @Test
  void aCollectorNeedsSomethingToCollect() {
    assertThatThrownBy(() -> EvidenceCollector.builder().build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("nothing to collect");
  }

  @Test
  void codeWithoutAnInspectorOnTheClassPathIsAnUnsupportedGap() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "flaky-task");
    Evidence e = EvidenceCollector.builder().application(f.eventLog().toString()).code("/tmp/app.jar")
        .build().collect();
    assertThat(e.gaps(EvidenceKind.CODE)).singleElement().satisfies(g -> {
      assertThat(g.reason()).isEqualTo(GapReason.UNSUPPORTED);
      assertThat(g.whatToDo()).contains("sparkrca-inspector");
    });
  }
}
