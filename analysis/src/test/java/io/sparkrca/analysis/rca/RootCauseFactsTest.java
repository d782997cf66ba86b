package io.sparkrca.analysis.rca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.EvidenceRef;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The facts a root cause states are the facts of the run (issue #41 §2), each read on a real
 * testkit run or a copy of one edited as the case needs: the stage a regression names is its
 * culprit, an executor loss names the stage it interrupted, one log line is one piece of
 * evidence, and a setting is cited as the run showed it (the heap the JVM had; unknown when only
 * the logs were given), not as Spark's default.
 */
class RootCauseFactsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: skipped");
  }

  @Test
  void aConfigurationRegressionHasTheStageWhoseTimeRegressedAsItsCulprit() {
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "config-regression"), true);
      assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.CONFIG_REGRESSION);
      // Stage 1 ran the 1000 shuffle partitions: 18.8 s against the baseline's 784 ms on Spark 4.0.4.
      assertThat(r.rootCause().explanation()).contains("The first stage to depart is stage 1 (");
      assertThat(r.rootCause().stageIds()).as(v).containsExactly(1);
    }
  }

  @Test
  void anExecutorLostDuringTheReduceStageNamesThatStageNotTheMapStageReRunAfterIt() {
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      // Executor 1 is SIGKILLed by its own reduce task of stage 1 (its task 1.0 lost with it); the map stage 0
      // re-runs because its output went with the executor.
      for (boolean logs : new boolean[] {true, false}) {
        RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "executor-lost-fetch-failure"), logs);
        assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE);
        assertThat(r.rootCause().stageIds()).as(v + (logs ? " with logs" : " event log alone")).containsExactly(1);
        assertThat(r.rootCause().culprit().executorIds()).containsExactly("1");
        assertThat(r.failureChain()).anySatisfy(l -> assertThat(l.event()).startsWith("stage 0 re-run"));
      }
    }
  }

  @Test
  void theLineRecordingTasksLostWithTwoExecutorsIsCitedOnceAndNamesBoth() {
    // Executors 0 and 1 both exit on an OutOfMemoryError (exit code 3): one event-log line groups the two lost tasks.
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      RcaReport r = RcaAccuracyTest.analyze(TestkitFixtures.get(v, "executor-oom-exit-on-oom"), false);
      assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.EXECUTOR_OOM_HEAP);
      List<EvidenceRef> lost = r.rootCause().evidenceFor().stream().filter(e -> e.detail().contains("tasks lost with")).toList();
      assertThat(lost).as(v).hasSize(1);
      assertThat(lost.get(0).detail()).startsWith("2 tasks lost with executors 0, 1: ExecutorLostFailure");
      assertThat(r.rootCause().evidenceFor()).filteredOn(e -> e.line() > 0)
          .extracting(e -> e.source() + ":" + e.line()).doesNotHaveDuplicates();
    }
  }

  @Test
  void aDriverHeapOtherThanTheDefaultIsNotCitedAsTheDefault(@TempDir Path dir) throws IOException {
    // The real gc-pressure run (local mode, spark.driver.memory unset) as a driver started with a 600 MiB heap
    // reports it: its block manager's storage memory (600 MiB - 300 MiB reserved) x 0.6 = 180 MiB.
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "gc-pressure");
    RcaReport real = RcaEngine.standard().analyze(EvidenceCollector.builder().application(f.eventLog().toString()).build().collect());
    assertThat(real.toMarkdown()).contains("spark.driver.memory=1g (default)");
    RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
        .application(withDriverStorageMemory(f, 180L << 20, dir).toString()).build().collect());
    assertThat(r.rootCause().kind()).isEqualTo(RootCauseKind.GC_PRESSURE);
    String md = r.toMarkdown();
    assertThat(md).doesNotContain("spark.driver.memory=1g (default)")
        .contains("spark.driver.memory (unset; the JVM's heap was about 600.0 MiB, not the 1g default)");
    assertThat(r.recommendations()).flatExtracting(x -> x.properties())
        .filteredOn(p -> p.property().equals("spark.driver.memory"))
        .allSatisfy(p -> assertThat(p.current()).contains("600m"));
  }

  @Test
  void aSettingTheLogsDoNotShowIsUnknownNotSparksDefault() {
    for (String v : new String[] {"3.5.9", "4.0.4"}) {
      // The executor ran with spark.executor.memory=512m; its driver's log does not show the setting, only the
      // executor's storage memory.
      RcaReport r = RcaAccuracyTest.analyzeLogsAlone(TestkitFixtures.get(v, "executor-oom"));
      String md = r.toMarkdown();
      assertThat(md).as(v).doesNotContain("spark.executor.memory=1g (default)")
          .contains("spark.executor.memory (not shown in the logs; the JVM's heap was about 512.0 MiB)");
      assertThat(r.recommendations()).flatExtracting(x -> x.properties())
          .filteredOn(p -> p.property().equals("spark.executor.memory"))
          .isNotEmpty().allSatisfy(p -> assertThat(p.current()).contains("512m"));
    }
  }

  /** The gzip event log of {@code f} with the driver's block manager reporting {@code bytes} of storage memory. */
  private static Path withDriverStorageMemory(TestkitFixtures.Fixture f, long bytes, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(f.eventLog())), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        ObjectNode e = (ObjectNode) JSON.readTree(line);
        if (e.path("Event").asText().equals("SparkListenerBlockManagerAdded")
            && e.path("Block Manager ID").path("Executor ID").asText().equals("driver")) {
          e.put("Maximum Memory", bytes).put("Maximum Onheap Memory", bytes);
        }
        out.add(JSON.writeValueAsString(e));
      }
    }
    String name = f.eventLog().getFileName().toString().replaceFirst("\\.gz$", "");
    return Files.write(dir.resolve(name), out, StandardCharsets.UTF_8);
  }
}
