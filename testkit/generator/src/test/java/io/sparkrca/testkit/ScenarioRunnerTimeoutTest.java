package io.sparkrca.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Spark driver with real executor JVMs, killed by the timeout: nothing may survive. */
class ScenarioRunnerTimeoutTest {

  @Test
  void timedOutRunLeavesNoProcessAndNoTemporaryFile(@TempDir Path dir) throws Exception {
    SparkDistribution spark = SparkDistribution.locate("3.5.9");
    Path tempRoot = dir.resolve("tmp");
    // local-cluster with the executor-killing workload: executors are up after a few seconds
    // and the job needs far longer than the timeout.
    Scenario slow = Scenario.builder("timeout-probe", RootCauseKind.HEALTHY, "executor-killed")
        .master("local-cluster[2,1,1024]")
        .conf("spark.executor.memory", "512m")
        .timeout(Duration.ofSeconds(15))
        .check(run -> Findings.builder().build())
        .build();

    assertThatThrownBy(() -> new ScenarioRunner(tempRoot).run(slow, spark, dir.resolve("out")))
        .isInstanceOf(GenerationException.class)
        .hasMessageContaining("timed out");

    try (Stream<Path> left = Files.list(tempRoot)) {
      assertThat(left.toList()).as("temporary directories left behind").isEmpty();
    }
    // Every JVM of the run (driver and executors) carries the temp root in its command line.
    List<String> survivors = ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().map(c -> c.contains(tempRoot.toString())).orElse(false))
        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
        .toList();
    assertThat(survivors).isEmpty();
  }
}
