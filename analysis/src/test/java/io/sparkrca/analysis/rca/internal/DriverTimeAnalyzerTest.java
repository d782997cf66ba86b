package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.Metric;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.analysis.SparkGoldenLogs;
import io.sparkrca.analysis.rca.RcaEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Time without a job: driver work in a batch application, the user's time between commands in an
 * interactive session. The sessions are Spark's own golden event logs of real {@code spark-shell}
 * runs (HistoryServerSuite's {@code spark-events}, from spark-core's tests jar); the batch is the
 * testkit's {@code driver-bottleneck} run.
 */
class DriverTimeAnalyzerTest {
  @TempDir Path dir;

  private Path golden(String name) throws IOException {
    return SparkGoldenLogs.copy(name, dir);
  }

  private static RcaReport rca(Path log) {
    return RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString()).build().collect());
  }

  private static double metric(Finding f, String name) {
    return f.metrics().stream().filter(m -> m.name().equals(name)).mapToDouble(Metric::value).findFirst().orElseThrow();
  }

  @Test
  void aShellOnYarnThatKeptItsExecutorsThroughItsIdleTimeIsAnIdleSession() throws IOException {
    RcaReport r = rca(golden("application_1516285256255_0012"));

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.IDLE_SESSION);
    assertThat(r.rootCause().explanation()).contains("Spark shell").contains("between the user's commands")
        .contains("Dynamic allocation is off");
    assertThat(r.rootCause().culprit().executorIds()).containsExactlyInAnyOrder("1", "2", "3", "4", "5");
    assertThat(r.findings()).noneMatch(f -> f.kind() == RootCauseKind.DRIVER_BOTTLENECK);
    Finding idle = r.findings().get(0);
    // The session ran one 3 s job in 7.9 min; its five 1-core executors waited through the rest of it.
    assertThat(metric(idle, "executorsHeld")).isEqualTo(5);
    assertThat(metric(idle, "sessionIdleShare")).isBetween(0.9, 1.0);
    assertThat(metric(idle, "idleExecutorMs")).isLessThanOrEqualTo(5 * metric(idle, "sessionIdleMs"));
    assertThat(r.recommendations()).flatExtracting(rec -> rec.properties().stream().map(PropertyChange::property).toList())
        .contains("spark.dynamicAllocation.enabled", "spark.dynamicAllocation.shuffleTracking.enabled");
    assertThat(r.notes()).anyMatch(n -> n.contains("Spark shell") && n.contains("not read as driver work"));
  }

  @Test
  void withDynamicAllocationOnTheAdviceIsToLetIdleExecutorsGoSooner() throws IOException {
    // The same real run, as if it had had dynamic allocation on and its executors had stayed anyway.
    Path log = golden("application_1516285256255_0012");
    String events = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(events).contains("\"spark.master\":\"yarn\"");
    Files.writeString(log, events.replace("\"spark.master\":\"yarn\"",
        "\"spark.master\":\"yarn\",\"spark.dynamicAllocation.enabled\":\"true\""), StandardCharsets.UTF_8);

    RcaReport r = rca(log);

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.IDLE_SESSION);
    assertThat(r.rootCause().explanation()).contains("Dynamic allocation is on, yet they stayed");
    List<String> changed = r.recommendations().stream().flatMap(rec -> rec.properties().stream())
        .map(PropertyChange::property).toList();
    assertThat(changed).contains("spark.dynamicAllocation.executorIdleTimeout", "spark.dynamicAllocation.minExecutors")
        .doesNotContain("spark.dynamicAllocation.enabled");
  }

  @Test
  void theExecutorsDynamicAllocationReleasedAreNotSaidToHaveStayed() throws IOException {
    // A real YARN shell with dynamic allocation on: 10 executors, 6 of them given back before the end.
    RcaReport r = rca(golden("application_1628109047826_1317105"));

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.IDLE_SESSION);
    assertThat(r.rootCause().explanation()).contains("The session held 10 executors")
        .contains("Dynamic allocation is on: it released 6 of them before the end")
        .contains("and 4 stayed until the end")
        .doesNotContain("yet they stayed");
    assertThat(r.rootCause().evidenceFor()).anySatisfy(e -> assertThat(e.detail())
        .contains("6 of them removed before the application ended"));
  }

  @Test
  void aShellInLocalModeIsNeitherADriverBottleneckNorAnIdleSession() throws IOException {
    // local[*]: 39 s of its 86 s without a job, and no executor but the driver.
    RcaReport r = rca(golden("local-1642039451826"));

    assertThat(r.findings()).noneMatch(f -> f.kind() == RootCauseKind.DRIVER_BOTTLENECK
        || f.kind() == RootCauseKind.IDLE_SESSION);
    assertThat(r.verdict()).isEqualTo(Verdict.HEALTHY);
    assertThat(r.notes()).anyMatch(n -> n.contains("between the user's commands"));
  }

  @Test
  void aShellWhoseExecutorRanOnTheDriversOwnMachineHoldsNothingShared() throws IOException {
    // A standalone worker on 127.0.0.1 (the master is redacted in the log): 94% of 6.1 min without a job.
    RcaReport r = rca(golden("app-20200706201101-0003"));

    assertThat(r.findings()).noneMatch(f -> f.kind() == RootCauseKind.DRIVER_BOTTLENECK
        || f.kind() == RootCauseKind.IDLE_SESSION);
  }

  @Test
  void aSessionWhoseExecutorLeftEarlyIsNoIdleSession() throws IOException {
    // A shell on YARN idle for 2.2 min, but its one executor was there for only 32 s of that.
    RcaReport r = rca(golden("application_1578436911597_0052"));

    assertThat(r.findings()).noneMatch(f -> f.kind() == RootCauseKind.IDLE_SESSION
        || f.kind() == RootCauseKind.DRIVER_BOTTLENECK);
  }

  @Test
  void theHeldExecutorsAreNamedInNumericOrder() throws IOException {
    // A shell with dynamic allocation on, whose ten executors stayed through 3.5 min without a job.
    RcaReport r = rca(golden("application_1628109047826_1317105"));

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.IDLE_SESSION);
    assertThat(r.rootCause().culprit().executorIds()).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
  }

  @Test
  void aSessionClosedWithoutAJobIsSaidToBeOneNotADriverThatFailedBeforeItsFirstAction() throws IOException {
    // A shell on YARN opened for 19 s: two executors registered, no job ran, and it ended normally.
    RcaReport r = rca(golden("application_1555004656427_0144"));

    assertThat(r.verdict()).as("nothing ran: never healthy on no evidence").isEqualTo(Verdict.UNDETERMINED);
    assertThat(r.rootCause().title()).isEqualTo("The session ran no Spark job");
    assertThat(r.rootCause().explanation()).contains("Spark shell").doesNotContain("failed before its first action");
  }

  @Test
  void aBatchApplicationsGapsAreStillDriverWork() {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "driver-bottleneck");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build()
        .collect());

    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.DRIVER_BOTTLENECK);
    assertThat(r.notes()).noneMatch(n -> n.contains("between the user's commands"));
  }

  @Test
  void executorsOnTheLoopbackInterfaceAreTheDriversOwnMachine() {
    assertThat(Support.loopback("127.0.0.1:40123")).isTrue();
    assertThat(Support.loopback("localhost:40123")).isTrue();
    assertThat(Support.loopback("[::1]:40123")).isTrue();
    assertThat(Support.loopback("apiros-2.gce.test.com:40123")).isFalse();
    assertThat(Support.loopback("10.0.0.7:40123")).isFalse();
    assertThat(Support.loopback("127.attacker.example:40123")).isFalse();
    assertThat(Support.loopback("localhost.evil.com:40123")).isFalse();
  }
}
