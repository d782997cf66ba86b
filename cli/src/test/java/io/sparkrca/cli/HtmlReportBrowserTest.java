package io.sparkrca.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.cli.browser.HeadlessChromium;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.StageQuery;
import io.sparkrca.core.app.TaskQuery;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.StageData;
import io.sparkrca.core.model.StageStatus;
import io.sparkrca.core.model.TaskData;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.LargeReport;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML reports of {@code rca}, {@code compare} and {@code summarize}, written by the command
 * line on real testkit runs and opened in a real headless Chromium: the charts are in the DOM
 * with the values the application's own model has (stage spans, the culprit stage's task
 * histogram and median, the failure chain's markers, both runs' stage times, the configuration
 * diff), every chart has its text alternative, the text reads without JavaScript, the page logs no
 * console error and requests nothing but itself. Screenshots go to {@code target/browser/} (and to
 * {@code docs/images/} with {@code -Dsparkrca.writeScreenshots=true}).
 *
 * <p>Chromium comes from {@code .ci/install-chromium.sh}, which {@code .ci/run} calls. Where it is
 * missing the test fails under CI (the environment variable {@code CI}, or {@code
 * -Dsparkrca.requireBrowser=true}) and is skipped with that message elsewhere.
 */
class HtmlReportBrowserTest {
  private static HeadlessChromium browser;
  private static final Path SHOTS = Path.of("target", "browser");

  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent");
    Optional<Path> bin = HeadlessChromium.binary();
    String why = "no chromium on the PATH: run .ci/install-chromium.sh (CI runs it from .ci/run)";
    if (bin.isEmpty() && (System.getenv("CI") != null || Boolean.getBoolean("sparkrca.requireBrowser"))) {
      fail(why);
    }
    // Elsewhere a machine without a browser skips the class, saying why.
    assumeTrue(bin.isPresent(), why);
    browser = HeadlessChromium.start(bin.get());
    Files.createDirectories(SHOTS);
  }

  @AfterAll
  static void stop() throws IOException {
    if (browser != null) {
      browser.close();
    }
  }

  private record Rendered(HeadlessChromium.Page page, HeadlessChromium.PageLog log, Path file) {}

  private static Rendered render(String name, String... args) throws Exception {
    Path file = dir.resolve(name + ".html");
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--format", "html", "--output", file.toString()));
    CliRun r = CliRun.of(all.toArray(String[]::new));
    assertThat(r.exitCode()).as(r.err()).isIn(0, 1);
    HeadlessChromium.Page page = browser.newPage();
    HeadlessChromium.PageLog log = page.open(file);
    assertThat(log.consoleErrors()).as("console errors").isEmpty();
    assertThat(log.requests()).as("the page requests only itself").allSatisfy(u ->
        assertThat(u).isEqualTo(file.toUri().toString()));
    byte[] png = page.screenshot(1100);
    assertThat(png.length).as("a screenshot").isGreaterThan(10_000);
    Files.write(SHOTS.resolve(name + ".png"), png);
    if (Boolean.getBoolean("sparkrca.writeScreenshots")) {
      Path docs = locate("docs").resolve("images");
      Files.createDirectories(docs);
      Files.write(docs.resolve(name + ".png"), png);
    }
    // Every chart is an image with a title and a description, and its numbers as a table.
    JsonNode a11y = page.evaluate("[...document.querySelectorAll('figure.chart')].map(f => { const s = f.querySelector('svg');"
        + " const ids = (s.getAttribute('aria-labelledby') || '').split(' ').filter(x => x);"
        + " return {role: s.getAttribute('role'), labels: ids.map(i => (document.getElementById(i) || {}).textContent || ''),"
        + " table: !!f.querySelector('details table'), caption: (f.querySelector('figcaption') || {}).textContent || ''}; })");
    assertThat(a11y.size()).as("charts").isPositive();
    for (JsonNode c : a11y) {
      assertThat(c.path("role").asText()).isEqualTo("img");
      assertThat(c.path("labels").size()).isEqualTo(2);
      c.path("labels").forEach(l -> assertThat(l.asText()).isNotBlank());
      assertThat(c.path("table").asBoolean()).as("a data table").isTrue();
      assertThat(c.path("caption").asText()).isNotBlank();
    }
    assertThat(page.evaluate("document.querySelectorAll('script, link[rel=stylesheet], img, iframe').length").asInt())
        .as("nothing to run or fetch").isZero();
    return new Rendered(page, log, file);
  }

  @Test
  void theRcaOfAFailedRunChartsItsCulpritStageAndMarksTheFailureChain() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "bad-record");
    SparkApplication app = EventLogs.replay(f.eventLog());
    Rendered r = render("rca-bad-record", "rca", f.eventLog().toString(), "--driver-log", f.driverLog().toString());
    try (HeadlessChromium.Page page = r.page()) {
      String text = page.evaluate("document.body.innerText").asText();
      assertThat(text).contains("DETERMINISTIC_DATA_FAILURE").contains("NumberFormatException");
      // The timeline draws one span per stage attempt that ran, each as long as the model says.
      List<StageData> ran = app.stages(StageQuery.all()).stream().filter(s -> s.status() != StageStatus.SKIPPED
          && s.submissionTime().isPresent()).toList();
      JsonNode spans = page.evaluate("[...document.querySelectorAll('figure[data-chart=timeline] rect.span')]"
          + ".filter(e => e.dataset.label.startsWith('stage')).map(e => [e.dataset.label, +e.dataset.value])");
      assertThat(spans.size()).isEqualTo(ran.size());
      for (StageData s : ran) {
        long ms = s.completionTime().map(t -> t.toEpochMilli()).orElse(0L) - s.submissionTime().get().toEpochMilli();
        assertThat(spans).as("stage " + s.stageId()).anySatisfy(n -> {
          assertThat(n.get(0).asText()).isEqualTo("stage " + s.stageId() + "." + s.attemptId());
          assertThat(n.get(1).asLong()).isEqualTo(Math.max(0, ms));
        });
      }
      int chainWithTimes = page.evaluate("document.querySelectorAll('figure[data-chart=timeline] g.failure').length").asInt();
      assertThat(chainWithTimes).as("failure-chain markers").isPositive();
      // The culprit stage's histogram counts each of its successful tasks once, and marks the true median and max.
      int culprit = f.label().path("culprit").path("stageIds").get(0).asInt();
      checkHistogram(page, app, culprit);
    }
  }

  @Test
  void theRcaWithABaselineShowsBothRunsStageTimesAndTheConfigurationDiff() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "config-regression");
    TestkitFixtures.Fixture base = TestkitFixtures.get("3.5.9", "healthy");
    Rendered r = render("rca-config-regression", "rca", f.eventLog().toString(), "--baseline", base.eventLog().toString());
    try (HeadlessChromium.Page page = r.page()) {
      assertThat(page.evaluate("document.querySelector('[data-kind]').dataset.kind").asText())
          .isEqualTo("CONFIG_REGRESSION");
      checkComparison(page, f, base);
    }
  }

  @Test
  void theComparisonPageShowsTheFirstDivergentStageTheDiffAndBothRunsCharts() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("4.0.4", "config-regression");
    TestkitFixtures.Fixture base = TestkitFixtures.get("4.0.4", "healthy");
    Rendered r = render("compare-config-regression", "compare", f.eventLog().toString(), base.eventLog().toString());
    try (HeadlessChromium.Page page = r.page()) {
      assertThat(page.evaluate("document.querySelector('[data-comparison-kind]').dataset.comparisonKind").asText())
          .isEqualTo(f.rootCause().name());
      checkComparison(page, f, base);
      int partitions = f.label().path("evidence").path("changedSettings").path("spark.sql.shuffle.partitions").get(1)
          .asInt();
      SparkApplication app = EventLogs.replay(f.eventLog());
      int divergent = page.evaluate("+document.querySelector('[data-first-divergent]').dataset.firstDivergent").asInt();
      assertThat(app.stages(StageQuery.all()).stream().filter(s -> s.stageId() == divergent).findFirst().orElseThrow()
          .numTasks()).as("the first divergent stage is the reduce stage of the raised partition count")
          .isEqualTo(partitions);
      assertThat(page.evaluate("document.querySelectorAll('figure[data-chart=timeline]').length").asInt())
          .as("a timeline of each run").isEqualTo(2);
      checkHistogram(page, app, divergent);
    }
  }

  @Test
  void theSummaryOfASpillingRunChartsSpillAndGcPerExecutor() throws Exception {
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "spill");
    SparkApplication app = EventLogs.replay(f.eventLog());
    Rendered r = render("summary-spill", "summarize", f.eventLog().toString());
    try (HeadlessChromium.Page page = r.page()) {
      assertThat(page.evaluate("document.body.innerText").asText()).contains(app.info().id()).contains("Spill");
      JsonNode spill = page.evaluate("[...document.querySelectorAll('figure[data-chart=executor-spill] rect.bar')]"
          + ".map(e => +e.dataset.value)");
      long modelSpill = app.stages(StageQuery.all()).stream().mapToLong(StageData::diskBytesSpilled).sum();
      long drawn = 0;
      for (JsonNode n : spill) {
        drawn += n.asLong();
      }
      assertThat(drawn).as("disk spill drawn per executor adds up to the stages' spill").isEqualTo(modelSpill);
      JsonNode gc = page.evaluate("[...document.querySelectorAll('figure[data-chart=executor-gc] rect.bar')]"
          + ".map(e => [e.dataset.label, +e.dataset.value])");
      assertThat(gc.size()).isEqualTo(app.executors(false).size());
      var executors = app.executors(false);
      long stagesGc = app.stages(StageQuery.all()).stream().mapToLong(StageData::jvmGcTime).sum();
      long stagesRun = app.stages(StageQuery.all()).stream().mapToLong(StageData::executorRunTime).sum();
      for (var e : executors) {
        // Local mode: the driver is the one executor and Spark records 0 GC on its summary, so the
        // chart reads its tasks' GC and run time from the stages.
        boolean localDriver = executors.size() == 1 && e.id().equals("driver") && e.totalGCTime() == 0 && stagesGc > 0;
        double share = localDriver ? (double) stagesGc / stagesRun
            : e.totalDuration() <= 0 ? 0 : (double) e.totalGCTime() / e.totalDuration();
        assertThat(gc).anySatisfy(n -> {
          assertThat(n.get(0).asText()).isEqualTo("executor " + e.id());
          assertThat(n.get(1).asDouble()).isCloseTo(share, org.assertj.core.data.Offset.offset(1e-4));
        });
      }
    }
  }

  @Test
  void theRcaPageOfAMillionTaskSizedReportStaysShortWithEveryRowAndCellInThePage() throws Exception {
    // The report shaped like the 1M-task benchmark log's (10,000 stages, 200 executors, 50 findings, 100 events,
    // texts listing hundreds of stages). A screenshot's time grows with the page's height, so the height is
    // what is bounded here (the time itself is measured by benchmarks/compare/run.sh, not asserted).
    Path file = dir.resolve("rca-large.html");
    Files.writeString(file, LargeReport.report().toHtml());
    try (HeadlessChromium.Page page = browser.newPage()) {
      HeadlessChromium.PageLog log = page.open(file);
      assertThat(log.consoleErrors()).as("console errors").isEmpty();
      byte[] png = page.screenshot(1100);
      Files.write(SHOTS.resolve("rca-large.png"), png);
      int height = page.evaluate("document.documentElement.scrollHeight").asInt();
      assertThat(height).as("page height in px, 1100 px wide").isLessThan(7_000);
      // Folded rows are in the DOM (every finding, every event) but not laid out until opened.
      String findingCells = "[...document.querySelectorAll('tbody tr td:first-child')].filter(td => /^F\\d+$/"
          + ".test(td.textContent))";
      assertThat(page.evaluate(findingCells + ".length").asInt()).isEqualTo(LargeReport.FINDINGS);
      assertThat(page.evaluate(findingCells + ".filter(td => td.checkVisibility()).length").asInt())
          .as("findings laid out before a fold is opened").isEqualTo(HtmlPage.SHOWN_ROWS);
      String text = page.evaluate("document.body.innerText").asText();
      assertThat(text).contains("The other 40 of 50 rows").doesNotContain("event 99:")
          .doesNotContain(LargeReport.stageList(0, 300));
      assertThat(page.evaluate("document.querySelectorAll('details.clip:not([open])').length").asInt())
          .as("long cells and items folded").isPositive();
      assertThat(page.evaluate("document.body.textContent").asText()).as("the whole stage list is in the page")
          .contains(LargeReport.stageList(0, 600));
      // Opening every fold shows all of it.
      page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)");
      assertThat(page.evaluate("document.body.innerText").asText()).contains("event 99: job 99 started");
      assertThat(page.evaluate("document.documentElement.scrollHeight").asInt()).as("taller once unfolded")
          .isGreaterThan(height);
    }
  }

  /** The candidate's per-stage bars are the model's wall times; the config table is the label's diff. */
  private static void checkComparison(HeadlessChromium.Page page, TestkitFixtures.Fixture f, TestkitFixtures.Fixture base)
      throws IOException {
    SparkApplication app = EventLogs.replay(f.eventLog());
    SparkApplication b = EventLogs.replay(base.eventLog());
    JsonNode cand = page.evaluate("[...document.querySelectorAll('figure[data-chart=stage-times] rect.candidate')]"
        + ".map(e => +e.dataset.value)");
    JsonNode baseBars = page.evaluate("[...document.querySelectorAll('figure[data-chart=stage-times] rect.baseline')]"
        + ".map(e => +e.dataset.value)");
    assertThat(cand).extracting(JsonNode::asLong).containsExactlyInAnyOrderElementsOf(wallTimes(app));
    assertThat(baseBars).extracting(JsonNode::asLong).containsExactlyInAnyOrderElementsOf(wallTimes(b));
    JsonNode rows = page.evaluate("[...document.querySelectorAll('[data-config-diff] tbody tr')]"
        + ".map(tr => [...tr.cells].map(c => c.textContent))");
    JsonNode changed = f.label().path("evidence").path("changedSettings");
    assertThat(rows.size()).isEqualTo(changed.size());
    for (var it = changed.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      assertThat(rows).as(e.getKey()).anySatisfy(row -> {
        assertThat(row.get(0).asText()).isEqualTo(e.getKey());
        assertThat(row.get(1).asText()).isEqualTo(e.getValue().get(0).isNull() ? "unset" : e.getValue().get(0).asText());
        assertThat(row.get(2).asText()).isEqualTo(e.getValue().get(1).asText());
        assertThat(row.get(5).asText()).as("linked to the stage it shows in").isNotBlank();
      });
    }
  }

  private static List<Long> wallTimes(SparkApplication app) {
    List<Long> out = new ArrayList<>();
    for (StageData s : app.stages(StageQuery.all())) {
      if (s.status() == StageStatus.COMPLETE && s.submissionTime().isPresent() && s.completionTime().isPresent()) {
        out.add(s.completionTime().get().toEpochMilli() - s.submissionTime().get().toEpochMilli());
      }
    }
    return out;
  }

  private static void checkHistogram(HeadlessChromium.Page page, SparkApplication app, int stageId) throws IOException {
    StageData s = app.stages(StageQuery.all()).stream().filter(x -> x.stageId() == stageId
        && x.status() != StageStatus.SKIPPED).reduce((a, b) -> b).orElseThrow();
    List<Long> durations = app.tasks(s.stageId(), s.attemptId(), TaskQuery.all()).stream()
        .filter(t -> "SUCCESS".equals(t.status())).map(TaskData::duration).flatMap(Optional::stream).sorted().toList();
    // The first task histogram is this run's (a comparison page shows the baseline's after it).
    String fig = "document.querySelector('figure[data-chart=task-durations]')";
    JsonNode bins = page.evaluate("[..." + fig + ".querySelectorAll('rect.bin')].map(e => +e.dataset.value)");
    long counted = 0;
    for (JsonNode n : bins) {
      counted += n.asLong();
    }
    assertThat(counted).as("tasks in the histogram").isEqualTo(durations.size());
    assertThat(page.evaluate("+" + fig + ".querySelector('g.median').dataset.value").asLong())
        .as("median").isEqualTo(durations.get((durations.size() - 1) / 2));
    assertThat(page.evaluate("+" + fig + ".querySelector('g.straggler').dataset.value").asLong())
        .as("slowest task").isEqualTo(durations.get(durations.size() - 1));
  }

  private static Path locate(String relative) {
    for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve(relative)) && Files.exists(p.resolve("pom.xml"))) {
        return p.resolve(relative);
      }
    }
    return Path.of(relative);
  }
}
