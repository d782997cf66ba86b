package io.sparkrca.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Report;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The HTML pages and charts: self-contained, redacted, escaped, and bounded for any application size. */
class HtmlReportTest {

  @Test
  void aTimelineOfTenThousandStagesDrawsHowManyRanAtOnceAndTheLongestNotTenThousandBars() {
    List<RunProfile.Span> stages = new ArrayList<>();
    long t0 = 1_700_000_000_000L;
    for (int i = 0; i < 10_000; i++) {
      long start = t0 + i * 100L;
      stages.add(new RunProfile.Span("stage " + i + ".0", "map at Job.scala:" + i, start, start + 150 + (i % 97) * 10,
          "COMPLETE", 8, 1000));
    }
    RunProfile p = new RunProfile("app-big", t0, t0 + 1_002_000, List.of(), stages, 10_000, List.of(), List.of(),
        List.of(), List.of());
    String svg = Charts.timeline(p, List.of());
    assertThat(count(svg, "class=\"bar span\"")).as("individual stage bars").isEqualTo(Charts.MAX_ROWS / 2);
    assertThat(svg).contains("class=\"concurrency\"").contains("10000 stage attempts")
        .contains("drawn as how many ran at once");
    assertThat(count(svg, "<rect")).as("marks in all").isLessThan(Charts.BUCKETS + Charts.MAX_ROWS + 10);
    assertThat(svg.length()).as("bytes of the chart").isLessThan(200_000);
    // The data table is capped and says how much it left out, or lists what is drawn.
    assertThat(count(svg, "<tr>")).isLessThanOrEqualTo(Charts.MAX_TABLE_ROWS + 2);
    // The peak concurrency is exact: spans overlap by at most two at a time here.
    Matcher m = Pattern.compile("class=\"concurrency\" data-label=\"[^\"]*\" data-value=\"(\\d+)\"").matcher(svg);
    assertThat(m.find()).isTrue();
    assertThat(Integer.parseInt(m.group(1))).isBetween(2, 12);
  }

  @Test
  void barChartsKeepTheLargestValuesAndSayHowManyTheyLeftOut() {
    List<Charts.Bar> bars = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      bars.add(new Charts.Bar("executor " + i, i));
    }
    String svg = Charts.bars("GC", "executor-gc", bars, "count");
    assertThat(count(svg, "class=\"bar\"")).isEqualTo(Charts.MAX_ROWS);
    assertThat(svg).contains("data-value=\"499\"").doesNotContain("data-value=\"10\"")
        .contains("440 smaller ones not drawn");
  }

  @Test
  void secretsAndMarkupInReportTextAreRedactedAndEscapedInHtml() {
    String hostile = "<script>alert(1)</script> jdbc:postgresql://admin:hunter2@db:5432/x password=hunter2";
    RcaReport r = RcaReport.builder(
        new ApplicationRef("app-1", hostile, Optional.empty(), "3.5.9", "me", "/logs/app-1", "event-log", "local[2]",
            Optional.empty(), Optional.empty(), Optional.empty(), ApplicationRef.Outcome.FAILED),
        Verdict.PROBLEM,
        RootCause.builder(RootCauseKind.DRIVER_FAILURE, Confidence.LEADING_HYPOTHESIS).title(hostile).explanation(hostile)
            .culprit(Culprit.none()).build())
        .notes(List.of(hostile))
        .build();
    String html = r.toHtml();
    assertThat(html).doesNotContain("hunter2").doesNotContain("<script>").contains("&lt;script&gt;");
    assertThat(html).contains("Content-Security-Policy").doesNotContain("http://").doesNotContain("https://");
    // The default HTML of any report is its Markdown, escaped, in one page.
    Report plain = new Report() {
      @Override
      public String toMarkdown() {
        return "## Title\n" + hostile;
      }

      @Override
      public String toJson() {
        return "{}";
      }
    };
    assertThat(plain.toHtml()).startsWith("<!DOCTYPE html>").contains("<title>Title</title>")
        .doesNotContain("hunter2").doesNotContain("<script>");
  }

  @Test
  void theSummaryPageOfARealRunChartsItsLongestStage() {
    org.junit.jupiter.api.Assumptions.assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent");
    TestkitFixtures.Fixture f = TestkitFixtures.get("3.5.9", "skew-join");
    var app = EventLogs.replay(f.eventLog());
    ApplicationSummary s = ApplicationSummary.of(app, f.eventLog().toString());
    String html = s.toHtml();
    assertThat(html).contains("data-chart=\"timeline\"").contains("data-chart=\"task-durations\"")
        .contains("data-chart=\"executor-gc\"");
    assertThat(s.toJson()).as("the profile is not in the JSON").doesNotContain("profile");
    int longest = RunProfile.longestStage(app).get(0);
    assertThat(s.profile().orElseThrow().distributions()).singleElement().satisfies(d ->
        assertThat(d.stageId()).isEqualTo(longest));
    assertThat(html.getBytes(StandardCharsets.UTF_8).length).isLessThan(300_000);
  }

  @Test
  void inLocalModeTheGcChartReadsTheDriverAsTheExecutorItIs() {
    org.junit.jupiter.api.Assumptions.assumeTrue(TestkitFixtures.root().isPresent(), "testkit/fixtures is absent");
    // A run that spent 43% of its task time in GC, in local mode: Spark's summary of the driver says 0 GC.
    var app = EventLogs.replay(TestkitFixtures.get("3.5.9", "gc-pressure").eventLog());
    assertThat(app.executors(false)).singleElement().satisfies(e -> assertThat(e.totalGCTime()).isZero());
    RunProfile p = RunProfile.of(app, RunProfile.longestStage(app));
    long gc = app.stages(io.sparkrca.core.app.StageQuery.all().withoutSummaries()).stream()
        .mapToLong(io.sparkrca.core.model.StageData::jvmGcTime).sum();
    assertThat(p.executorLoad()).singleElement().satisfies(e -> {
      assertThat(e.id()).isEqualTo("driver");
      assertThat(e.gcTimeMs()).isEqualTo(gc).isPositive();
      assertThat(e.gcShare()).isBetween(0.3, 0.6);
    });
  }

  @Test
  void aHistogramNamesItsAxes() {
    RunProfile.Histogram h = new RunProfile.Histogram("ms", List.of(0L, 10L, 20L), List.of(3L, 1L));
    String svg = Charts.histogram("Task durations of stage 0.0", "task-durations", h, 0, 20, "slowest: task 3");
    assertThat(svg).contains(">task duration</text>").contains(">tasks</text>")
        .as("a median of 0 is drawn and no ratio over it is said").contains("median 0 ms").doesNotContain("Infinity");
    assertThat(svg).contains("4 tasks from 0 ms to 20 ms");
  }

  @Test
  void aLongTableShowsItsFirstRowsAndFoldsTheRestSayingHowManyWithoutLosingARow() {
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(List.of("row-" + i, Integer.toString(i)));
    }
    String html = pageBody(HtmlPage.titled("t").table("caption", List.of("what", "n"), rows, 1));
    String shown = outsideDetails(html);
    assertThat(count(shown, "<tr>")).as("header and shown rows").isEqualTo(1 + HtmlPage.SHOWN_ROWS);
    assertThat(shown).contains("row-0<").contains("row-" + (HtmlPage.SHOWN_ROWS - 1) + "<")
        .doesNotContain("row-" + HtmlPage.SHOWN_ROWS + "<");
    assertThat(html).contains("<summary>The other 40 of 50 rows</summary>");
    for (int i = 0; i < 50; i++) {
      assertThat(html).contains(">row-" + i + "<");
    }
    // A row or two past the shown ones are not worth a fold.
    String short12 = pageBody(HtmlPage.titled("t").table("", List.of("what"), rows.subList(0, HtmlPage.SHOWN_ROWS + 2)
        .stream().map(r -> List.of(r.get(0))).toList()));
    assertThat(short12).doesNotContain("<details");
    // Lists fold the same way.
    List<String> items = rows.stream().map(r -> "item " + r.get(0)).toList();
    String list = pageBody(HtmlPage.titled("t").list(items));
    assertThat(count(outsideDetails(list), "<li>")).isEqualTo(HtmlPage.SHOWN_ROWS);
    assertThat(list).contains("<summary>The other 40 of 50 items</summary>").contains("item row-49");
  }

  @Test
  void aLongCellShowsItsStartAndKeepsAllItsTextInThePageFolded() {
    String ids = LargeReport.stageList(0, 600);
    String cell = HtmlPage.clipped("Spill to disk in stages " + ids);
    assertThat(cell).startsWith("<details class=\"clip\"><summary data-more=\"");
    Matcher m = Pattern.compile("<details class=\"clip\"><summary data-more=\"([\\d,]+) more characters\">([^<]*)</summary>([^<]*)</details>")
        .matcher(cell);
    assertThat(m.matches()).as(cell).isTrue();
    assertThat(m.group(2)).startsWith("Spill to disk in stages 0, 1, 2").hasSizeLessThanOrEqualTo(HtmlPage.SHOWN_CHARS);
    assertThat(m.group(2) + m.group(3)).as("the shown and the folded parts are the whole text")
        .isEqualTo("Spill to disk in stages " + ids);
    assertThat(Integer.parseInt(m.group(1).replace(",", ""))).isEqualTo(m.group(3).length());
    // Short text, and text barely longer than what is shown, stay as they are (escaped).
    assertThat(HtmlPage.clipped("a < b")).isEqualTo("a &lt; b");
    String near = "x".repeat(HtmlPage.SHOWN_CHARS + 10);
    assertThat(HtmlPage.clipped(near)).isEqualTo(near);
  }

  @Test
  void theRcaPageOfAMillionTaskSizedReportDrawsABoundedNumberOfMarksAndShowsBoundedRows() {
    RcaReport r = LargeReport.report();
    String html = r.toHtml();
    // Every SVG element, across all charts: the timeline aggregates 10,000 stages, the bar charts
    // draw at most MAX_ROWS of the 200 executors, each concurrency area is one path.
    int svgElements = 0;
    for (Matcher m = Pattern.compile("(?s)<svg.*?</svg>").matcher(html); m.find(); ) {
      svgElements += count(m.group(), "<") - count(m.group(), "</") - 1;
    }
    assertThat(svgElements).as("SVG elements in the page").isLessThan(1_500);
    assertThat(count(html, "class=\"concurrency\"")).isEqualTo(2);
    assertThat(html.getBytes(StandardCharsets.UTF_8).length).as("bytes").isLessThan(600_000);
    // The paired charts of a stage and of the executors sit side by side, each half wide.
    assertThat(count(html, "<div class=\"pair\">")).as("4 stages of interest and the executors").isEqualTo(5);
    assertThat(html).contains("width=\"" + Charts.HALF_WIDTH + "\"");
    // What is shown before anything is unfolded: few rows, short cells, but every finding and event is in the page.
    String shown = outsideDetails(html);
    assertThat(count(shown, "<tr>")).as("table rows shown").isLessThan(60);
    assertThat(count(shown, "<li>")).as("list items shown").isLessThan(30);
    assertThat(shown).doesNotContain(LargeReport.stageList(0, 300)).doesNotContain(">F11<").contains(">F1<");
    for (int i = 1; i <= LargeReport.FINDINGS; i++) {
      assertThat(html).contains(">F" + i + "<");
    }
    assertThat(html).contains("event 99: job 99 started").contains("chain step 6")
        .contains("The other " + (LargeReport.FINDINGS - HtmlPage.SHOWN_ROWS) + " of " + LargeReport.FINDINGS + " rows");
    String text = html.replaceAll("<[^>]+>", "");
    assertThat(text).as("the whole stage list of the alternative").contains(LargeReport.stageList(0, 600));
  }

  /** The page's body between the title and the end. */
  private static String pageBody(HtmlPage page) {
    String html = page.render();
    return html.substring(html.indexOf("</h1>") + 5, html.indexOf("</body>"));
  }

  /** What {@code html} shows before any {@code <details>} is opened: everything outside them, and their summaries. */
  static String outsideDetails(String html) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    int i = 0;
    while (i < html.length()) {
      if (html.startsWith("<details", i)) {
        depth++;
      } else if (html.startsWith("</details>", i)) {
        depth--;
        i += "</details>".length();
        continue;
      } else if (depth > 0 && html.startsWith("<summary", i)) {
        // A summary shows even when its details is closed (if its own parent is open).
        int end = html.indexOf("</summary>", i);
        if (depth == 1) {
          out.append(html, i, end);
        }
        i = end;
        continue;
      }
      if (depth == 0) {
        out.append(html.charAt(i));
      }
      i++;
    }
    return out.toString();
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
      n++;
    }
    return n;
  }
}
