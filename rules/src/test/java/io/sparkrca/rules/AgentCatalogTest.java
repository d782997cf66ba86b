package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shared catalog fixture of the Python stage-diagnostics tests: the G2 (CEL) catalog, as the
 * Dataproc agent's users write it, flags exactly the expected stages, with no warning. Proves agent
 * rules run unchanged.
 */
class AgentCatalogTest {
  private static RuleCatalog agentCatalog() throws IOException {
    try (InputStream in = AgentCatalogTest.class.getResourceAsStream("agent-catalog-g2.json")) {
      return RuleCatalog.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "agent catalog");
    }
  }

  @Test
  void theAgentCatalogFlagsTheExpectedStagesWithoutWarnings() throws IOException {
    RuleCatalog catalog = agentCatalog();
    assertThat(catalog.warnings()).isEmpty();
    StageDiagnostics d =
        StageRuleEngine.builder().rules(catalog).build().evaluate(Fixtures.telemetry(Fixtures.CATALOG_STAGES));

    assertThat(d.warnings()).isEmpty();
    Map<String, List<Long>> flagged = Fixtures.flagged(d);
    assertThat(flagged)
        .containsEntry("DATA_SKEW_DURATION_VARIANCE", List.of(3L))
        .containsEntry("EXECUTOR_MEMORY_PRESSURE_SPILL", List.of(1L, 3L, 7L))
        .containsEntry("HIGH_GC_OVERHEAD", List.of(1L))
        .containsEntry("EXECUTOR_OOM_LOST_EXECUTORS", List.of(2L, 4L))
        .containsEntry("SHUFFLE_IMBALANCE_FETCH_HEAVY", List.of(4L))
        .containsEntry("STRAGGLER_TASKS_LONG_TAIL", List.of(3L))
        .containsEntry("DYNAMIC_ALLOCATION_THRASHING", List.of(4L))
        .containsEntry("EXCESSIVE_DISK_SPILL", List.of(3L))
        .containsEntry("UNDERPARTITIONED_SPILL", List.of(1L, 7L))
        .containsEntry("TOO_MANY_SMALL_TASKS", List.of(5L))
        .containsEntry("DRIVER_BOTTLENECK_FAILURE", List.of(2L))
        .containsEntry("SERIALIZATION_SHUFFLE_WRITE_BOTTLENECK", List.of(4L))
        .containsEntry("HIGH_SCAN_TASK_COUNT_STARVATION", List.of(6L))
        .containsEntry("COMPOSITE_TRIAGE_ENTRY_POINT", List.of(1L, 2L, 3L, 4L, 7L))
        .containsEntry("CLEAR_DATA_SKEW", List.of(3L))
        .containsEntry("NON_DATA_SKEW_BOTTLENECK", List.of(1L, 7L))
        .containsEntry("CUSTOM_STRICT_GC_CHECK", List.of(1L))
        .containsEntry("CUSTOM_EXTREME_DURATION_SKEW", List.of(7L))
        .containsEntry("CUSTOM_UNDERPARTITIONED_SPILL", List.of(1L, 7L))
        .containsEntry("CUSTOM_SEVERE_SPILL", List.of(3L))
        .containsEntry("FIRST_FAILED_STAGE_SEVERE", List.of());
    assertThat(d.violation("FIRST_FAILED_STAGE_SEVERE").orElseThrow().scope()).isEqualTo(Scope.APPLICATION);
    assertThat(d.violation("GC_PRESSURE").orElseThrow().stages().get(0).detail())
        .isEqualTo("200 ms GC of 1000 ms run time");
    assertThat(d.rulesEvaluated()).isEqualTo(catalog.rules().size());
  }

  @Test
  void anApplicationLevelRuleHasApplicationScope() {
    StageDiagnostics d =
        Fixtures.run(
            Fixtures.CATALOG_STAGES,
            Fixtures.rule(
                "ANY_FAILED",
                "size(stages.filter(s, s.num_failed_tasks > 0)) > 0 ? stages.filter(s, s.num_failed_tasks > 0)[0].num_failed_tasks > 3 : false"),
            Fixtures.rule("ANY_STAGE_SEVERELY_FAILED", "stages.exists(x, x.num_failed_tasks > 3)"));
    assertThat(d.violation("ANY_FAILED").orElseThrow().scope()).isEqualTo(Scope.APPLICATION);
    assertThat(d.violation("ANY_STAGE_SEVERELY_FAILED").orElseThrow().violatingStageIds()).isEmpty();
  }

  @Test
  void theApplicationLevelGcExampleUsesTheExecutorSummary() {
    StageDiagnostics d =
        Fixtures.run(
            Fixtures.CATALOG_STAGES,
            Fixtures.rule(
                "APP_GC",
                "double(total_executor_summary.total_gc_time_millis) / double(total_executor_summary.total_duration_millis) > 0.1"));
    assertThat(d.violation("APP_GC")).isPresent();
  }
}
