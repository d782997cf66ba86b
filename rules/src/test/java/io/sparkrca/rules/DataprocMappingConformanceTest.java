package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Message;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.testing.SharedData;
import io.sparkrca.core.testkit.TestkitFixtures;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model-to-Dataproc mapping against the real History Server: for Spark's own golden REST
 * answers (../shared/conformance, Spark 1.x to 3.3) and the real History Server's answers recorded
 * for the testkit corpus (Spark 3.5 and 4.0), every value a rule reads (run time, GC,
 * spill, input, output, shuffle bytes and times, task counts, task quantiles, count and sum,
 * executor distributions) equals what the History Server reports for the same stage attempt.
 * Skipped when the shared data is absent.
 */
class DataprocMappingConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** SHS stage key → Dataproc path (all int64 leaves). */
  private static final Map<String, String[]> STAGE_FIELDS =
      Map.ofEntries(
          Map.entry("numTasks", new String[] {"num_tasks"}),
          Map.entry("numActiveTasks", new String[] {"num_active_tasks"}),
          Map.entry("numCompleteTasks", new String[] {"num_complete_tasks"}),
          Map.entry("numFailedTasks", new String[] {"num_failed_tasks"}),
          Map.entry("numKilledTasks", new String[] {"num_killed_tasks"}),
          Map.entry("numCompletedIndices", new String[] {"num_completed_indices"}),
          Map.entry("executorDeserializeTime", new String[] {"stage_metrics", "executor_deserialize_time_millis"}),
          Map.entry("executorDeserializeCpuTime", new String[] {"stage_metrics", "executor_deserialize_cpu_time_nanos"}),
          Map.entry("executorRunTime", new String[] {"stage_metrics", "executor_run_time_millis"}),
          Map.entry("executorCpuTime", new String[] {"stage_metrics", "executor_cpu_time_nanos"}),
          Map.entry("resultSize", new String[] {"stage_metrics", "result_size"}),
          Map.entry("jvmGcTime", new String[] {"stage_metrics", "jvm_gc_time_millis"}),
          Map.entry("resultSerializationTime", new String[] {"stage_metrics", "result_serialization_time_millis"}),
          Map.entry("memoryBytesSpilled", new String[] {"stage_metrics", "memory_bytes_spilled"}),
          Map.entry("diskBytesSpilled", new String[] {"stage_metrics", "disk_bytes_spilled"}),
          Map.entry("peakExecutionMemory", new String[] {"stage_metrics", "peak_execution_memory_bytes"}),
          Map.entry("inputBytes", new String[] {"stage_metrics", "stage_input_metrics", "bytes_read"}),
          Map.entry("inputRecords", new String[] {"stage_metrics", "stage_input_metrics", "records_read"}),
          Map.entry("outputBytes", new String[] {"stage_metrics", "stage_output_metrics", "bytes_written"}),
          Map.entry("outputRecords", new String[] {"stage_metrics", "stage_output_metrics", "records_written"}),
          Map.entry("shuffleReadBytes", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "bytes_read"}),
          Map.entry("shuffleReadRecords", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "records_read"}),
          Map.entry("shuffleFetchWaitTime", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "fetch_wait_time_millis"}),
          Map.entry("shuffleRemoteBytesRead", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "remote_bytes_read"}),
          Map.entry("shuffleLocalBytesRead", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "local_bytes_read"}),
          Map.entry("shuffleRemoteBlocksFetched", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "remote_blocks_fetched"}),
          Map.entry("shuffleLocalBlocksFetched", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "local_blocks_fetched"}),
          Map.entry("shuffleRemoteBytesReadToDisk", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "remote_bytes_read_to_disk"}),
          Map.entry("shuffleRemoteReqsDuration", new String[] {"stage_metrics", "stage_shuffle_read_metrics", "remote_reqs_duration"}),
          Map.entry("shuffleWriteBytes", new String[] {"stage_metrics", "stage_shuffle_write_metrics", "bytes_written"}),
          Map.entry("shuffleWriteTime", new String[] {"stage_metrics", "stage_shuffle_write_metrics", "write_time_nanos"}),
          Map.entry("shuffleWriteRecords", new String[] {"stage_metrics", "stage_shuffle_write_metrics", "records_written"}),
          Map.entry("resourceProfileId", new String[] {"resource_profile_id"}),
          Map.entry("shuffleMergersCount", new String[] {"shuffle_mergers_count"}));

  /** SHS taskSummary key → Dataproc TaskQuantileMetrics path. */
  private static final Map<String, String[]> QUANTILE_FIELDS =
      Map.ofEntries(
          Map.entry("duration", new String[] {"duration_millis"}),
          Map.entry("executorRunTime", new String[] {"executor_run_time_millis"}),
          Map.entry("executorCpuTime", new String[] {"executor_cpu_time_nanos"}),
          Map.entry("jvmGcTime", new String[] {"jvm_gc_time_millis"}),
          Map.entry("resultSize", new String[] {"result_size"}),
          Map.entry("schedulerDelay", new String[] {"scheduler_delay_millis"}),
          Map.entry("gettingResultTime", new String[] {"getting_result_time_millis"}),
          Map.entry("peakExecutionMemory", new String[] {"peak_execution_memory_bytes"}),
          Map.entry("memoryBytesSpilled", new String[] {"memory_bytes_spilled"}),
          Map.entry("diskBytesSpilled", new String[] {"disk_bytes_spilled"}),
          Map.entry("inputMetrics.bytesRead", new String[] {"input_metrics", "bytes_read"}),
          Map.entry("outputMetrics.bytesWritten", new String[] {"output_metrics", "bytes_written"}),
          Map.entry("shuffleReadMetrics.readBytes", new String[] {"shuffle_read_metrics", "read_bytes"}),
          Map.entry("shuffleReadMetrics.fetchWaitTime", new String[] {"shuffle_read_metrics", "fetch_wait_time_millis"}),
          Map.entry("shuffleReadMetrics.remoteBytesRead", new String[] {"shuffle_read_metrics", "remote_bytes_read"}),
          Map.entry("shuffleReadMetrics.totalBlocksFetched", new String[] {"shuffle_read_metrics", "total_blocks_fetched"}),
          Map.entry("shuffleWriteMetrics.writeBytes", new String[] {"shuffle_write_metrics", "write_bytes"}),
          Map.entry("shuffleWriteMetrics.writeTime", new String[] {"shuffle_write_metrics", "write_time_nanos"}));

  private static Path corpus() {
    Optional<Path> p = SharedData.shsConformance();
    assumeTrue(p.isPresent(), "../shared/conformance/spark-shs is absent: mapping conformance skipped");
    return p.get();
  }

  static Stream<Arguments> stageExpectations() {
    return Stream.of(
        Arguments.of("local-1422981780767", "stage_list_json_expectation.json"),
        Arguments.of("local-1422981780767", "failed_stage_list_json_expectation.json"),
        Arguments.of("local-1422981780767", "one_stage_attempt_json_expectation.json"),
        Arguments.of("local-1642039451826", "one_stage_json_with_partitionId_expectation.json"),
        Arguments.of("local-1426533911241", "stage_list_with_accumulable_json_expectation.json"),
        Arguments.of("app-20180109111548-0000", "excludeOnFailure_for_stage_expectation.json"),
        Arguments.of("application_1516285256255_0012", "excludeOnFailure_node_for_stage_expectation.json"),
        Arguments.of("app-20200706201101-0003", "stage_list_with_peak_metrics_expectation.json"),
        Arguments.of("app-20200706201101-0003", "stage_with_summaries_expectation.json"),
        Arguments.of("application_1628109047826_1317105", "stage_with_speculation_summary_expectation.json"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("stageExpectations")
  void stageValuesEqualTheHistoryServers(String log, String expectation) throws IOException {
    Path root = corpus();
    List<Message> mapped = StageTelemetry.from(EventLogs.replay(root.resolve("spark-events").resolve(log))).stageMessages();
    JsonNode golden = JSON.readTree(Files.readString(root.resolve("expectations").resolve(expectation)));
    List<JsonNode> stages = new ArrayList<>();
    if (golden.isArray()) {
      golden.forEach(stages::add);
    } else {
      stages.add(golden);
    }
    assertThat(stages).isNotEmpty();
    for (JsonNode g : stages) {
      compareStage(expectation, g, find(mapped, g.get("stageId").asLong(), g.get("attemptId").asInt()));
    }
  }

  /** Every value a rule reads equals the History Server's for this stage attempt. */
  static void compareStage(String source, JsonNode g, Message m) {
      String where = source + " stage " + g.get("stageId") + "." + g.get("attemptId");
      STAGE_FIELDS.forEach(
          (key, path) -> {
            if (g.has(key)) {
              assertThat(Messages.getLong(m, path)).as(where + " " + key).isEqualTo(g.get(key).asLong());
            }
          });
      assertThat(Messages.getLong(m, "status"))
          .as(where + " status")
          .isEqualTo(DataprocMapper.status(io.sparkrca.core.model.StageStatus.valueOf(g.get("status").asText())));
      assertThat(Messages.getString(m, "name")).as(where + " name").isEqualTo(g.get("name").asText());
      if (g.has("failureReason")) {
        assertThat(Messages.getString(m, "failure_reason")).isEqualTo(g.get("failureReason").asText());
      }
      if (g.has("speculationSummary")) {
        assertThat(Messages.getLong(m, "speculation_summary", "num_tasks"))
            .isEqualTo(g.get("speculationSummary").get("numTasks").asLong());
      }
      if (g.has("peakExecutorMetrics")) {
        long heap = g.get("peakExecutorMetrics").get("JVMHeapMemory").asLong();
        Message peak = (Message) Messages.get(m, "peak_executor_metrics");
        assertThat(StageTelemetry.toNode(peak).get("metrics").get("JVMHeapMemory").asLong()).isEqualTo(heap);
      }
      if (g.has("taskMetricsDistributions")) {
        checkQuantiles(where, g.get("taskMetricsDistributions"), m, List.of(0, 1, 2, 3, 4), List.of(0, 1, 2, 3, 4));
        checkCountAndSum(where, g, m);
      }
      if (g.has("executorMetricsDistributions")) {
        JsonNode e = g.get("executorMetricsDistributions");
        JsonNode mapped2 = StageTelemetry.toNode((Message) Messages.get(m, "executor_metrics_distributions"));
        assertThat(mapped2.get("task_time_millis")).as(where + " executor taskTime").isEqualTo(e.get("taskTime"));
        assertThat(mapped2.get("shuffle_read")).isEqualTo(e.get("shuffleRead"));
        assertThat(mapped2.get("quantiles")).isEqualTo(e.get("quantiles"));
      }
      if (g.has("executorSummary") && g.get("executorSummary").size() > 0) {
        JsonNode ex = StageTelemetry.toNode(m).get("executor_summary");
        g.get("executorSummary")
            .properties()
            .forEach(
                en -> {
                  assertThat(ex.get(en.getKey()).path("task_time_millis").asLong())
                      .as(where + " executor " + en.getKey())
                      .isEqualTo(en.getValue().get("taskTime").asLong());
                  assertThat(ex.get(en.getKey()).path("disk_bytes_spilled").asLong())
                      .isEqualTo(en.getValue().get("diskBytesSpilled").asLong());
                });
      }
  }

  /** The quantiles at the given golden indices equal the mapped Quantiles fields at the given slots. */
  private static void checkQuantiles(String where, JsonNode dist, Message m, List<Integer> goldenIdx, List<Integer> slots) {
    String[] names = {"minimum", "percentile_25", "percentile_50", "percentile_75", "maximum"};
    QUANTILE_FIELDS.forEach(
        (key, path) -> {
          JsonNode values = dist;
          for (String k : key.split("\\.")) {
            values = values.get(k);
          }
          String[] full = new String[path.length + 2];
          full[0] = "task_quantile_metrics";
          System.arraycopy(path, 0, full, 1, path.length);
          for (int i = 0; i < goldenIdx.size(); i++) {
            full[full.length - 1] = names[slots.get(i)];
            assertThat(Messages.getLong(m, full))
                .as(where + " " + key + " " + names[slots.get(i)])
                .isEqualTo(Math.round(values.get(goldenIdx.get(i)).asDouble()));
          }
        });
  }

  /** Count is the successful tasks, sum their total, from the golden task list. */
  private static void checkCountAndSum(String where, JsonNode g, Message m) {
    if (!g.has("tasks")) {
      return;
    }
    long count = 0;
    long duration = 0;
    long gc = 0;
    long read = 0;
    for (JsonNode t : g.get("tasks")) {
      if (t.get("status").asText().equals("SUCCESS") && t.has("taskMetrics")) {
        count++;
        duration += t.path("duration").asLong();
        gc += t.get("taskMetrics").get("jvmGcTime").asLong();
        JsonNode sr = t.get("taskMetrics").get("shuffleReadMetrics");
        read += sr.get("localBytesRead").asLong() + sr.get("remoteBytesRead").asLong();
      }
    }
    assertThat(Messages.getLong(m, "task_quantile_metrics", "duration_millis", "count")).as(where + " count").isEqualTo(count);
    assertThat(Messages.getLong(m, "task_quantile_metrics", "duration_millis", "sum")).as(where + " duration sum").isEqualTo(duration);
    assertThat(Messages.getLong(m, "task_quantile_metrics", "jvm_gc_time_millis", "sum")).isEqualTo(gc);
    assertThat(Messages.getLong(m, "task_quantile_metrics", "shuffle_read_metrics", "read_bytes", "sum")).isEqualTo(read);
  }

  @TestFactory
  Stream<DynamicTest> testkitStagesEqualTheRealHistoryServersAnswers() {
    List<TestkitFixtures.Fixture> fixtures =
        TestkitFixtures.all().stream().filter(TestkitFixtures.Fixture::hasHistoryServer).toList();
    assumeTrue(!fixtures.isEmpty(), "testkit/fixtures is absent: testkit mapping conformance skipped");
    return fixtures.stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    f.sparkVersion() + "/" + f.scenario(),
                    () -> {
                      List<Message> mapped = StageTelemetry.from(EventLogs.replay(f.eventLog())).stageMessages();
                      JsonNode golden = f.historyServer("stages-withSummaries.json");
                      assertThat(mapped).hasSize(golden.size());
                      for (JsonNode g : golden) {
                        long id = g.get("stageId").asLong();
                        int attempt = g.get("attemptId").asInt();
                        Message m = find(mapped, id, attempt);
                        compareStage(f.scenario(), g, m);
                        Path list = f.dir().resolve("shs/stages/" + id + "-" + attempt + "-taskList.json");
                        if (Files.isRegularFile(list)) {
                          JsonNode tasks = JSON.readTree(list.toFile());
                          if (tasks.size() < 200 && g.has("taskMetricsDistributions")) {
                            ObjectNode withTasks = ((ObjectNode) g.deepCopy());
                            ObjectNode byId = withTasks.putObject("tasks");
                            tasks.forEach(t -> byId.set(t.get("taskId").asText(), t));
                            checkCountAndSum(f.scenario(), withTasks, m);
                          }
                        }
                      }
                    }));
  }

  @Test
  void taskQuantilesEqualTheHistoryServersTaskSummary() throws IOException {
    Path root = corpus();
    List<Message> mapped =
        StageTelemetry.from(EventLogs.replay(root.resolve("spark-events/local-1430917381534"))).stageMessages();
    for (String[] c :
        new String[][] {
          {"stage_task_summary_w_shuffle_write_expectation.json", "0"},
          {"stage_task_summary_w_shuffle_read_expectation.json", "1"},
        }) {
      JsonNode golden = JSON.readTree(Files.readString(root.resolve("expectations").resolve(c[0])));
      // The default taskSummary quantiles are 0.05, 0.25, 0.5, 0.75, 0.95: compare p25, p50, p75.
      checkQuantiles(c[0], golden, find(mapped, Long.parseLong(c[1]), 0), List.of(1, 2, 3), List.of(1, 2, 3));
      // Custom quantiles 0.01, 0.5, 0.99 check the median once more.
    }
  }

  @Test
  void theExecutorTotalsSumEveryExecutor() throws IOException {
    Path root = corpus();
    StageTelemetry t = StageTelemetry.from(EventLogs.replay(root.resolve("spark-events/local-1422981780767")));
    JsonNode golden = JSON.readTree(Files.readString(root.resolve("expectations/executor_list_json_expectation.json")));
    long duration = 0, gc = 0, input = 0, completed = 0, failed = 0;
    for (JsonNode e : golden) {
      duration += e.get("totalDuration").asLong();
      gc += e.get("totalGCTime").asLong();
      input += e.get("totalInputBytes").asLong();
      completed += e.get("completedTasks").asLong();
      failed += e.get("failedTasks").asLong();
    }
    Message x = t.executorMessage();
    assertThat(Messages.getLong(x, "count")).isEqualTo(golden.size());
    assertThat(Messages.getLong(x, "total_duration_millis")).isEqualTo(duration);
    assertThat(Messages.getLong(x, "total_gc_time_millis")).isEqualTo(gc);
    assertThat(Messages.getLong(x, "total_input_bytes")).isEqualTo(input);
    assertThat(Messages.getLong(x, "completed_tasks")).isEqualTo(completed);
    assertThat(Messages.getLong(x, "failed_tasks")).isEqualTo(failed);
  }

  @Test
  void everyConformanceLogMapsAndEvaluatesWithTheRecommendedCatalog() throws IOException {
    Path events = corpus().resolve("spark-events");
    StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
    try (Stream<Path> logs = Files.list(events)) {
      for (Path log : logs.sorted().toList()) {
        StageDiagnostics d = engine.evaluate(EventLogs.replay(log));
        assertThat(d.status()).as(log.getFileName().toString()).isNotEqualTo(DiagnosticStatus.ERROR);
        assertThat(d.warnings()).as(log.getFileName().toString())
            .allMatch(w -> w.equals(StageRuleEngine.NO_STAGES_WARNING));
        assertThat(d.stagesAnalyzed()).isEqualTo(EventLogs.replay(log).stages(io.sparkrca.core.app.StageQuery.all()).size());
      }
    }
  }

  private static Message find(List<Message> stages, long id, int attempt) {
    return stages.stream()
        .filter(s -> Messages.getLong(s, "stage_id") == id && Messages.getLong(s, "stage_attempt_id") == attempt)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no mapped stage " + id + "." + attempt));
  }
}
