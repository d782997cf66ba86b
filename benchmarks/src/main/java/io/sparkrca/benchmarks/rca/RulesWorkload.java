package io.sparkrca.benchmarks.rca;

import io.sparkrca.benchmarks.replay.Measure;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.rules.StageDiagnostics;
import io.sparkrca.rules.StageRuleEngine;
import io.sparkrca.rules.StageTelemetry;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code sparkrca rules --recommended <event log>} in process, as the command runs it: the log
 * replayed, the recommended catalog compiled (the command's parallelism: up to 4 threads), the
 * model mapped once to the Dataproc messages rules read ({@code StageTelemetry.from}), the
 * catalog evaluated on them, and the result rendered (Markdown and JSON). A workload of {@link
 * Measure}; the phases' wall and CPU seconds are part of its result, so the mapping is measured on
 * its own beside the replay.
 */
public final class RulesWorkload implements Function<String, Supplier<Map<String, Object>>> {
  @Override
  public Supplier<Map<String, Object>> apply(String file) {
    Phases p = new Phases();
    ReplayedApplication app = EventLogs.replay(Path.of(file));
    p.mark("replay");
    StageRuleEngine engine = StageRuleEngine.builder().recommended()
        .parallelism(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()))).build();
    p.mark("compile");
    StageTelemetry telemetry = StageTelemetry.from(app);
    p.mark("map");
    StageDiagnostics result = engine.evaluate(telemetry);
    p.mark("evaluate");
    String markdown = result.toMarkdown();
    String json = result.toJson();
    p.mark("render");
    return () -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("mode", "rules");
      m.putAll(p.facts());
      m.put("status", result.status().name());
      m.put("rulesMatched", result.violations().size());
      m.put("stagesFlagged", result.stageMetrics().size());
      m.put("warnings", result.warnings().size());
      m.put("telemetryStages", telemetry.stageCount());
      m.put("jsonChars", json.length());
      m.put("markdownChars", markdown.length());
      m.put("appId", app.info().id());
      return m;
    };
  }
}
