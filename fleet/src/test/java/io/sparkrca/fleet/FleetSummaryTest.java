package io.sparkrca.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FleetSummary} over rows of real event logs. */
class FleetSummaryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static List<FleetRow> rows;

  @BeforeAll
  static void scanFixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is not in this checkout");
    List<FleetRow> r = new ArrayList<>();
    FleetScan.builder().threads(2).build().run(TestkitFixtures.root().get().toString(), r::add);
    rows = r;
  }

  @Test
  void theSummaryCountsEveryKindAndRanksTheWorstOffenders() throws Exception {
    FleetSummary.Builder b = FleetSummary.builder("fixtures");
    rows.forEach(b::add);
    JsonNode s = JSON.readTree(b.build().toJson());

    assertThat(s.path("applications").asLong()).isEqualTo(rows.size());
    long sum = 0;
    for (JsonNode k : s.path("byRootCause")) {
      long n = k.path("applications").asLong();
      assertThat(n).as(k.toString()).isEqualTo(rows.stream()
          .filter(r -> r.rootCause().map(c -> c.kind().name()).orElse("").equals(k.path("kind").asText())).count());
      sum += n;
    }
    assertThat(sum).isEqualTo(rows.size());
    List<Double> wasted = new ArrayList<>();
    s.path("worstOffenders").forEach(o -> wasted.add(o.path("wastedCoreHours").asDouble()));
    assertThat(wasted).isNotEmpty().hasSizeLessThanOrEqualTo(FleetSummary.MAX_OFFENDERS).isSortedAccordingTo(Collections.reverseOrder());
    double most = rows.stream().mapToDouble(FleetRow::wastedCoreHours).max().orElseThrow();
    assertThat(wasted.get(0)).isEqualTo(most);
    assertThat(s.path("wastedCoreHours").decimalValue())
        .isEqualByComparingTo(java.math.BigDecimal.valueOf(rows.stream().mapToLong(r -> Math.round(r.wastedCoreHours() * 1e6)).sum(), 6));
    assertThat(b.build().toMarkdown()).contains("# Fleet summary", "## Root causes", "## Worst offenders", "## Regressions");
  }

  @Test
  void theSameRowsGiveTheSameSummaryInAnyOrderAndAnySplit() {
    FleetSummary.Builder whole = FleetSummary.builder("fixtures");
    rows.forEach(whole::add);
    String expected = whole.build().toJson();

    Random random = new Random(18);
    for (int round = 0; round < 5; round++) {
      List<FleetRow> shuffled = new ArrayList<>(rows);
      Collections.shuffle(shuffled, random);
      // Totals summed in parts and merged, runs grouped by name: the way the Spark job computes it.
      List<FleetSummary.Totals> parts = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        parts.add(new FleetSummary.Totals());
      }
      java.util.Map<String, List<FleetSummary.Run>> byName = new java.util.HashMap<>();
      for (int i = 0; i < shuffled.size(); i++) {
        parts.get(i % parts.size()).add(shuffled.get(i));
        FleetSummary.Run.of(shuffled.get(i)).ifPresent(r -> byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r));
      }
      FleetSummary.Totals merged = parts.get(3).merge(parts.get(1)).merge(parts.get(0)).merge(parts.get(2));
      List<FleetSummary.Regression> regressions = new ArrayList<>();
      byName.values().forEach(r -> regressions.addAll(FleetSummary.Regression.among(r)));

      assertThat(FleetSummary.of("fixtures", merged, regressions, regressions.size(), List.of()).toJson()).isEqualTo(expected);
    }
  }

  @Test
  void aSlowerRunAndAFailureAfterASuccessOfTheSameNameAreRegressions(@TempDir Path dir) throws Exception {
    String name = "sparkrca-testkit healthy";
    Fleets.copy(TestkitFixtures.get("3.5.9", "healthy"), dir);                       // 38 s, succeeded
    Fleets.renamed(TestkitFixtures.get("3.5.9", "config-regression"), name, dir);    // later, 77 s, succeeded
    Fleets.renamed(TestkitFixtures.get("3.5.9", "task-write-failure"), name, dir);   // later still, failed
    Fleets.copy(TestkitFixtures.get("3.5.9", "input-growth"), dir);                  // another name

    FleetScan.Result result = FleetScan.builder().build().run(dir.toString(), r -> {});
    FleetSummary s = result.summary();

    assertThat(s.regressionCount()).isEqualTo(2);
    FleetSummary.Regression failed = s.regressions().get(0);
    FleetSummary.Regression slower = s.regressions().get(1);
    assertThat(failed.outcome()).isEqualTo("FAILED");
    assertThat(failed.previousOutcome()).isEqualTo("SUCCEEDED");
    assertThat(failed.appId()).isEqualTo("local-1796160714650");
    assertThat(failed.reason()).contains("failed; the run before it (local-1795964827698) succeeded");
    assertThat(slower.appId()).isEqualTo("local-1795964827698");
    assertThat(slower.baselineRuns()).isEqualTo(1);
    assertThat(slower.slowdown()).isGreaterThan(FleetSummary.MIN_SLOWDOWN);
    assertThat(slower.durationMs() - slower.baselineMedianMs()).isGreaterThanOrEqualTo(FleetSummary.MIN_EXTRA_MS);
    assertThat(s.toMarkdown()).contains("failed; the run before it").contains("x the median of the 1 successful runs");
  }

  @Test
  void runsWithinTheThresholdsAreNotRegressions() {
    List<FleetSummary.Run> runs = List.of(
        new FleetSummary.Run("job", "a1", "/l/a1", 1_000, 100_000, "SUCCEEDED"),
        new FleetSummary.Run("job", "a2", "/l/a2", 2_000, 140_000, "SUCCEEDED"),   // 1.4x: below the ratio
        new FleetSummary.Run("job", "a3", "/l/a3", 3_000, 40_000, "SUCCEEDED"),
        new FleetSummary.Run("job", "a4", "/l/a4", 4_000, 20_000, "FAILED"),
        new FleetSummary.Run("job", "a5", "/l/a5", 5_000, 10_000, "FAILED"));      // failed after a failure

    assertThat(FleetSummary.Regression.among(runs)).extracting(FleetSummary.Regression::appId).containsExactly("a4");

    List<FleetSummary.Run> short_ = List.of(
        new FleetSummary.Run("tiny", "b1", "/l/b1", 1_000, 2_000, "SUCCEEDED"),
        new FleetSummary.Run("tiny", "b2", "/l/b2", 2_000, 10_000, "SUCCEEDED"));  // 5x, but only 8 s more
    assertThat(FleetSummary.Regression.among(short_)).isEmpty();
  }
}
