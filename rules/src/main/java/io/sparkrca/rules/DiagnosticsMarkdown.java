package io.sparkrca.rules;

import io.sparkrca.core.report.Severity;
import java.util.Optional;

/** Writes {@link StageDiagnostics} as the Markdown report (spark_stage_diagnostics.py's), escaped. */
final class DiagnosticsMarkdown {
  private DiagnosticsMarkdown() {}

  static String render(StageDiagnostics d) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Spark Stage Diagnostics Report\n\n");
    d.applicationId().ifPresent(id -> sb.append("- **Spark Application**: ").append(code(id)).append('\n'));
    sb.append("- **Status**: ").append(d.status().name()).append('\n');
    if (d.status() == DiagnosticStatus.ERROR) {
      sb.append("- **Error**: ").append(escape(d.errorMessage().orElse(""))).append("\n\n");
      warnings(sb, d);
      sb.append("### Result: The application data could not be read, so no rule was evaluated."
          + " This is NOT a clean bill of health.\n");
      return sb.toString();
    }
    sb.append("- **Rules Evaluated**: ").append(d.rulesEvaluated());
    if (d.rulesSkipped() > 0) {
      sb.append(" (").append(d.rulesSkipped()).append(" skipped, see Warnings)");
    }
    sb.append('\n');
    sb.append("- **Total Stages Analyzed**: ").append(d.stagesAnalyzed()).append('\n');
    sb.append("- **Total Diagnostic Violations Detected**: ").append(d.violations().size()).append('\n');
    d.summary()
        .ifPresent(
            s -> {
              sb.append("- **Tasks**: ").append(s.completedTasks()).append(" completed, ")
                  .append(s.failedTasks()).append(" failed, ")
                  .append(s.killedTasks()).append(" killed, ")
                  .append(s.activeTasks()).append(" active\n");
              // Executor run time, not the executors' total duration: that one counts the
              // driver's uptime, so it is no task time.
              sb.append("- **Executor Run Time** (summed over every stage attempt): ")
                  .append(CelHelpers.humanMillis(s.executorRunTimeMs()))
                  .append("; **JVM GC Time**: ").append(CelHelpers.humanMillis(s.jvmGcTimeMs()))
                  .append(" (").append(io.sparkrca.core.format.Formats.percent(s.jvmGcTimeMs(), s.executorRunTimeMs()))
                  .append(" of executor run time)")
                  .append("; **Input**: ").append(CelHelpers.humanBytes(s.totalInputBytes())).append('\n');
            });
    sb.append('\n');
    warnings(sb, d);
    if (d.violations().isEmpty()) {
      if (d.stagesAnalyzed() == 0) {
        sb.append("### Result: No stage telemetry was available. This is NOT a clean bill of health"
            + " -- verify the application and confirm it has started executing stages.\n");
      } else {
        sb.append("### Result: None of the supplied rules matched. Note that this only means the"
            + " rules you provided did not fire; it is not a guarantee that the job is healthy.");
        if (d.rulesSkipped() > 0) {
          sb.append(" ").append(d.rulesSkipped()).append(d.rulesSkipped() == 1 ? " rule was" : " rules were")
              .append(" skipped (see Warnings) and could not match.");
        }
        sb.append('\n');
      }
      return sb.toString();
    }
    sb.append("### Diagnostic Rule Violations Summary\n\n");
    for (Violation v : d.violations()) {
      sb.append("#### [").append(escape(v.ruleId())).append("] ").append(escape(v.description())).append('\n');
      sb.append("- **Severity**: ").append(v.severity().name()).append('\n');
      sb.append("- **Remediation / Recommendation**: ").append(escape(v.remediation())).append('\n');
      if (v.scope() == Scope.APPLICATION) {
        sb.append("- **Application-level finding**: ")
            .append(escape(v.detail().orElse(StageRuleEngine.FALLBACK_DETAIL))).append('\n');
      } else {
        sb.append("- **Violating Stages**:\n");
        for (StageFinding f : v.stages()) {
          sb.append("  - **Stage ").append(f.stageId());
          if (f.stageAttemptId() > 0) {
            sb.append(" (attempt ").append(f.stageAttemptId()).append(')');
          }
          sb.append("**: ").append(escape(f.detail())).append('\n');
        }
      }
      sb.append('\n');
    }
    if (!d.stageMetrics().isEmpty()) {
      sb.append("### Violating Stage Metrics\n\n");
      sb.append("| Stage | Tasks (killed) | Run time | GC | Input | Shuffle R/W | Output |"
          + " Spill mem/disk | Task duration p50 / max |\n");
      sb.append("|---|---|---|---|---|---|---|---|---|\n");
      for (ViolatingStage s : d.stageMetrics()) {
        ViolatingStage.Metrics m = s.stageMetrics();
        Optional<ViolatingStage.Quantile> dur = s.taskQuantiles().flatMap(ViolatingStage.TaskQuantiles::durationMillis);
        sb.append("| ").append(s.stageId());
        if (s.stageAttemptId() > 0) {
          sb.append(" (attempt ").append(s.stageAttemptId()).append(')');
        }
        sb.append(" | ").append(s.numTasks()).append(" (").append(s.numKilledTasks()).append(") | ")
            .append(CelHelpers.humanMillis(m.executorRunTimeMillis())).append(" | ")
            .append(CelHelpers.humanMillis(m.jvmGcTimeMillis())).append(" | ")
            .append(CelHelpers.humanBytes(m.inputBytesRead())).append(" | ")
            .append(CelHelpers.humanBytes(m.shuffleReadBytesRead())).append(" / ")
            .append(CelHelpers.humanBytes(m.shuffleWriteBytesWritten())).append(" | ")
            .append(CelHelpers.humanBytes(m.outputBytesWritten())).append(" | ")
            .append(CelHelpers.humanBytes(m.memoryBytesSpilled())).append(" / ")
            .append(CelHelpers.humanBytes(m.diskBytesSpilled())).append(" | ")
            .append(dur.map(q -> CelHelpers.humanMillis(q.percentile50())).orElse("n/a")).append(" / ")
            .append(dur.map(q -> CelHelpers.humanMillis(q.maximum())).orElse("n/a")).append(" |\n");
      }
    }
    return sb.toString();
  }

  private static void warnings(StringBuilder sb, StageDiagnostics d) {
    if (d.warnings().isEmpty()) {
      return;
    }
    sb.append("### Warnings\n\n");
    for (String w : d.warnings()) {
      sb.append("- ").append(escape(w)).append('\n');
    }
    sb.append('\n');
  }

  private static String code(String s) {
    String t = s.replace('\n', ' ').replace('\r', ' ');
    return t.contains("`") ? "`` " + t + " ``" : "`" + t + "`";
  }

  /**
   * Escapes text from rules, logs and the application so that it cannot add Markdown structure:
   * backslash, backtick, asterisk, brackets, angle brackets and pipes are escaped, and line
   * breaks become spaces.
   */
  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\', '`', '*', '[', ']', '<', '>', '|' -> sb.append('\\').append(c);
        case '\n', '\r' -> sb.append(' ');
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }
}
