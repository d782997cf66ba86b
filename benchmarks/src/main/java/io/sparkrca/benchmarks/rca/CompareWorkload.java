package io.sparkrca.benchmarks.rca;

import io.sparkrca.benchmarks.replay.Measure;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.analysis.compare.Comparison;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code sparkrca compare <candidate> <baseline>} in process, as the command runs it: both event
 * logs replayed at once (the baseline on another thread), compared ({@code Comparison}), and the
 * report rendered as HTML ({@code --format html}; the Markdown and JSON are rendered untimed, for
 * their sizes). The baseline is the
 * system property {@code sparkrca.bench.baseline}, the candidate file itself when it is absent (two
 * full replays of the same log: the work of two logs of that size, every stage matched). With
 * {@code sparkrca.bench.html} set, the HTML is written there for the browser timing. A workload of
 * {@link Measure}.
 */
public final class CompareWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    String baselineFile = System.getProperty("sparkrca.bench.baseline", file);
    Phases p = new Phases();
    CompletableFuture<ReplayedApplication> b = CompletableFuture.supplyAsync(() -> EventLogs.replay(Path.of(baselineFile)));
    ReplayedApplication candidate = EventLogs.replay(Path.of(file));
    ReplayedApplication baseline = b.join();
    p.mark("replay");
    Comparison c = Comparison.builder(candidate, baseline).sources(file, baselineFile).compare();
    p.mark("compare");
    // The command renders one format; the HTML is the largest.
    String html = c.toHtml();
    p.mark("render");
    HtmlWorkload.write(html, "sparkrca.bench.html");
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "compare");
      m.putAll(p.facts());
      m.put("verdict", c.verdict().kind().name());
      m.put("slowdown", c.slowdown());
      m.put("stagePairs", c.stages().size());
      m.put("unmatchedStages", c.unmatchedCandidateStages().size() + c.unmatchedBaselineStages().size());
      m.put("markdownChars", c.toMarkdown().length());
      m.put("jsonChars", c.toJson().length());
      m.put("htmlBytes", html.getBytes(StandardCharsets.UTF_8).length);
      // keep both models reachable until the heap is measured, as the replay workload does
      m.put("appIds", candidate.info().id() + " " + baseline.info().id());
      return m;
    };
  }
}
