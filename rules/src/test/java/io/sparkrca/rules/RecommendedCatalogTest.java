package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The recommended catalog: each rule fires on its heuristic, never on trivial stages, and advises per configuration. */
class RecommendedCatalogTest {
  private static final long MIB = 1048576;
  private static final StageRuleEngine ENGINE = StageRuleEngine.builder().recommended().build();

  private static StageDiagnostics evaluate(String stage, String executors) {
    return ENGINE.evaluate(
        StageTelemetry.fromDataprocJson(
            "{\"stages\": [" + stage + "], \"totalExecutorSummary\": " + executors + "}"));
  }

  private static StageDiagnostics evaluate(String stage) {
    return evaluate(stage, "{}");
  }

  @Test
  void everyRuleCompilesHasASeverityARemediationAndADetail() {
    RuleCatalog c = RuleCatalog.recommended();
    assertThat(c.rules()).hasSizeGreaterThanOrEqualTo(15);
    assertThat(ENGINE.buildWarnings()).isEmpty();
    for (StageRule r : c.rules()) {
      assertThat(StageRuleEngine.check(r)).as(r.ruleId()).isEmpty();
      assertThat(r.remediation()).as(r.ruleId()).isNotEqualTo(StageRule.DEFAULT_REMEDIATION);
      assertThat(r.detail()).as(r.ruleId()).isPresent();
      assertThat(r.description()).as(r.ruleId()).isNotBlank();
    }
    assertThat(c.rules()).extracting(StageRule::ruleId).doesNotHaveDuplicates();
  }

  static Stream<Arguments> positives() {
    return Stream.of(
        Arguments.of("STAGE_FAILED", "{\"stageId\": \"1\", \"status\": \"STAGE_STATUS_FAILED\", \"failureReason\": \"Job aborted due to stage failure\\nat x\"}"),
        Arguments.of("TASK_FAILURES", "{\"stageId\": \"1\", \"status\": \"STAGE_STATUS_COMPLETE\", \"numTasks\": 100, \"numFailedTasks\": 10}"),
        Arguments.of("STAGE_RETRIED", "{\"stageId\": \"1\", \"stageAttemptId\": 1}"),
        Arguments.of("CLEAR_DATA_SKEW", "{\"stageId\": \"1\", \"numTasks\": 100, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10000\", \"maximum\": \"100000\"}, \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"" + 10 * MIB + "\", \"maximum\": \"" + 1024 * MIB + "\"}}}}"),
        Arguments.of("STRAGGLER_TASKS", "{\"stageId\": \"1\", \"numTasks\": 100, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10000\", \"maximum\": \"100000\"}, \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"" + 10 * MIB + "\", \"maximum\": \"" + 12 * MIB + "\"}}}}"),
        Arguments.of("PARTITION_SIZE_SKEW", "{\"stageId\": \"1\", \"numTasks\": 100, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10000\", \"maximum\": \"12000\"}, \"shuffleReadMetrics\": {\"readBytes\": {\"percentile50\": \"" + 10 * MIB + "\", \"maximum\": \"" + 500 * MIB + "\"}}}}"),
        Arguments.of("EXCESSIVE_DISK_SPILL", "{\"stageId\": \"1\", \"numTasks\": 200, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 2048 * MIB + "\"}}"),
        Arguments.of("SPILL", "{\"stageId\": \"1\", \"numTasks\": 200, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 200 * MIB + "\"}}"),
        Arguments.of("UNDERPARTITIONED_SPILL", "{\"stageId\": \"1\", \"numTasks\": 10, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 200 * MIB + "\"}}"),
        Arguments.of("HIGH_GC_OVERHEAD", "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"100000\", \"jvmGcTimeMillis\": \"30000\"}}"),
        Arguments.of("KILLED_TASKS", "{\"stageId\": \"1\", \"numTasks\": 100, \"numKilledTasks\": 5, \"killedTasksSummary\": {\"another attempt succeeded\": 1, \"Executor lost\": 4}}"),
        Arguments.of("EXECUTOR_CHURN", "{\"stageId\": \"1\", \"numTasks\": 100, \"numKilledTasks\": 30}"),
        Arguments.of("TINY_TASK_STORM", "{\"stageId\": \"1\", \"numTasks\": 3000, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"5\", \"maximum\": \"300\"}}}"),
        Arguments.of("EXECUTOR_OOM", "{\"stageId\": \"1\", \"status\": \"STAGE_STATUS_FAILED\", \"failureReason\": \"Job aborted: Lost task 0.2 (executor 1): java.lang.OutOfMemoryError: Java heap space\\n\\tat x\"}"),
        Arguments.of("FETCH_FAILURE", "{\"stageId\": \"1\", \"status\": \"STAGE_STATUS_FAILED\", \"failureReason\": \"org.apache.spark.shuffle.FetchFailedException\\n\\tat y\"}"),
        Arguments.of("SCAN_TASK_STORM", "{\"stageId\": \"1\", \"numTasks\": 2000, \"stageMetrics\": {\"stageInputMetrics\": {\"bytesRead\": \"" + 2000 * MIB + "\"}}}"),
        Arguments.of("OVERSIZED_PARTITION", "{\"stageId\": \"1\", \"numTasks\": 5, \"taskQuantileMetrics\": {\"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"" + 500 * MIB + "\", \"maximum\": \"" + 600 * MIB + "\"}}}}"),
        Arguments.of("SHUFFLE_WRITE_COST", "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"100000\", \"stageShuffleWriteMetrics\": {\"writeTimeNanos\": \"20000000000\"}}}"),
        Arguments.of("SLOW_SHUFFLE_FETCH", "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"100000\", \"stageShuffleReadMetrics\": {\"fetchWaitTimeMillis\": \"30000\"}}}"),
        Arguments.of("EXECUTOR_IMBALANCE", "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"600000\"}, \"executorMetricsDistributions\": {\"quantiles\": [0.0, 0.25, 0.5, 0.75, 1.0], \"taskTimeMillis\": [1000.0, 50000.0, 60000.0, 70000.0, 400000.0]}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("positives")
  void eachRuleFlagsTheStageItDescribes(String ruleId, String stage) {
    StageDiagnostics d = evaluate(stage);
    assertThat(d.warnings()).isEmpty();
    Violation v = d.violation(ruleId).orElseThrow(() -> new AssertionError(ruleId + " did not fire: " + Fixtures.flagged(d)));
    assertThat(v.violatingStageIds()).containsExactly(1L);
    assertThat(v.stages().get(0).detail()).isNotEqualTo(StageRuleEngine.FALLBACK_DETAIL);
  }

  @Test
  void aStageWithFewerTasksThanCoresAndMostOfTheWorkIsUnderpartitioned() {
    String executors = "{\"totalCores\": 8, \"totalDurationMillis\": \"30000\"}";
    StageDiagnostics big = evaluate("{\"stageId\": \"1\", \"numTasks\": 1, \"stageMetrics\": {\"executorRunTimeMillis\": \"20000\"}}", executors);
    assertThat(big.violation("UNDERPARTITIONED_STAGE").orElseThrow().stages().get(0).detail())
        .isEqualTo("1 task(s) for 8 cores; 20.0 s executor run time of 30.0 s total executor duration");
    StageDiagnostics small = evaluate("{\"stageId\": \"1\", \"numTasks\": 1, \"stageMetrics\": {\"executorRunTimeMillis\": \"900\"}}", executors);
    assertThat(small.violations()).isEmpty();
  }

  @Test
  void theApplicationGcRuleReadsTheStagesExecutorRunTimeNotTheExecutorsTotalDuration() {
    String stages = "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"600000\", \"jvmGcTimeMillis\": \"150000\"}},"
        + " {\"stageId\": \"2\", \"stageMetrics\": {\"executorRunTimeMillis\": \"400000\", \"jvmGcTimeMillis\": \"50000\"}}";
    // The executors' total duration counts the driver's uptime and its whole JVM's GC: ignored.
    StageDiagnostics d = evaluate(stages, "{\"totalDurationMillis\": \"99000000\", \"totalGcTimeMillis\": \"10\"}");
    assertThat(d.violation("APP_GC_OVERHEAD").orElseThrow().detail())
        .contains("20.0% of 16.7 min executor run time in JVM GC");
    StageDiagnostics driverGc = evaluate("{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"1000000\"}}",
        "{\"totalDurationMillis\": \"1000000\", \"totalGcTimeMillis\": \"900000\"}");
    assertThat(driverGc.violation("APP_GC_OVERHEAD")).isEmpty();
  }

  @Test
  void timeSharesAreNamedAfterExecutorRunTime() {
    for (String id : List.of("HIGH_GC_OVERHEAD", "SHUFFLE_WRITE_COST", "SLOW_SHUFFLE_FETCH", "APP_GC_OVERHEAD")) {
      StageRule r = RuleCatalog.recommended().rule(id).orElseThrow();
      assertThat(r.expression()).as(id).contains("executor_run_time_millis").doesNotContain("total_duration_millis");
      assertThat(r.description()).as(id).contains("of executor run time").doesNotContain("task time");
    }
  }

  // ------------------------------------------------------------------ advice checked against the stage and the configuration

  private static final String SCAN_SPILL =
      "{\"stageId\": \"1\", \"numTasks\": 10, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 200 * MIB
          + "\", \"stageInputMetrics\": {\"bytesRead\": \"" + 900 * MIB + "\"}}}";
  private static final String SHUFFLE_SPILL =
      "{\"stageId\": \"2\", \"numTasks\": 10, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 200 * MIB
          + "\", \"stageShuffleReadMetrics\": {\"bytesRead\": \"" + 900 * MIB + "\"}}}";

  private static String remediation(String ruleId, String stages, Map<String, String> conf) {
    StageTelemetry t = StageTelemetry.fromDataprocJson("{\"stages\": [" + stages + "]}")
        .withConfiguration(conf, Optional.of("3.5.1"));
    return ENGINE.evaluate(t).violation(ruleId).orElseThrow().remediation();
  }

  @Test
  void aqeCoalescingAdviceIsNeverGivenForAScanStage() {
    String scan = remediation("UNDERPARTITIONED_SPILL", SCAN_SPILL, Map.of());
    assertThat(scan)
        .doesNotContain("AQE is coalescing")
        .doesNotContain("spark.sql.shuffle.partitions=")
        .contains("This stage reads its input directly, not shuffle data, so spark.sql.shuffle.partitions and AQE do"
            + " not set its task count: the input splits do (spark.sql.files.maxPartitionBytes=128m)");
    String shuffle = remediation("UNDERPARTITIONED_SPILL", SHUFFLE_SPILL, Map.of("spark.sql.shuffle.partitions", "64"));
    assertThat(shuffle)
        .contains("AQE is coalescing this stage's shuffle partitions (spark.sql.adaptive.coalescePartitions.enabled=true):"
            + " lower spark.sql.adaptive.advisoryPartitionSizeInBytes (now 64m)")
        .contains("its partition count starts from spark.sql.shuffle.partitions=64")
        .doesNotContain("reads its input directly")
        .doesNotContain("For stage");
  }

  @Test
  void stageSpecificAdviceNamesTheStagesItAppliesTo() {
    String both = remediation("UNDERPARTITIONED_SPILL", SCAN_SPILL + ", " + SHUFFLE_SPILL, Map.of());
    assertThat(both)
        .contains("For stage 2: AQE is coalescing this stage's shuffle partitions")
        .contains("For stage 1: This stage reads its input directly");
  }

  @Test
  void spillFindingsCiteMemorySettingsOnlyWhenTheyAreNotTheDefaults() {
    for (String rule : List.of("SPILL", "UNDERPARTITIONED_SPILL")) {
      assertThat(remediation(rule, SHUFFLE_SPILL, Map.of("spark.memory.fraction", "0.1", "spark.executor.memory", "4g")))
          .as(rule)
          .contains("spark.memory.fraction is 0.1 (Spark's default is 0.6)")
          .contains("Executors run with spark.executor.memory=4g (Spark's default is 1g).");
      assertThat(remediation(rule, SHUFFLE_SPILL, Map.of()))
          .as(rule)
          .doesNotContain("spark.memory.fraction is")
          .doesNotContain("spark.executor.memory=");
    }
    String big = "{\"stageId\": \"1\", \"numTasks\": 200, \"stageMetrics\": {\"diskBytesSpilled\": \"" + 2048 * MIB
        + "\", \"stageShuffleReadMetrics\": {\"bytesRead\": \"" + 900 * MIB + "\"}}}";
    assertThat(remediation("EXCESSIVE_DISK_SPILL", big, Map.of("spark.memory.fraction", "0.3")))
        .contains("spark.memory.fraction is 0.3")
        .contains("AQE is on (spark.sql.adaptive.enabled=true): lower spark.sql.adaptive.advisoryPartitionSizeInBytes (now 64m)");
  }

  @Test
  void broadcastAdviceCitesTheEffectiveThreshold() {
    String shuffleWrite = "{\"stageId\": \"1\", \"stageMetrics\": {\"executorRunTimeMillis\": \"100000\", \"stageShuffleWriteMetrics\": {\"writeTimeNanos\": \"20000000000\"}}}";
    assertThat(remediation("SHUFFLE_WRITE_COST", shuffleWrite, Map.of("spark.sql.autoBroadcastJoinThreshold", "-1")))
        .contains("Broadcast joins are disabled (spark.sql.autoBroadcastJoinThreshold=-1)")
        .doesNotContain("only when its estimated size");
    assertThat(remediation("SHUFFLE_WRITE_COST", shuffleWrite, Map.of()))
        .contains("under spark.sql.autoBroadcastJoinThreshold=10m")
        .doesNotContain("disabled");
    assertThat(remediation("CLEAR_DATA_SKEW", SKEWED, Map.of("spark.sql.autoBroadcastJoinThreshold", "50MB")))
        .contains("under spark.sql.autoBroadcastJoinThreshold=50MB");
  }

  @Test
  void shufflePartitionAdviceCitesTheEffectiveValue() {
    String tiny = "{\"stageId\": \"1\", \"numTasks\": 3000, \"stageMetrics\": {\"stageShuffleReadMetrics\": {\"bytesRead\": \"1000\"}},"
        + " \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"5\", \"maximum\": \"300\"}}}";
    assertThat(remediation("TINY_TASK_STORM", tiny, Map.of("spark.sql.shuffle.partitions", "3000", "spark.sql.adaptive.enabled", "false")))
        .contains("Enable AQE (spark.sql.adaptive.enabled=true) so that small shuffle partitions are coalesced.")
        .contains("its task count starts from spark.sql.shuffle.partitions=3000");
  }

  @Test
  void withAnUnknownConfigurationNothingIsCitedAndFactsAboutItAreNotStated() {
    String r = ENGINE.evaluate(StageTelemetry.fromDataprocJson("{\"stages\": [" + SHUFFLE_SPILL + "]}"))
        .violation("UNDERPARTITIONED_SPILL").orElseThrow().remediation();
    assertThat(r)
        .contains("If not already set (the configuration is unknown): Raise spark.sql.shuffle.partitions")
        .doesNotContain("AQE is coalescing")
        .doesNotContain("=${")
        .doesNotContain("spark.sql.shuffle.partitions=");
  }

  @Test
  void theSpillFixturesFindingsCiteItsMemoryFraction() {
    for (String version : List.of("3.5.9", "4.0.4")) {
      StageDiagnostics d = ENGINE.evaluateEventLog(
          io.sparkrca.core.testkit.TestkitFixtures.get(version, "spill").eventLog().toString());
      Violation spill = d.violation("SPILL").orElseThrow();
      assertThat(spill.remediation()).as(version).contains("spark.memory.fraction is 0.1 (Spark's default is 0.6)");
    }
  }

  @Test
  void theSkewJoinFixturesFindingCitesItsDisabledBroadcast() {
    for (String version : List.of("3.5.9", "4.0.4")) {
      StageDiagnostics d = ENGINE.evaluateEventLog(
          io.sparkrca.core.testkit.TestkitFixtures.get(version, "skew-join").eventLog().toString());
      assertThat(d.violation("CLEAR_DATA_SKEW").orElseThrow().remediation()).as(version)
          .contains("Broadcast joins are disabled (spark.sql.autoBroadcastJoinThreshold=-1)")
          .contains("AQE is on but its skew join is off (spark.sql.adaptive.skewJoin.enabled=false)");
    }
  }

  @Test
  void millisecondStagesNeverFireHoweverExtremeTheirRatios() {
    String[] trivial = {
      "{\"stageId\": \"1\", \"numTasks\": 2, \"stageMetrics\": {\"executorRunTimeMillis\": \"16\", \"jvmGcTimeMillis\": \"9\", \"diskBytesSpilled\": \"5\", \"memoryBytesSpilled\": \"10\","
          + " \"stageShuffleWriteMetrics\": {\"writeTimeNanos\": \"15000000\"}, \"stageShuffleReadMetrics\": {\"fetchWaitTimeMillis\": \"12\"}},"
          + " \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"1\", \"maximum\": \"100\"}, \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \"1\", \"maximum\": \"1000\"}}}}",
      "{\"stageId\": \"2\", \"numTasks\": 50, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10\", \"maximum\": \"1500\"}, \"shuffleReadMetrics\": {\"readBytes\": {\"percentile50\": \"10\", \"maximum\": \"60000\"}}}}",
      "{\"stageId\": \"3\", \"numTasks\": 500, \"stageMetrics\": {\"executorRunTimeMillis\": \"900\"}, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"2\", \"maximum\": \"5\"}}}",
      "{\"stageId\": \"4\", \"numTasks\": 10, \"numKilledTasks\": 3, \"killedTasksSummary\": {\"another attempt succeeded\": 3}}",
      "{\"stageId\": \"5\", \"executorMetricsDistributions\": {\"quantiles\": [0.0, 0.25, 0.5, 0.75, 1.0], \"taskTimeMillis\": [1.0, 2.0, 3.0, 4.0, 400.0]}}",
    };
    for (String s : trivial) {
      StageDiagnostics d = evaluate(s, "{\"totalDurationMillis\": \"5000\", \"totalGcTimeMillis\": \"4000\"}");
      assertThat(d.violations()).as(s).isEmpty();
      assertThat(d.warnings()).isEmpty();
    }
  }

  private static final String SKEWED =
      "{\"stageId\": \"1\", \"numTasks\": 100, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"10000\", \"maximum\": \"100000\"}, \"inputMetrics\": {\"bytesRead\": {\"percentile50\": \""
          + 10 * MIB + "\", \"maximum\": \"" + 1024 * MIB + "\"}}}}";

  private static String skewRemediation(Optional<Map<String, String>> props, Optional<String> version) {
    StageTelemetry t = StageTelemetry.fromDataprocJson("{\"stages\": [" + SKEWED + "]}");
    if (props.isPresent()) {
      t = t.withConfiguration(props.get(), version);
    }
    return ENGINE.evaluate(t).violation("CLEAR_DATA_SKEW").orElseThrow().remediation();
  }

  @Test
  void neverAdvisesEnablingAqeWhenItIsAlreadyOn() {
    String explicit = skewRemediation(Optional.of(Map.of("spark.sql.adaptive.enabled", "true")), Optional.of("3.1.2"));
    String byDefault = skewRemediation(Optional.of(Map.of()), Optional.of("3.5.1"));
    for (String r : List.of(explicit, byDefault)) {
      assertThat(r).doesNotContain("Enable adaptive query execution").contains("skew join is already on");
    }
  }

  @Test
  void advisesEnablingAqeWhenItIsOff() {
    assertThat(skewRemediation(Optional.of(Map.of("spark.sql.adaptive.enabled", "FALSE")), Optional.of("3.5.1")))
        .contains("Enable adaptive query execution")
        .doesNotContain("already on");
    assertThat(skewRemediation(Optional.of(Map.of()), Optional.of("3.0.1"))).contains("Enable adaptive query execution");
    assertThat(skewRemediation(
            Optional.of(Map.of("spark.sql.adaptive.enabled", "true", "spark.sql.adaptive.skewJoin.enabled", "false")),
            Optional.of("3.5.1")))
        .contains("set spark.sql.adaptive.skewJoin.enabled=true");
  }

  @Test
  void withAnUnknownConfigurationAdviceIsOfferedWithACaveat() {
    assertThat(skewRemediation(Optional.empty(), Optional.empty()))
        .contains("If not already set (the configuration is unknown): Enable adaptive query execution");
  }

  @Test
  void theCatalogRoundTripsThroughItsJsonForm() {
    RuleCatalog c = RuleCatalog.recommended();
    assertThat(RuleCatalog.parse(c.toJson(), "round trip")).isEqualTo(c);
  }
}
