package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Message;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CEL vectors of the Python {@code spark_cel_test.py}. The Python tool emulated CEL-Java
 * in Python; here the real CEL-Java runs them against the same schema and fixture, so these pin
 * the behaviour rule authors rely on (and would catch a CEL upgrade that changes it).
 */
class CelConformanceTest {
  /** {@code _STAGES}: stage 3 (failed, times, quantiles, locality, parents) and a bare stage. */
  private static final StageTelemetry STAGES =
      StageTelemetry.fromDataprocJson(
          "{\"stages\": [{\"stageId\": \"3\", \"name\": \"count at job.py:12\", \"numTasks\": 20, \"numFailedTasks\": 2,"
              + " \"status\": \"STAGE_STATUS_FAILED\", \"submissionTime\": \"2026-09-25T18:21:41.359Z\","
              + " \"completionTime\": \"2026-09-25T18:23:17.010Z\", \"stageMetrics\": {\"executorRunTimeMillis\": \"1000\","
              + " \"jvmGcTimeMillis\": \"300\"}, \"taskQuantileMetrics\": {\"durationMillis\": {\"percentile50\": \"1000\","
              + " \"maximum\": \"100000\"}}, \"locality\": {\"PROCESS_LOCAL\": \"5\"}, \"parentStageIds\": [\"1\", \"2\"]},"
              + " {\"numTasks\": 5, \"stageMetrics\": {}}],"
              + " \"totalExecutorSummary\": {\"failedTasks\": 2, \"completedTasks\": 10}}");

  private static final RuleCompiler COMPILER = new RuleCompiler(RuleLimits.DEFAULT);

  private static Object eval(String expr) throws Exception {
    RuleCompiler.Compiled c = COMPILER.detail(expr, Optional.empty());
    List<Message> stages = STAGES.stageMessages();
    return c.program().eval(name -> switch (name) {
      case "stages" -> Optional.of(stages);
      case "total_executor_summary" -> Optional.of(STAGES.executorMessage());
      default -> Optional.empty();
    });
  }

  private static String compileError(String expr) {
    try {
      COMPILER.detail(expr, Optional.empty());
      return "";
    } catch (RuleCompiler.CompileError e) {
      return e.getMessage();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        // literals and operators
        "0x1F == 31", "1u == 1u", ".5 == 0.5", "'a\\tb' == 'a\\tb'", "'\\x41\\X42' == 'AB'", "r'\\d+' == '\\\\d+'",
        "[1, 2,] == [1, 2]", "{'a': 1}['a'] == 1", "-7 / 2 == -3", "-7 % 2 == -1", "7 % -2 == 1",
        "1.0 / 0.0 > 1e308", "!(0.0 / 0.0 == 0.0 / 0.0)", "2 < 2.5", "1u < 2", "'b' < 'c'", "'a' + 'b' == 'ab'",
        "[1] + [2] == [1, 2]", "'a' in {'a': 1}", "{'a': {'b': 2}}.a.b == 2", "[[1, 2]][0][1] == 2",
        "size(stages) > 1 ? 'many' == 'many' : false", "1 + 2 * 3 == 7", "(1 < 2) == true", "true || false && false",
        "-(1 + 2) == -3", "(false ? 1 : true ? 2 : 3) == 2",
        // logic absorbs errors
        "!(1 / 0 == 1 && false)", "!(false && 1 / 0 == 1)", "1 / 0 == 1 || true",
        // macros
        "[1, 2].map(x, [10, 20].map(x, x + 1)) == [[11, 21], [11, 21]]", "{'a': 1, 'b': 2}.filter(k, k == 'b') == ['b']",
        "[0, 1].exists(x, 1 / x == 1)", "![0, 1].all(x, 1 / x == 0)", "[].all(x, x > 0)", "![].exists(x, x > 0)",
        // functions and conversions
        "'abc'.matches('^a.c$')", "matches('abc', 'b')", "stages.filter(s, s.name.contains('job.py')).size() == 1",
        "int(3.9) == 3", "int(-3.9) == -3", "int('42') == 42", "size('héllo') == 5", "string(1.5) == '1.5'",
        "string(2.0) == '2.0'", "string(1e7) == '1.0E7'", "string(0.0001) == '1.0E-4'", "bool('true')",
        "duration('1h30m').getMinutes() == 90", "duration('26h').getHours() == 26",
        "duration('90061.5s').getMilliseconds() == 500", "timestamp('2026-01-02T03:04:05Z').getHours() == 3",
        "timestamp('2026-01-02T03:04:05Z').getMonth() == 0", "int(timestamp('2964-04-11T04:19:03.999999Z')) == 31376348343",
        "timestamp('2026-01-01T00:00:00Z').getHours('America/Los_Angeles') == 16",
        "timestamp('2026-01-01T00:00:00Z').getHours('+05:30') == 5",
        "duration('-59.999999s').getSeconds() == -59",
        "(stages[0].completion_time - stages[0].submission_time).getSeconds() == 95",
        "(stages[0].completion_time - stages[0].submission_time).getMilliseconds() == 651",
        "string(duration('1.5s')) == '1.500s'",
        // schema
        "stages[0].stage_metrics.jvm_gc_time_millis == 300", "stages[1].stage_id == 0",
        "has(stages[1].stage_metrics)", "!has(stages[1].stage_id)", "has(stages[0].locality.PROCESS_LOCAL)",
        "stages[0].locality['PROCESS_LOCAL'] == 5", "2 in stages[0].parent_stage_ids", "!has(stages[1].task_quantile_metrics)",
        "stages[1].task_quantile_metrics.duration_millis.maximum == 0", "stages[0].status == 3",
        "stages[0].status == google.cloud.dataproc.v1.StageStatus.STAGE_STATUS_FAILED",
        "!has(stages[0].description)", "has(stages[0].name)", "stages[1].submission_time == timestamp(0)",
        "total_executor_summary.completed_tasks == 10",
        // messages
        "google.cloud.dataproc.v1.StageData{stage_id: 0, job_ids: []} == google.cloud.dataproc.v1.StageData{}",
        "google.cloud.dataproc.v1.StageData{name: ''} != google.cloud.dataproc.v1.StageData{}",
        "type(stages[0]) == google.cloud.dataproc.v1.StageData", "type(stages[0].status) == int", "type(1) == int",
        "int in [int, uint]", "google.protobuf.Timestamp{seconds: 1, nanos: 1000000000} == timestamp(2)",
        // heterogeneous runtime equality through dyn
        "dyn(2) == 2.0", "dyn(2) in [1.0, 2.0]",
        // helpers
        "ratio(1, 0) == 0.0", "gb(2147483648) == 2.0", "mb(1048576) == 1.0",
        "seconds_between(stages[0].submission_time, stages[0].completion_time) == 95.651",
        "human_bytes(1536) == '1.5 KiB'", "human_millis(90000) == '1.5 min'", "round(2.675, 2) == 2.67",
        "truncate('a\\nb', 10) == 'a ...'",
      })
  void evaluatesToTrue(String expr) throws Exception {
    assertThat(eval(expr)).as(expr).isEqualTo(true);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "stages[0].nope | undefined field 'nope' on StageData",
        "total_executor_summary.gc | undefined field 'gc' on ConsolidatedExecutorSummary",
        "stages[0].num_tasks.x | does not support field selection",
        "foo(1) | undeclared reference to 'foo'",
        "stages[0].status == 'X' | enum fields are ints",
        "stages.filter(s, s.num_tasks) | CelTypeError",
        "stages['a'] | found no matching overload",
        "1 < 'a' | no matching overload",
        "'a'.contains(1) | no matching overload",
        "size(1) | no matching overload",
        "has(stages[0].nope) | undefined field 'nope'",
        "Msg{a: 1} | undeclared reference to 'Msg'",
        "1 + 1.0 | CEL does not mix int, uint and double in arithmetic",
        "1u + 1 | CEL does not mix int, uint and double in arithmetic",
        "2 == 2.0 | CEL does not mix int, uint and double in ==",
        "stages[0].num_tasks == 12.0 | CEL does not mix",
        "2.0 % 1.0 | no matching overload",
        "1 + | CelSyntaxError",
        "(1 | CelSyntaxError",
        "a and b | CelSyntaxError",
        "'unterminated | CelSyntaxError",
        "stages.filter(1, true) | CelSyntaxError",
        "1 = 1 | CelSyntaxError",
        "if | CelSyntaxError",
        "s.name.split(',') | undeclared reference to 'split'",
        "StageData{stage_id: 1} | undeclared reference to 'StageData'",
        "google.cloud.dataproc.v1.StageData{nope: 1} | nope",
        "google.cloud.dataproc.v1.StageData{stage_id: 1.0} | CelTypeError",
        "google.cloud.dataproc.v1.StageData{killed_tasks_summary: {1: 1}} | CelTypeError",
        "lowerAscii('A') | undeclared reference to 'lowerAscii'",
      })
  void failsToCompile(String expr, String message) {
    String error = compileError(expr);
    assertThat(error).as(expr).isNotEmpty();
    assertThat(error).contains(message.trim());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "9223372036854775807 + 1 > 0", "-9223372036854775808 / -1 > 0", "1 / 0 == 1", "1 % 0 == 1",
        "[0, 1].all(x, 1 / x == 1)", "{'a': 1}['b'] == 1", "[1][3] == 1", "int('x') == 1",
        "timestamp('2026-01-01T00:00:00Z').getHours('Nowhere/City') == 0", "duration('1.s') == duration('1s')",
        "1 / 0 == 1 && true", "dyn(1) && true",
        // the Python emulator absorbed this one; real CEL-Java 0.14 rejects a non-bool operand
        "dyn(1) && false", "'abc'.matches('(?<=a)b')",
      })
  void failsToEvaluate(String expr) {
    assertThatThrownBy(() -> eval(expr)).as(expr).isInstanceOf(Exception.class);
  }

  @Test
  void theTopLevelMacroVariableAndFreeVariablesAreKnown() throws Exception {
    RuleCompiler.Compiled c = COMPILER.rule("stages.exists(x, x.num_tasks > total_executor_summary.active_tasks)");
    assertThat(c.topLevelVariable()).contains("x");
    assertThat(c.freeVariables()).contains("stages", "total_executor_summary").doesNotContain("x", "s");
    assertThat(COMPILER.rule("size(stages) > 0").topLevelVariable()).isEmpty();
    assertThat(COMPILER.rule("s.num_tasks > 0").reads("s")).isTrue();
    assertThat(COMPILER.rule("stages.filter(s, s.num_tasks > 0)").reads("s")).isFalse();
  }

  @Test
  void constructedStagesAreValidRuleResults() throws Exception {
    Object v = eval("[google.cloud.dataproc.v1.StageData{stage_id: 4}]");
    assertThat((List<?>) v).singleElement().isInstanceOf(Message.class);
  }
}
