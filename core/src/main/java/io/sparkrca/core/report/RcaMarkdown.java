package io.sparkrca.core.report;

import io.sparkrca.core.format.Formats;
import static io.sparkrca.core.report.Markdown.code;
import static io.sparkrca.core.report.Markdown.text;

import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.redaction.Redactor;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * Renders an {@link RcaReport} as Markdown, following the RCA report template of the Spark
 * troubleshooting playbooks (rca_report_template.md): header, executive summary, evidence gathered
 * (logs, stage and telemetry metrics, code), root-cause analysis, remediation plan, then what was
 * missing and every finding. Input text is redacted, escaped and capped.
 */
final class RcaMarkdown {
  /** The sections, in the order the report shows them. */
  private static final List<BiConsumer<StringBuilder, RcaReport>> SECTIONS = List.of(
      RcaMarkdown::header,
      RcaMarkdown::executiveSummary,
      RcaMarkdown::logDiagnostics,
      RcaMarkdown::stageMetrics,
      RcaMarkdown::codeContext,
      RcaMarkdown::analysis,
      RcaMarkdown::remediation,
      RcaMarkdown::missingEvidence,
      RcaMarkdown::findings,
      RcaMarkdown::timeline,
      RcaMarkdown::notes);

  private static final int MAX_FINDINGS = 50;
  private static final int MAX_TIMELINE = 60;

  private RcaMarkdown() {}

  static String render(RcaReport r) {
    StringBuilder out = new StringBuilder(8192);
    SECTIONS.forEach(section -> section.accept(out, r));
    return out.toString();
  }

  /** The title and the application's identity, status and verdict. */
  private static void header(StringBuilder out, RcaReport r) {
    ApplicationRef a = r.application();
    RootCause rc = r.rootCause();
    String what = switch (rc.kind().category()) {
      case HEALTHY -> "Health Check";
      case UNDETERMINED -> a.outcome() == ApplicationRef.Outcome.FAILED ? "Failure" : "Investigation";
      case FAILURE -> a.outcome() == ApplicationRef.Outcome.FAILED ? "Failure" : "Failure (recovered)";
      case PERFORMANCE -> "Performance";
      case COMPARISON -> "Comparison with a Baseline";
    };
    out.append("### Root Cause Analysis (RCA): ").append(text(a.id().isEmpty() ? "unknown application" : a.id(), 200))
        .append(' ').append(what).append("\n\n");
    bullet(out, "Workload Type", "Spark application" + (a.master().isEmpty() ? "" : " (" + text(a.master(), 100) + ")"));
    bullet(out, "Target ID", code(a.id()) + (a.name().isEmpty() ? "" : " " + text(a.name(), 200))
        + a.attemptId().map(x -> ", attempt " + text(x, 40)).orElse(""));
    bullet(out, "Source", code(a.source(), 300) + " (" + text(a.provider(), 40) + ")");
    if (!a.sparkVersion().isEmpty()) {
      bullet(out, "Spark Version", code(a.sparkVersion()));
    }
    bullet(out, "Execution Timestamp", a.startTime().map(t -> code(t.toString())).orElse("unknown")
        + a.durationMs().map(d -> ", ran " + Formats.humanMillis(d)).orElse(""));
    bullet(out, "Status", a.outcome().name());
    bullet(out, "Verdict", "**" + r.verdict().name() + "**: " + code(rc.kind().name()) + " ("
        + rc.confidence().name().replace('_', ' ').toLowerCase(java.util.Locale.ROOT) + ")");
    out.append('\n');
  }

  /** Section 1: the root cause in a few sentences. */
  private static void executiveSummary(StringBuilder out, RcaReport r) {
    RootCause rc = r.rootCause();
    out.append("### 1. Executive Summary\n\n");
    out.append("**").append(text(rc.title(), 300)).append("**");
    if (!rc.culprit().describe().isEmpty()) {
      out.append(" (").append(text(rc.culprit().describe(), 300)).append(")");
    }
    out.append(". Confidence: **").append(rc.confidence().name().replace('_', ' ')).append("**.\n\n");
    out.append(text(rc.explanation(), 4000)).append("\n\n");
    rc.toConfirm().ifPresent(c -> out.append("To confirm: ").append(text(c, 1000)).append("\n\n"));
  }

  /** Section 2 A: the log records that support the root cause. */
  private static void logDiagnostics(StringBuilder out, RcaReport r) {
    RootCause rc = r.rootCause();
    out.append("### 2. Evidence Gathered\n\n");
    out.append("#### A. Log Diagnostics\n\n");
    List<EvidenceRef> logRefs = rc.evidenceFor().stream()
        .filter(e -> e.kind() == EvidenceRef.Kind.LOG || e.kind() == EvidenceRef.Kind.EVENT_LOG
            || e.kind() == EvidenceRef.Kind.CLUSTER)
        .toList();
    if (logRefs.isEmpty()) {
      out.append("- No log record supports the root cause directly.\n\n");
    } else {
      for (EvidenceRef e : logRefs.subList(0, Math.min(8, logRefs.size()))) {
        out.append("- Log Source: ").append(code(e.source() + (e.line() > 0 ? ":" + e.line() : ""), 300)).append('\n');
        if (!e.detail().isEmpty()) {
          out.append("\n").append(Markdown.codeBlock(e.detail(), 40)).append('\n');
        }
      }
    }
  }

  /** Section 2 B: the findings about stages and telemetry, with the time each explains. */
  private static void stageMetrics(StringBuilder out, RcaReport r) {
    out.append("#### B. Stage & Telemetry Metrics\n\n");
    List<Finding> metricFindings = r.findings().stream().filter(f -> !f.metrics().isEmpty() || !f.culprit().stageIds().isEmpty()).toList();
    if (metricFindings.isEmpty()) {
      out.append("- No stage or telemetry finding.\n");
    }
    for (Finding f : metricFindings.subList(0, Math.min(12, metricFindings.size()))) {
      out.append("- ").append(code(f.kind().name())).append(": ").append(text(f.summary(), 600));
      if (f.estimatedCostMs() > 0) {
        out.append(" (explains ~").append(Formats.humanMillis(f.estimatedCostMs()));
        if (f.costShare() > 0) {
          out.append(", ").append(Formats.fixed(100 * f.costShare(), 0)).append("% of the run");
        }
        out.append(")");
      }
      if (f.fallout()) {
        out.append(" [fallout]");
      }
      out.append('\n');
    }
    out.append('\n');
  }

  /** Section 2 C: where in the code, when known. */
  private static void codeContext(StringBuilder out, RcaReport r) {
    RootCause rc = r.rootCause();
    out.append("#### C. Code Context (Source of Truth)\n\n");
    List<EvidenceRef> codeRefs = r.findings().stream().flatMap(f -> f.evidence().stream())
        .filter(e -> e.kind() == EvidenceRef.Kind.CODE).distinct().toList();
    if (rc.codeLocation().isEmpty() && codeRefs.isEmpty()) {
      boolean noCode = r.missingEvidence().stream().anyMatch(m -> m.what().equals(EvidenceKind.CODE.displayName()));
      out.append("- No code location known").append(noCode ? " (no code was given)" : "").append(".\n\n");
    } else {
      rc.codeLocation().ifPresent(c -> out.append("- Failing Line: ").append(code(c, 300)).append('\n'));
      for (EvidenceRef e : codeRefs.subList(0, Math.min(10, codeRefs.size()))) {
        out.append("- ").append(code(e.source() + (e.line() > 0 ? ":" + e.line() : ""), 300)).append(": ")
            .append(text(e.detail(), 500)).append('\n');
      }
      out.append('\n');
    }
  }

  /** Section 3: the failure chain, the evidence for and against, and the alternatives rejected. */
  private static void analysis(StringBuilder out, RcaReport r) {
    RootCause rc = r.rootCause();
    out.append("### 3. Root Cause Analysis\n\n");
    if (!r.failureChain().isEmpty()) {
      out.append("Failure chain (the earliest failure that explains the rest first):\n\n");
      for (ChainLink l : r.failureChain()) {
        out.append(l.step()).append(". ").append(l.time().map(t -> code(t.toString()) + " ").orElse(""))
            .append("**").append(l.role().name().replace('_', ' ').toLowerCase(java.util.Locale.ROOT)).append("**: ")
            .append(text(l.event(), 600))
            .append(l.evidence().map(e -> " (" + code(e.source() + (e.line() > 0 ? ":" + e.line() : ""), 200) + ")").orElse(""))
            .append('\n');
      }
      out.append('\n');
    }
    if (!rc.evidenceFor().isEmpty()) {
      out.append("Evidence for:\n\n");
      rc.evidenceFor().forEach(e -> out.append("- ").append(ref(e)).append('\n'));
      out.append('\n');
    }
    if (!rc.evidenceAgainst().isEmpty()) {
      out.append("Evidence against:\n\n");
      rc.evidenceAgainst().forEach(e -> out.append("- ").append(ref(e)).append('\n'));
      out.append('\n');
    }
    if (!rc.alternatives().isEmpty()) {
      out.append("Alternatives considered and rejected:\n\n");
      for (Alternative alt : rc.alternatives()) {
        out.append("- ").append(code(alt.kind().name())).append(" (").append(text(alt.title(), 200)).append("): ")
            .append(text(alt.whyRejected(), 600)).append('\n');
      }
      out.append('\n');
    }
  }

  /** Section 4: the immediate fix, then tuning, then every property change at once. */
  private static void remediation(StringBuilder out, RcaReport r) {
    out.append("### 4. Remediation Plan\n\n");
    out.append("#### Immediate Fix\n\n");
    List<Recommendation> fixes = r.recommendations().stream()
        .filter(x -> x.priority() == Recommendation.Priority.IMMEDIATE_FIX).toList();
    if (fixes.isEmpty()) {
      out.append("- None needed.\n");
    }
    fixes.forEach(x -> recommendation(out, x));
    out.append('\n');
    out.append("#### Spark Tuning Recommendations\n\n");
    List<Recommendation> tuning = r.recommendations().stream()
        .filter(x -> x.priority() != Recommendation.Priority.IMMEDIATE_FIX).toList();
    if (tuning.isEmpty()) {
      out.append("- None.\n");
    }
    tuning.forEach(x -> recommendation(out, x));
    String props = r.recommendations().stream().flatMap(x -> x.properties().stream())
        .map(p -> p.property() + "=" + Redactor.standard().redactProperty(p.property(), p.recommended()))
        .distinct().collect(Collectors.joining(","));
    if (!props.isEmpty()) {
      out.append("\nAll property changes at once:\n\n").append(Markdown.codeBlock("--properties " + props, 3));
    }
    out.append('\n');
  }

  /** Section 5: what was missing, why it matters and how to get it. */
  private static void missingEvidence(StringBuilder out, RcaReport r) {
    out.append("### 5. Missing Evidence\n\n");
    if (r.missingEvidence().isEmpty()) {
      out.append("- None: every piece of evidence that matters was collected.\n");
    }
    for (MissingEvidence m : r.missingEvidence()) {
      out.append("- **").append(text(m.what(), 200)).append("**: ")
          .append(m.reason().name().replace('_', ' ').toLowerCase(java.util.Locale.ROOT))
          .append(m.detail().isEmpty() ? "" : " (" + text(m.detail(), 400) + ")").append(".\n")
          .append("  - Why it matters: ").append(text(m.whyItMatters(), 600)).append('\n')
          .append("  - How to get it: ").append(text(m.howToGet(), 600)).append('\n');
    }
    out.append('\n');
  }

  /** Section 6: every finding, ranked, as a table. */
  private static void findings(StringBuilder out, RcaReport r) {
    out.append("### 6. All Findings (ranked)\n\n");
    if (r.findings().isEmpty()) {
      out.append("- None.\n");
    } else {
      out.append("| # | Kind | Severity | Concerns | Summary | Time explained |\n|---|---|---|---|---|---|\n");
      for (Finding f : r.findings().subList(0, Math.min(MAX_FINDINGS, r.findings().size()))) {
        out.append("| ").append(f.id()).append(" | ").append(f.kind().name()).append(f.fallout() ? " (fallout)" : "")
            .append(" | ").append(f.severity().name()).append(" | ").append(cell(f.culprit().describe()))
            .append(" | ").append(cell(f.summary())).append(" | ")
            .append(f.estimatedCostMs() > 0 ? Formats.humanMillis(f.estimatedCostMs()) : "").append(" |\n");
      }
      if (r.findings().size() > MAX_FINDINGS) {
        out.append("\n(").append(r.findings().size() - MAX_FINDINGS).append(" more findings in the JSON report)\n");
      }
    }
    out.append('\n');
  }

  /** Section 7: the timeline, when there is one. */
  private static void timeline(StringBuilder out, RcaReport r) {
    if (!r.timeline().isEmpty()) {
      out.append("### 7. Timeline\n\n");
      for (TimelineEvent t : r.timeline().subList(0, Math.min(MAX_TIMELINE, r.timeline().size()))) {
        out.append("- ").append(code(t.time().toString())).append(t.approximate() ? " (~)" : "").append(" ")
            .append(text(t.source(), 80)).append(": ").append(text(t.event(), 400)).append('\n');
      }
      if (r.timeline().size() > MAX_TIMELINE) {
        out.append("- ... ").append(r.timeline().size() - MAX_TIMELINE).append(" more events in the JSON report\n");
      }
      if (r.timeline().stream().anyMatch(TimelineEvent::approximate)) {
        out.append("\n(~) placed by assuming the driver's time zone: the log line carries none.\n");
      }
      out.append('\n');
    }
  }

  /** The notes, when there are any. */
  private static void notes(StringBuilder out, RcaReport r) {
    if (!r.notes().isEmpty()) {
      out.append("### Notes\n\n");
      r.notes().forEach(n -> out.append("- ").append(text(n, 800)).append('\n'));
    }
  }

  private static void recommendation(StringBuilder out, Recommendation x) {
    out.append("- ").append(text(x.action(), 800));
    if (!x.rationale().isEmpty()) {
      out.append(" Why: ").append(text(x.rationale(), 800));
    }
    out.append('\n');
    for (PropertyChange p : x.properties()) {
      out.append("  - ").append(code(p.property() + "=" + Redactor.standard()
          .redactProperty(p.property(), p.recommended()), 300))
          .append(p.current().map(c -> " (now " + code(Redactor.standard()
              .redactProperty(p.property(), c), 200) + ")").orElse("")).append('\n');
    }
  }

  private static String ref(EvidenceRef e) {
    return e.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " "
        + code(e.source() + (e.line() > 0 ? ":" + e.line() : ""), 300)
        + (e.detail().isEmpty() ? "" : ": " + code(e.detail(), 400));
  }

  private static String cell(String s) {
    return text(s, 300);
  }

  private static void bullet(StringBuilder out, String label, String value) {
    out.append("- **").append(label).append("**: ").append(value).append('\n');
  }
}
