package io.sparkrca.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The acceptance test of the comparison (issue 15 §1): every testkit twin (a real run with a
 * {@code baseline} in its label) compared with its real baseline run of the same Spark version
 * gets its label's kind; the changed properties its label records are named, and linked to the
 * stage they show in; the first divergent stage is the stage the change made different (for a
 * raised {@code spark.sql.shuffle.partitions}, the reduce stage of that many tasks), and a run
 * slower only because of its input has none that departs after normalising.
 */
class ComparisonAcceptanceTest {
  private static final Map<String, SparkApplication> APPS = new ConcurrentHashMap<>();

  @BeforeAll
  static void fixtures() {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent: the comparison acceptance is skipped");
  }

  static SparkApplication app(TestkitFixtures.Fixture f) {
    return APPS.computeIfAbsent(f.sparkVersion() + "/" + f.scenario(), k -> EventLogs.replay(f.eventLog()));
  }

  static List<TestkitFixtures.Fixture> twins() {
    return TestkitFixtures.all().stream().filter(f -> !f.label().path("baseline").isNull()
        && !f.label().path("baseline").asText("").isEmpty()).toList();
  }

  static Comparison compare(TestkitFixtures.Fixture f) {
    TestkitFixtures.Fixture base = TestkitFixtures.get(f.sparkVersion(), f.label().path("baseline").asText());
    return Comparison.builder(app(f), app(base)).sources(f.eventLog().toString(), base.eventLog().toString()).compare();
  }

  @Test
  void everySparkVersionHasTheThreePairs() {
    List<String> names = twins().stream().map(f -> f.sparkVersion() + "/" + f.scenario()).toList();
    for (String v : List.of("3.5.9", "4.0.4")) {
      assertThat(names).as("twins of Spark " + v).contains(v + "/config-regression", v + "/input-growth");
    }
  }

  @TestFactory
  Stream<DynamicTest> everyTwinGetsItsLabelsKindAgainstItsBaseline() {
    List<DynamicTest> tests = new ArrayList<>();
    for (TestkitFixtures.Fixture f : twins()) {
      tests.add(DynamicTest.dynamicTest(f.sparkVersion() + "/" + f.scenario(), () -> check(f)));
    }
    return tests.stream();
  }

  private static void check(TestkitFixtures.Fixture f) {
    Comparison c = compare(f);
    String md = c.toMarkdown();
    RootCauseKind label = f.rootCause();
    assertThat(c.verdict().kind()).as("verdict\n" + md).isEqualTo(label);
    JsonNode measured = f.label().path("measured");
    assertThat(c.slowdown()).as("slowdown against the label's measurement")
        .isCloseTo(measured.path("slowdown").asDouble(), org.assertj.core.data.Offset.offset(0.02));
    assertThat(c.unmatchedBaselineStages()).as("every baseline stage that ran has its counterpart\n" + md).isEmpty();
    assertThat(c.unmatchedCandidateStages()).as("every candidate stage has its counterpart\n" + md).isEmpty();
    JsonNode changed = f.label().path("evidence").path("changedSettings");
    List<String> keys = new ArrayList<>();
    changed.fieldNames().forEachRemaining(keys::add);
    assertThat(c.configChanges().stream().map(Comparison.ConfigChange::property))
        .as("the changed properties the label records, and no others").containsExactlyInAnyOrderElementsOf(keys);
    for (Iterator<Map.Entry<String, JsonNode>> it = changed.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      Comparison.ConfigChange x = c.configChanges().stream().filter(ch -> ch.property().equals(e.getKey())).findFirst()
          .orElseThrow();
      assertThat(x.baseline().orElse(null)).as(e.getKey() + " in the baseline").isEqualTo(text(e.getValue().get(0)));
      assertThat(x.candidate().orElse(null)).as(e.getKey() + " in the candidate").isEqualTo(text(e.getValue().get(1)));
    }
    switch (label) {
      case CONFIG_REGRESSION -> {
        String partitions = text(changed.path("spark.sql.shuffle.partitions").get(1));
        int n = Integer.parseInt(partitions);
        assertThat(c.firstDivergentStage()).as("first divergent stage\n" + md).isPresent();
        Comparison.StagePair p = c.firstDivergentStage().get();
        assertThat(p.candidate().tasks()).as("the first divergent stage is the reduce stage of "
            + "spark.sql.shuffle.partitions tasks").isEqualTo(n);
        assertThat(p.candidate().role()).contains("shuffle-read");
        assertThat(p.baseline().tasks()).as("its baseline counterpart ran coalesced partitions").isLessThan(n);
        assertThat(c.configChanges().get(0).property()).as("the most plausible change first")
            .isIn("spark.sql.shuffle.partitions", "spark.sql.adaptive.enabled");
        assertThat(c.configChanges()).allSatisfy(x -> assertThat(x.link()).as(x.property() + " linked to the stages")
            .isPresent());
        assertThat(c.configChanges().stream().filter(x -> x.property().equals("spark.sql.shuffle.partitions"))
            .findFirst().orElseThrow().link().orElseThrow()).contains(p.candidate().label()).contains(partitions);
        assertThat(c.verdict().recommendations()).as("restores the baseline's values").anySatisfy(r ->
            assertThat(r.properties()).anySatisfy(pc -> {
              assertThat(pc.property()).isEqualTo("spark.sql.shuffle.partitions");
              assertThat(pc.recommended()).isEqualTo(text(changed.path("spark.sql.shuffle.partitions").get(0)));
            }));
        assertThat(c.verdict().alternatives().stream().map(a -> a.kind()))
            .contains(RootCauseKind.NO_REGRESSION_INPUT_GROWTH, RootCauseKind.DATA_DISTRIBUTION_CHANGE,
                RootCauseKind.INFRASTRUCTURE_CHANGE, RootCauseKind.CODE_CHANGE);
      }
      case NO_REGRESSION_INPUT_GROWTH -> {
        assertThat(c.inputGrowth()).as("input growth").isCloseTo(measured.path("inputGrowth").asDouble(),
            org.assertj.core.data.Offset.offset(0.01));
        assertThat(c.normalizedSlowdown()).as("time per input record is flat or better").isLessThanOrEqualTo(1.1);
        assertThat(c.firstDivergentStage()).as("no stage departs after normalising\n" + md).isEmpty();
        assertThat(c.verdict().explanation()).contains(Long.toString(c.candidate().inputRecords()))
            .contains(Long.toString(c.baseline().inputRecords()));
      }
      default -> { }
    }
    assertThat(c.verdict().alternatives()).as("rejected alternatives, each with its reason")
        .isNotEmpty().allSatisfy(a -> assertThat(a.whyRejected()).isNotBlank());
    for (var r : c.verdict().recommendations()) {
      String text = (r.action() + " " + r.rationale()).toLowerCase(Locale.ROOT);
      assertThat(text).as("never advises caching").doesNotContain("cache(").doesNotContain("persist(");
    }
    JsonNode json = readJson(c.toJson());
    assertThat(json.path("verdict").path("kind").asText()).isEqualTo(label.name());
    assertThat(json.has("candidateProfile")).as("profiles stay out of the JSON").isFalse();
  }

  @Test
  void aRunComparedWithItselfIsNotSlower() {
    TestkitFixtures.Fixture healthy = TestkitFixtures.get("3.5.9", "healthy");
    Comparison c = Comparison.of(app(healthy), app(healthy));
    assertThat(c.verdict().kind()).isEqualTo(RootCauseKind.HEALTHY);
    assertThat(c.exitCode()).isZero();
    assertThat(c.stages()).allSatisfy(p -> assertThat(p.normalizedRatio()).isEqualTo(1.0));
    assertThat(c.configChanges()).isEmpty();
  }

  @Test
  void theBaselineComparedWithItsSlowTwinIsNotCalledARegression() {
    // The other way round: the healthy run is faster than the config-regression run.
    TestkitFixtures.Fixture healthy = TestkitFixtures.get("4.0.4", "healthy");
    TestkitFixtures.Fixture slow = TestkitFixtures.get("4.0.4", "config-regression");
    Comparison c = Comparison.of(app(healthy), app(slow));
    assertThat(c.verdict().kind()).isEqualTo(RootCauseKind.HEALTHY);
    assertThat(c.slowdown()).isLessThan(1.0);
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? null : n.asText();
  }

  private static JsonNode readJson(String s) {
    try {
      return SparkJson.mapper().readTree(s);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
