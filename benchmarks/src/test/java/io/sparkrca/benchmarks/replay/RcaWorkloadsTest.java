package io.sparkrca.benchmarks.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.benchmarks.rca.RcaWorkload;
import io.sparkrca.benchmarks.rca.RulesWorkload;
import io.sparkrca.core.testing.SharedData;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RCA benchmark's workloads ({@code io.sparkrca.benchmarks.rca}) on a small amplified log: each reports its phases, and {@code rca}
 * and {@code rules} see every stage attempt the replay sees, with no analyzer failing. (The
 * benchmark itself, on the 1M-task log, is {@code benchmarks/rca/run.sh}.)
 */
class RcaWorkloadsTest {
  private static final String APP = "app-20200706201101-0003";

  @Test
  void workloadsRunTheCommandsPhaseByPhase(@TempDir Path dir) throws Exception {
    Optional<Path> shs = SharedData.shsConformance();
    assumeTrue(shs.isPresent(), "no ../shared/conformance here");
    new Amplifier(new Amplifier.Settings(shs.get().resolve("spark-events").resolve(APP), dir, 2000, 1, 8, 4, 8, 7, 0.02)).run();
    String log = dir.resolve("zstd").resolve(APP + ".zstd").toString();

    Map<String, Object> replay = new OursWorkload().apply(log).get();
    Map<String, Object> rca = new RcaWorkload().apply(log).get();
    Map<String, Object> rules = new RulesWorkload().apply(log).get();

    long stages = ((Number) replay.get("stages")).longValue();
    assertThat(stages).isPositive();
    assertThat(rca).containsEntry("mode", "rca").containsEntry("hasApplication", true)
        .containsEntry("stageAttempts", (int) stages).containsEntry("phases", "collect analyze render");
    assertThat((String) rca.get("notes")).doesNotContain("could not run");
    assertThat((String) rca.get("verdict")).isNotEmpty();
    assertThat(((Number) rca.get("jsonChars")).longValue()).isPositive();
    assertThat(rules).containsEntry("mode", "rules").containsEntry("telemetryStages", (int) stages)
        .containsEntry("phases", "replay compile map evaluate render");
    assertThat(rules.get("status")).isNotEqualTo("ERROR");
    for (Map<String, Object> m : java.util.List.of(rca, rules)) {
      for (String phase : ((String) m.get("phases")).split(" ")) {
        assertThat(((Number) m.get(phase + "WallSeconds")).doubleValue()).isNotNegative();
        assertThat(((Number) m.get(phase + "CpuSeconds")).doubleValue()).isNotNegative();
      }
    }
  }
}
