package io.sparkrca.benchmarks.rca;

import io.sparkrca.benchmarks.replay.Measure;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.core.summary.ApplicationSummary;
import io.sparkrca.analysis.rca.RcaEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The HTML reports of one event log, as {@code sparkrca rca --format html} and {@code sparkrca
 * summarize --format html} make them: the evidence collected and analysed, then the RCA page and
 * the summary page rendered. With {@code sparkrca.bench.rcaHtml} and {@code
 * sparkrca.bench.summaryHtml} set, the pages are written there for the browser timing. A workload
 * of {@link Measure}.
 */
public final class HtmlWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    Phases p = new Phases();
    Evidence evidence = EvidenceCollector.builder().application(file).build().collect();
    p.mark("collect");
    RcaReport report = RcaEngine.standard().analyze(evidence);
    p.mark("analyze");
    String rcaHtml = report.toHtml();
    p.mark("rcaHtml");
    ApplicationSummary summary = ApplicationSummary.of(evidence.app().orElseThrow(), file);
    String summaryHtml = summary.toHtml();
    p.mark("summaryHtml");
    write(rcaHtml, "sparkrca.bench.rcaHtml");
    write(summaryHtml, "sparkrca.bench.summaryHtml");
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "html");
      m.putAll(p.facts());
      m.put("rootCause", report.rootCause().kind().name());
      m.put("rcaHtmlBytes", rcaHtml.getBytes(StandardCharsets.UTF_8).length);
      m.put("summaryHtmlBytes", summaryHtml.getBytes(StandardCharsets.UTF_8).length);
      m.put("appId", evidence.app().map(a -> a.info().id()).orElse(""));
      return m;
    };
  }

  /** Writes {@code html} to the file the system property {@code property} names, if it is set. */
  static void write(String html, String property) {
    String to = System.getProperty(property);
    if (to == null) {
      return;
    }
    try {
      Files.writeString(Path.of(to), html, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
