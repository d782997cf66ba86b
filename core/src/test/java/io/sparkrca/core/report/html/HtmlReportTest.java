package io.sparkrca.core.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.report.Culprit;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.report.Report;
import io.sparkrca.core.report.RootCause;
import io.sparkrca.core.report.RootCauseKind;
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
    RcaReport r = new RcaReport(
        new ApplicationRef("app-1", hostile, Optional.empty(), "3.5.9", "me", "/logs/app-1", "event-log", "local[2]",
            Optional.empty(), Optional.empty(), Optional.empty(), ApplicationRef.Outcome.FAILED),
        Verdict.PROBLEM,
        new RootCause(RootCauseKind.DRIVER_FAILURE, hostile, Confidence.LEADING_HYPOTHESIS, hostile, Culprit.none(),
            Optional.empty(), List.of(), List.of(), List.of(), Optional.empty(), Optional.empty()),
        List.of(), List.of(), List.of(), List.of(), List.of(), List.of(hostile));
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

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) {
      n++;
    }
    return n;
  }
}
