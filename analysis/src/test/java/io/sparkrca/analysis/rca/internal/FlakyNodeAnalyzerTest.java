package io.sparkrca.analysis.rca.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.Finding;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.RcaSchema;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.rca.RcaEngine;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A flaky host from the event log alone, when no cluster records exist: the real testkit runs of
 * both Spark versions, whose {@code local-cluster} workers all ran on localhost, with each
 * executor's host renamed as if its worker had been a machine of its own (every {@code "Host"}
 * field next to that executor's id: its registration, its block manager, its tasks, the fetch
 * failures that name it). Nothing else of the run changes.
 */
class FlakyNodeAnalyzerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  /** The run's event log, decoded into one plain file, with executor ids' hosts as {@code hosts} says. */
  private Path placed(TestkitFixtures.Fixture f, Map<String, String> hosts) throws IOException {
    Path source = f.eventLog();
    Path file = Files.isDirectory(source) ? only(source) : source;
    Path out = dir.resolve(f.label().path("application").path("id").asText());
    try (InputStream raw = Files.newInputStream(file);
         InputStream in = file.toString().endsWith(".zstd") ? new com.github.luben.zstd.ZstdInputStream(raw) : raw;
         BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
         BufferedWriter w = Files.newBufferedWriter(out)) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        JsonNode event = JSON.readTree(line);
        rehost(event, null, hosts);
        w.write(JSON.writeValueAsString(event));
        w.write('\n');
      }
    }
    return out;
  }

  private static Path only(Path rollingDir) throws IOException {
    try (Stream<Path> s = Files.list(rollingDir)) {
      List<Path> events = s.filter(p -> p.getFileName().toString().startsWith("events_")).sorted().toList();
      assertThat(events).as("one events file in " + rollingDir).hasSize(1);
      return events.get(0);
    }
  }

  private static void rehost(JsonNode n, String executor, Map<String, String> hosts) {
    if (n instanceof ObjectNode o) {
      String exec = o.has("Executor ID") ? o.get("Executor ID").asText() : executor;
      if (o.has("Host") && exec != null && hosts.containsKey(exec)) {
        o.put("Host", hosts.get(exec));
      }
      for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) {
        rehost(it.next(), exec, hosts);
      }
    } else if (n != null && n.isArray()) {
      n.forEach(x -> rehost(x, executor, hosts));
    }
  }

  private static AnalysisContext context(Path log) {
    return AnalysisContext.of(EvidenceCollector.builder().application(log.toString()).build().collect());
  }

  private static RcaReport rca(Path log) {
    return RcaEngine.standard().analyze(EvidenceCollector.builder().application(log.toString()).build().collect());
  }

  private static Optional<Finding> flakyNode(RcaReport r) {
    return r.findings().stream().filter(f -> f.analyzer().equals("flaky-node")).findFirst();
  }

  /** The failures the run's event log holds: its failed task attempts and its executor losses. */
  private static int failures(SparkApplication app) {
    int tasks = app.stages(StageQuery.all()).stream().mapToInt(StageData::numFailedTasks).sum();
    long lost = app.executors(false).stream().filter(e -> e.removeReason().map(x -> x.contains("exited with code"))
        .orElse(false)).count();
    return tasks + (int) lost;
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void failuresOfOneHostAreGroupedByTheEventLogsHostsAndNameIt(String version) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-lost-fetch-failure");
    Path log = placed(f, Map.of("1", "worker-a.example", "0", "worker-b.example", "2", "worker-b.example"));
    int total = failures(EventLogs.replay(log));

    NodeFailures.Judgement j = NodeFailures.of(context(log));
    assertThat(j.kind()).isEqualTo("host");
    assertThat(j.flaky()).as(j.why()).isPresent();
    NodeFailures.Node a = j.flaky().get();
    assertThat(a.name()).isEqualTo("worker-a.example");
    assertThat(a.failedExecutors()).containsExactly("1");
    assertThat(a.lostExecutors()).isEqualTo(1);
    assertThat(a.fetchFailures()).as("the fetch failures point at the host that served the lost blocks").isPositive();
    assertThat(a.all()).isEqualTo(total);
    assertThat(j.nodes()).hasSize(2).last().satisfies(b -> {
      assertThat(b.name()).isEqualTo("worker-b.example");
      assertThat(b.all()).isZero();
      assertThat(b.executors()).containsExactlyInAnyOrder("0", "2");
    });

    RcaReport r = rca(log);
    Finding node = flakyNode(r).orElseThrow(() -> new AssertionError(r.toMarkdown()));
    assertThat(node.kind()).isEqualTo(RootCauseKind.FLAKY_INFRASTRUCTURE);
    assertThat(node.title()).isEqualTo("Failures concentrate on host worker-a.example");
    assertThat(node.culprit().host()).contains("worker-a.example");
    assertThat(node.metric("worstNodeShare").orElseThrow().value()).isEqualTo(1.0);
    assertThat(node.summary()).contains("by host: host worker-a.example: " + total + " failures (100%)")
        .contains("host worker-b.example: 0 failures (0%); 2 executors ran there");
    assertThat(node.evidence()).anySatisfy(e -> assertThat(e.detail()).startsWith("host worker-a.example: " + total
        + " failures (100%): 1 lost executor (1)"));
    // Without any record of the host's own and with one executor lost there, the loss stays the root.
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
    assertThat(r.rootCause().evidenceAgainst()).anySatisfy(e -> assertThat(e.detail())
        .contains("host worker-a.example, which holds " + total));
    assertThat(r.toMarkdown()).contains("by host: host worker-a.example");
    assertThat(r.toHtml()).contains("by host: host worker-a.example");
    assertThat(JSON.readTree(r.toJson()).path("findings")).anySatisfy(x -> {
      assertThat(x.path("analyzer").asText()).isEqualTo("flaky-node");
      assertThat(x.path("host").asText()).isEqualTo("worker-a.example");
      assertThat(x.path("summary").asText()).contains("host worker-b.example: 0 failures");
    });
    assertThat(RcaSchema.errors(r.toJson())).isEmpty();
  }

  @Test
  void theHostSparksOwnSchedulerExcludedInItsGoldenLogIsTheOneNamed() throws IOException {
    Optional<Path> corpus = io.sparkrca.core.testing.SharedData.shsConformance();
    assumeTrue(corpus.isPresent(), "../shared/conformance is absent; skipped");
    // Spark's excludeOnFailure golden log: tasks fail on one host and Spark excludes that node for the stage.
    Path log = corpus.get().resolve("spark-events/application_1516285256255_0012");
    String excluded = null;
    for (String line : Files.readAllLines(log)) {
      JsonNode e = JSON.readTree(line);
      if (e.path("Event").asText().endsWith("SparkListenerNodeBlacklistedForStage")) {
        excluded = e.path("hostId").asText();
      }
    }
    assertThat(excluded).as("the node Spark excluded").isNotBlank();

    RcaReport r = rca(log);

    Finding node = flakyNode(r).orElseThrow(() -> new AssertionError(r.toMarkdown()));
    assertThat(node.culprit().host()).contains(excluded);
    assertThat(node.title()).isEqualTo("Failures concentrate on host " + excluded);
    assertThat(node.metric("worstNodeShare").orElseThrow().value()).isGreaterThanOrEqualTo(NodeFailures.MIN_SHARE);
    assertThat(node.summary()).contains("task errors there");
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void theRunAsRecordedOnOneHostNamesNoHost(String version) {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-lost-fetch-failure");

    NodeFailures.Judgement j = NodeFailures.of(context(f.eventLog()));

    assertThat(j.flaky()).isEmpty();
    assertThat(j.why()).isEqualTo("the executors ran on 1 host: the host and the application cannot be told apart");
    assertThat(flakyNode(rca(f.eventLog()))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anOutOfMemoryErrorOfEveryExecutorSpreadOverTwoHostsNamesNoHost(String version) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-oom-exit-on-oom");
    Path log = placed(f, Map.of("0", "worker-a.example", "1", "worker-b.example"));

    NodeFailures.Judgement j = NodeFailures.of(context(log));

    assertThat(j.flaky()).as(j.why()).isEmpty();
    assertThat(j.nodes()).allSatisfy(n -> assertThat(n.failures()).as("infrastructure failures on " + n.name()).isZero());
    assertThat(j.why()).startsWith("the failures are spread: the worst host");
    RcaReport r = rca(log);
    assertThat(r.rootCause().kind().isOutOfMemory()).as(r.toMarkdown()).isTrue();
    assertThat(flakyNode(r)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"3.5.9", "4.0.4"})
  void anOutOfMemoryErrorOnOneHostIsTheApplicationsOwnAndNamesNoHost(String version) throws IOException {
    TestkitFixtures.Fixture f = TestkitFixtures.get(version, "executor-oom");
    String lost = f.label().path("culprit").path("executorId").asText();
    Path log = placed(f, Map.of(lost, "worker-a.example", lost.equals("0") ? "1" : "0", "worker-b.example"));

    NodeFailures.Judgement j = NodeFailures.of(context(log));

    assertThat(j.flaky()).as(j.why()).isEmpty();
    assertThat(flakyNode(rca(log))).isEmpty();
    NodeFailures.Node a = j.nodes().get(0);
    assertThat(a.name()).isEqualTo("worker-a.example");
    assertThat(a.failures()).as("infrastructure failures on the lost executor's host").isZero();
    assertThat(a.ownFailures()).isPositive();
    // Under the share threshold the failures are spread; at or over it they are still the application's own.
    assertThat(j.why()).startsWith(j.share(a) < NodeFailures.MIN_SHARE ? "the failures are spread"
        : "the failures on worker-a.example are mostly the application's own");
  }
}
