package io.sparkrca.benchmarks.rca;

import io.sparkrca.benchmarks.replay.Measure;
import io.sparkrca.core.evidence.Evidence;
import io.sparkrca.core.evidence.EvidenceCollector;
import io.sparkrca.core.report.RcaReport;
import io.sparkrca.analysis.rca.RcaEngine;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code sparkrca rca <event log>} in process, as the command runs it: the evidence collected
 * ({@code EvidenceCollector}: the event log replayed through {@code SparkSources}, the class path's
 * code and cluster providers loaded), analyzed ({@code RcaEngine.standard()}), and the report
 * rendered both ways (JSON and Markdown; the command writes one of them). A workload of {@link
 * Measure}; the phases' wall and CPU seconds are part of its result.
 */
public final class RcaWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    Phases p = new Phases();
    Evidence evidence = EvidenceCollector.builder().application(file).build().collect();
    p.mark("collect");
    RcaReport report = RcaEngine.standard().analyze(evidence);
    p.mark("analyze");
    String json = report.toJson();
    String markdown = report.toMarkdown();
    p.mark("render");
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "rca");
      m.putAll(p.facts());
      m.put("verdict", report.verdict().name());
      m.put("rootCause", report.rootCause().kind().name());
      m.put("rootCauseTitle", report.rootCause().title());
      m.put("findings", report.findings().size());
      m.put("exitCode", report.exitCode());
      m.put("jsonChars", json.length());
      m.put("markdownChars", markdown.length());
      m.put("gaps", evidence.gaps().size());
      m.put("hasApplication", evidence.app().isPresent());
      evidence.app().ifPresent(a -> m.put("stageAttempts", a.stages(io.sparkrca.core.app.StageQuery.all()).size()));
      m.put("notes", String.join(" | ", report.notes()));
      // keep the model reachable until the heap is measured, as the replay workload does
      m.put("appId", evidence.app().map(a -> a.info().id()).orElse(""));
      return m;
    };
  }
}
