package io.sparkrca.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.analysis.rca.RcaEngine;
import io.sparkrca.spark.it.ListenerApp;
import io.sparkrca.testkit.ForkedJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RcaListener in real Spark 3.5.9 and 4.0.4 applications run in forked JVMs (Spark's own class path,
 * the shaded jar, {@code spark.extraListeners}): a healthy one and one whose job fails and whose
 * {@code main} dies of it. Each writes its report (JSON and Markdown) and logs its root cause; the
 * report is checked against the analysis of the event log Spark itself wrote for the same run.
 */
class RcaListenerIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  @ParameterizedTest(name = "Spark {0}")
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aHealthyApplicationLeavesItsReportInTheConfiguredDirectory(String version) throws IOException {
    Path work = Files.createDirectories(tmp.resolve("healthy-" + version));
    Path events = Files.createDirectories(work.resolve("events"));
    Path reports = work.resolve("reports");
    ForkedJvm.Outcome o = SparkForks.run(version, ListenerApp.class.getName(), List.of(
        "-Dspark.extraListeners=" + RcaListener.class.getName(),
        "-D" + RcaListener.REPORT_DIR + "=" + reports.toUri(),
        "-Dspark.eventLog.enabled=true", "-Dspark.eventLog.dir=" + events.toUri()),
        List.of("healthy"), work, "app");
    String stderr = SparkForks.text(work.resolve("app.stderr"));
    assertThat(o.exitCode()).as("the healthy application; stderr:%n%s", stderr).isEqualTo(0);

    JsonNode report = onlyReport(reports);
    RcaReport fromEventLog = analyseEventLog(events);
    assertThat(report.at("/application/id").asText()).isEqualTo(fromEventLog.application().id());
    assertThat(report.at("/application/outcome").asText()).isEqualTo("SUCCEEDED");
    assertThat(report.at("/rootCause/kind").asText()).as("the listener's root cause against the event log's")
        .isEqualTo(fromEventLog.rootCause().kind().name());
    assertThat(reports.resolve(fromEventLog.application().id() + ".rca.md")).content().contains("Root Cause Analysis");
    assertThat(stderr).contains(RcaListener.LOG_PREFIX + " " + fromEventLog.application().id() + " "
        + fromEventLog.rootCause().kind().name());
  }

  @ParameterizedTest(name = "Spark {0}")
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void aFailingApplicationIsDiagnosedAsItDiesNextToItsEventLog(String version) throws IOException {
    Path work = Files.createDirectories(tmp.resolve("failing-" + version));
    Path events = Files.createDirectories(work.resolve("events"));
    // No report directory: the reports go next to the event log.
    ForkedJvm.Outcome o = SparkForks.run(version, ListenerApp.class.getName(), List.of(
        "-Dspark.extraListeners=" + RcaListener.class.getName(),
        "-Dspark.eventLog.enabled=true", "-Dspark.eventLog.dir=" + events.toUri()),
        List.of("failing"), work, "app");
    String stderr = SparkForks.text(work.resolve("app.stderr"));
    assertThat(o.exitCode()).as("the failing application must fail; stderr:%n%s", stderr).isNotEqualTo(0);

    JsonNode report = onlyReport(events);
    RcaReport fromEventLog = analyseEventLog(events);
    assertThat(report.at("/application/id").asText()).isEqualTo(fromEventLog.application().id());
    assertThat(report.at("/application/outcome").asText()).isEqualTo("FAILED");
    assertThat(report.at("/verdict").asText()).isNotEqualTo("HEALTHY");
    assertThat(report.at("/rootCause/kind").asText()).isEqualTo(fromEventLog.rootCause().kind().name());
    assertThat(report.toString()).contains("the input is malformed");
    assertThat(stderr).contains(RcaListener.LOG_PREFIX + " " + fromEventLog.application().id() + " "
        + fromEventLog.rootCause().kind().name());
  }

  private static JsonNode onlyReport(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> json = files.filter(p -> p.getFileName().toString().endsWith(".rca.json")).toList();
      assertThat(json).as("reports in %s", dir).hasSize(1);
      return JSON.readTree(json.get(0).toFile());
    }
  }

  /** The report of the event log Spark wrote for the run (a file, or a rolling directory on 4.0). */
  private static RcaReport analyseEventLog(Path events) throws IOException {
    try (Stream<Path> files = Files.list(events)) {
      List<Path> logs = files.filter(p -> !p.getFileName().toString().contains(".rca.")).toList();
      assertThat(logs).as("Spark's event log in %s", events).hasSize(1);
      return RcaEngine.standard().analyze(EvidenceCollector.builder().loadServiceProviders(false)
          .application(logs.get(0).toString()).build().collect());
    }
  }
}
