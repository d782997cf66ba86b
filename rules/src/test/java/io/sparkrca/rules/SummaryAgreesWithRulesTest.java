package io.sparkrca.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.format.Formats;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.summary.SummaryMarkdown;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code summarize} and {@code rules} measure GC the same way: JVM GC time over the executor run
 * time summed over every stage attempt, on every testkit fixture.
 */
class SummaryAgreesWithRulesTest {
  private static final StageRule APP_GC = RuleCatalog.recommended().rule("APP_GC_OVERHEAD").orElseThrow();

  /** The ratio APP_GC_OVERHEAD computes, rendered by the engine itself. */
  private static final StageRule RATIO =
      StageRule.of("RATIO", "the application GC ratio", "true")
          .withDetail(
              "string(ratio(sum(stages.map(x, x.stage_metrics.jvm_gc_time_millis)),"
                  + " sum(stages.map(x, x.stage_metrics.executor_run_time_millis))))");

  private static final StageRuleEngine ENGINE = StageRuleEngine.builder().rule(RATIO).build();

  @TestFactory
  Stream<DynamicTest> theSummarysGcShareIsTheRatioTheRulesCompute() {
    List<TestkitFixtures.Fixture> all = TestkitFixtures.all();
    assumeTrue(!all.isEmpty(), "testkit/fixtures is absent");
    // The catalog rule and this test's ratio must be the same expression, or the test proves nothing.
    assertThat(APP_GC.expression())
        .contains("ratio(sum(stages.map(x, x.stage_metrics.jvm_gc_time_millis)), sum(stages.map(x, x.stage_metrics.executor_run_time_millis)))");
    return all.stream().map(f -> DynamicTest.dynamicTest(f.sparkVersion() + " " + f.scenario(), () -> {
      ReplayedApplication app = EventLogs.replay(f.eventLog());
      ApplicationSummary summary = ApplicationSummary.of(app, f.scenario());
      StageDiagnostics d = ENGINE.evaluate(app);
      DiagnosticsSummary totals = d.summary().orElseThrow();

      assertThat(summary.executorRunTimeMs()).isEqualTo(totals.executorRunTimeMs());
      assertThat(summary.totalGcTimeMs()).isEqualTo(totals.jvmGcTimeMs());
      assertThat(summary.gcShare()).isEqualTo(totals.gcShare());
      double celRatio = Double.parseDouble(d.violation("RATIO").orElseThrow().detail().orElseThrow());
      assertThat(summary.gcShare()).isCloseTo(celRatio, within(1e-12));

      if (summary.executorRunTimeMs() > 0) {
        String percent = Formats.percent(summary.totalGcTimeMs(), summary.executorRunTimeMs());
        assertThat(SummaryMarkdown.render(summary)).contains("(" + percent + " of the executor run time, ");
        assertThat(d.toMarkdown()).contains("(" + percent + " of executor run time)");
      }
    }));
  }
}
