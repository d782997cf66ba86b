package io.sparkrca.rules;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/** Writes {@link StageDiagnostics} as the agent's JSON contract (spark_stage_diagnostics.py's output). */
final class DiagnosticsJson {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private DiagnosticsJson() {}

  static String render(StageDiagnostics d, OutputContract contract) {
    ObjectNode root = node(d, contract);
    DefaultPrettyPrinter pp =
        new DefaultPrettyPrinter()
            .withSeparators(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"));
    try {
      return JSON.writer(pp).writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new AssertionError("writing a JSON tree to memory failed", e);
    }
  }

  static ObjectNode node(StageDiagnostics d, OutputContract contract) {
    boolean agent = contract == OutputContract.AGENT;
    ObjectNode root = JSON.createObjectNode();
    if (!(agent && d.status() == DiagnosticStatus.ERROR)) {
      text(root, "applicationId", d.applicationId());
    }
    root.put("status", d.status().name());
    text(root, "errorMessage", d.errorMessage());
    if (!agent && d.status() == DiagnosticStatus.ERROR) {
      // The error shape every sparkrca JSON document shares, beside the agent's errorMessage.
      root.put("exitCode", d.status().exitCode());
      root.putObject("error").put("message", d.errorMessage().orElse("the application could not be read"));
    }
    ArrayNode violations = root.putArray("violations");
    for (Violation v : d.violations()) {
      ObjectNode o = violations.addObject();
      o.put("ruleId", v.ruleId());
      o.put("description", v.description());
      if (!agent) {
        o.put("severity", v.severity().name());
        o.put("scope", v.scope().name().toLowerCase(java.util.Locale.ROOT));
      }
      ArrayNode ids = o.putArray("violatingStageIds");
      v.violatingStageIds().forEach(ids::add);
      o.put("remediation", v.remediation());
      ArrayNode details = o.putArray("details");
      for (StageFinding f : v.stages()) {
        ObjectNode x = details.addObject();
        x.put("stageId", f.stageId());
        if (!agent) {
          x.put("stageAttemptId", f.stageAttemptId());
        }
        x.put("detail", f.detail());
      }
      v.detail().ifPresent(t -> o.put("detail", t));
    }
    ArrayNode metrics = root.putArray("stageMetrics");
    Set<Long> seen = new HashSet<>();
    for (ViolatingStage s : d.stageMetrics()) {
      if (agent && !seen.add(s.stageId())) {
        continue;
      }
      ObjectNode o = metrics.addObject();
      o.put("stageId", s.stageId());
      if (!agent) {
        o.put("stageAttemptId", s.stageAttemptId());
      }
      o.put("numTasks", s.numTasks());
      o.put("numKilledTasks", s.numKilledTasks());
      ViolatingStage.Metrics m = s.stageMetrics();
      ObjectNode sm = o.putObject("stageMetrics");
      sm.put("executorRunTimeMillis", m.executorRunTimeMillis());
      sm.put("jvmGcTimeMillis", m.jvmGcTimeMillis());
      sm.put("memoryBytesSpilled", m.memoryBytesSpilled());
      sm.put("diskBytesSpilled", m.diskBytesSpilled());
      sm.put("shuffleWriteTimeNanos", m.shuffleWriteTimeNanos());
      sm.put("inputBytesRead", m.inputBytesRead());
      sm.put("shuffleReadBytesRead", m.shuffleReadBytesRead());
      sm.put("outputBytesWritten", m.outputBytesWritten());
      sm.put("shuffleWriteBytesWritten", m.shuffleWriteBytesWritten());
      if (s.taskQuantiles().isEmpty()) {
        o.putNull("taskQuantiles");
      } else {
        ViolatingStage.TaskQuantiles q = s.taskQuantiles().get();
        ObjectNode tq = o.putObject("taskQuantiles");
        quantile(tq, "durationMillis", q.durationMillis());
        quantile(tq, "inputBytes", q.inputBytes());
        quantile(tq, "outputBytes", q.outputBytes());
        quantile(tq, "shuffleWriteBytes", q.shuffleWriteBytes());
      }
    }
    if (d.summary().isEmpty()) {
      root.putNull("summary");
    } else {
      DiagnosticsSummary s = d.summary().get();
      ObjectNode o = root.putObject("summary");
      o.put("totalDurationMs", s.totalDurationMs());
      o.put("totalInputBytes", s.totalInputBytes());
      o.put("activeTasks", s.activeTasks());
      o.put("completedTasks", s.completedTasks());
      o.put("failedTasks", s.failedTasks());
      o.put("killedTasks", agent ? s.killedTasksAllAttempts() : s.killedTasks());
      if (!agent) {
        o.put("killedTasksAllAttempts", s.killedTasksAllAttempts());
        o.put("executorRunTimeMs", s.executorRunTimeMs());
        o.put("jvmGcTimeMs", s.jvmGcTimeMs());
      }
    }
    ArrayNode w = root.putArray("warnings");
    d.warnings().forEach(w::add);
    if (!agent) {
      root.put("rulesEvaluated", d.rulesEvaluated());
      root.put("rulesSkipped", d.rulesSkipped());
      root.put("stagesAnalyzed", d.stagesAnalyzed());
    }
    return root;
  }

  private static void quantile(ObjectNode o, String key, Optional<ViolatingStage.Quantile> q) {
    if (q.isEmpty()) {
      o.putNull(key);
      return;
    }
    ObjectNode x = o.putObject(key);
    x.put("minimum", q.get().minimum());
    x.put("percentile50", q.get().percentile50());
    x.put("maximum", q.get().maximum());
    x.put("sum", q.get().sum());
  }

  private static void text(ObjectNode o, String key, Optional<String> v) {
    if (v.isPresent()) {
      o.put(key, v.get());
    } else {
      o.putNull(key);
    }
  }
}
