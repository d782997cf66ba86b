package io.sparkrca.core.report;

import io.sparkrca.core.format.Formats;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.html.Charts;
import io.sparkrca.core.report.html.HtmlPage;
import io.sparkrca.core.report.html.ProfileCharts;
import io.sparkrca.core.report.html.RunProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.Locale;

/**
 * Renders an {@link RcaReport} as one self-contained HTML page: the sections of the Markdown
 * report (verdict, root cause, evidence, failure chain, alternatives, remediation, missing
 * evidence, findings), and, when the report carries a {@link RunProfile}, the charts: the timeline
 * with the failure chain marked, the culprit stage's task durations (and shuffle read per task),
 * and each executor's GC share and spill. Further sections (a comparison with a baseline) follow.
 */
final class RcaHtml {
  /** The sections, in the order the page shows them: the charts and further sections where they belong. */
  private static final List<BiConsumer<HtmlPage, RcaReport>> SECTIONS = List.of(
      RcaHtml::header,
      RcaHtml::rootCause,
      (page, r) -> r.profile().ifPresent(p -> charts(page, r, p)),
      RcaHtml::evidence,
      (page, r) -> r.sections().forEach(s -> s.appendHtml(page)),
      RcaHtml::remediation,
      RcaHtml::missingEvidence,
      RcaHtml::findings,
      RcaHtml::timeline,
      RcaHtml::notes);

  private static final int MAX_FINDINGS = 50;
  private static final int MAX_TIMELINE = 100;

  private RcaHtml() {}

  static String render(RcaReport r) {
    String id = r.application().id();
    HtmlPage page = HtmlPage.titled("Root Cause Analysis: " + (id.isEmpty() ? "unknown application" : id));
    SECTIONS.forEach(section -> section.accept(page, r));
    return page.render();
  }

  /** The verdict and the application's facts. */
  private static void header(HtmlPage page, RcaReport r) {
    ApplicationRef a = r.application();
    RootCause rc = r.rootCause();
    String cls = r.verdict().name().toLowerCase(Locale.ROOT);
    page.raw("<p><span class=\"verdict " + cls + "\" data-verdict=\"" + r.verdict().name() + "\">" + r.verdict().name()
        + "</span> <code data-kind=\"" + rc.kind().name() + "\">" + rc.kind().name() + "</code> <span class=\"muted\">"
        + HtmlPage.text(rc.confidence().name().replace('_', ' ').toLowerCase(Locale.ROOT)) + "</span></p>");
    List<String[]> facts = new ArrayList<>();
    facts.add(new String[] {"Application", a.id() + (a.name().isEmpty() ? "" : " (" + a.name() + ")")
        + a.attemptId().map(x -> ", attempt " + x).orElse("")});
    facts.add(new String[] {"Source", a.source() + " (" + a.provider() + ")"});
    if (!a.sparkVersion().isEmpty()) {
      facts.add(new String[] {"Spark", a.sparkVersion() + (a.master().isEmpty() ? "" : ", master " + a.master())});
    }
    facts.add(new String[] {"Started", a.startTime().map(Object::toString).orElse("unknown")
        + a.durationMs().map(d -> ", ran " + Formats.humanMillis(d)).orElse("")});
    facts.add(new String[] {"Outcome", a.outcome().name()});
    page.facts(facts);
  }

  /** Section 1: the root cause, what it concerns, and how to confirm it. */
  private static void rootCause(HtmlPage page, RcaReport r) {
    RootCause rc = r.rootCause();
    page.heading(2, "1. Root cause: " + rc.title());
    if (!rc.culprit().describe().isEmpty()) {
      page.note(rc.culprit().describe());
    }
    page.paragraph(rc.explanation());
    rc.toConfirm().ifPresent(c -> page.paragraph("To confirm: " + c));
    rc.codeLocation().ifPresent(c -> page.paragraph("Code location: " + c));
  }

  /** Section 2: the evidence for and against, the failure chain, and the alternatives rejected. */
  private static void evidence(HtmlPage page, RcaReport r) {
    RootCause rc = r.rootCause();
    page.heading(2, "2. Evidence");
    if (!rc.evidenceFor().isEmpty()) {
      page.heading(3, "Evidence for");
      page.list(rc.evidenceFor().stream().map(RcaHtml::ref).toList());
      for (EvidenceRef e : rc.evidenceFor()) {
        if (e.kind() == EvidenceRef.Kind.LOG && e.detail().contains("\n")) {
          page.pre(e.detail());
        }
      }
    }
    if (!rc.evidenceAgainst().isEmpty()) {
      page.heading(3, "Evidence against");
      page.list(rc.evidenceAgainst().stream().map(RcaHtml::ref).toList());
    }
    if (!r.failureChain().isEmpty()) {
      page.heading(3, "Failure chain (the earliest failure that explains the rest first)");
      List<String> steps = new ArrayList<>();
      for (ChainLink l : r.failureChain()) {
        steps.add(l.step() + ". " + l.time().map(t -> t + " ").orElse("") + l.role().name().replace('_', ' ')
            .toLowerCase(Locale.ROOT) + ": " + l.event()
            + l.evidence().map(e -> " (" + e.source() + (e.line() > 0 ? ":" + e.line() : "") + ")").orElse(""));
      }
      page.list(steps);
    }
    if (!rc.alternatives().isEmpty()) {
      page.heading(3, "Alternatives considered and rejected");
      page.table("", List.of("kind", "title", "why rejected"), rc.alternatives().stream()
          .map(x -> List.of(x.kind().name(), x.title(), x.whyRejected())).toList());
    }
  }

  /** Section 3: each recommendation with its property changes. */
  private static void remediation(HtmlPage page, RcaReport r) {
    page.heading(2, "3. Remediation plan");
    if (r.recommendations().isEmpty()) {
      page.paragraph("Nothing to change.");
    }
    for (Recommendation x : r.recommendations()) {
      page.raw("<h3>" + HtmlPage.text(x.priority().name().replace('_', ' ').toLowerCase(Locale.ROOT)) + "</h3>");
      page.paragraph(x.action() + (x.rationale().isEmpty() ? "" : " Why: " + x.rationale()));
      if (!x.properties().isEmpty()) {
        page.table("", List.of("property", "set to", "now"), x.properties().stream().map(p -> List.of(p.property(),
            Redactor.standard().redactProperty(p.property(), p.recommended()),
            p.current().map(c -> Redactor.standard().redactProperty(p.property(), c)).orElse(""))).toList());
      }
    }
  }

  /** Section 4: what was missing, why, and how to get it. */
  private static void missingEvidence(HtmlPage page, RcaReport r) {
    page.heading(2, "4. Missing evidence");
    if (r.missingEvidence().isEmpty()) {
      page.paragraph("None: every piece of evidence that matters was collected.");
    } else {
      page.table("", List.of("what", "why missing", "why it matters", "how to get it"), r.missingEvidence().stream()
          .map(m -> List.of(m.what(), m.reason().name().replace('_', ' ').toLowerCase(Locale.ROOT)
              + (m.detail().isEmpty() ? "" : ": " + m.detail()), m.whyItMatters(), m.howToGet())).toList());
    }
  }

  /** Section 5: every finding, ranked. */
  private static void findings(HtmlPage page, RcaReport r) {
    page.heading(2, "5. All findings (ranked)");
    if (r.findings().isEmpty()) {
      page.paragraph("None.");
    } else {
      List<List<String>> rows = new ArrayList<>();
      for (Finding f : r.findings().subList(0, Math.min(MAX_FINDINGS, r.findings().size()))) {
        rows.add(List.of(f.id(), f.kind().name() + (f.fallout() ? " (fallout)" : ""), f.severity().name(),
            f.culprit().describe(), f.summary(), f.estimatedCostMs() > 0 ? Formats.humanMillis(f.estimatedCostMs()) : ""));
      }
      page.table(r.findings().size() > MAX_FINDINGS ? (r.findings().size() - MAX_FINDINGS) + " more in the JSON report"
          : "", List.of("#", "kind", "severity", "concerns", "summary", "time explained"), rows, 5);
    }
  }

  /** Section 6: the timeline, when there is one. */
  private static void timeline(HtmlPage page, RcaReport r) {
    if (!r.timeline().isEmpty()) {
      page.heading(2, "6. Timeline of events");
      List<List<String>> rows = new ArrayList<>();
      for (TimelineEvent t : r.timeline().subList(0, Math.min(MAX_TIMELINE, r.timeline().size()))) {
        rows.add(List.of(t.time() + (t.approximate() ? " (~)" : ""), t.source(), t.event()));
      }
      page.table(r.timeline().size() > MAX_TIMELINE ? (r.timeline().size() - MAX_TIMELINE) + " more in the JSON report"
          : "", List.of("time", "source", "event"), rows);
    }
  }

  /** The notes, when there are any. */
  private static void notes(HtmlPage page, RcaReport r) {
    if (!r.notes().isEmpty()) {
      page.heading(2, "Notes");
      page.list(r.notes());
    }
  }

  /** The charts of one run: timeline (with the failure chain), the stages of interest's tasks, the executors. */
  static void charts(HtmlPage page, RcaReport r, RunProfile p) {
    List<Charts.Marker> markers = new ArrayList<>();
    for (ChainLink l : r.failureChain()) {
      l.time().ifPresent(t -> markers.add(new Charts.Marker(t.toEpochMilli(), l.event(), Charts.Marker.Kind.FAILURE)));
    }
    page.heading(2, "Charts");
    ProfileCharts.append(page, p, markers);
  }

  private static String ref(EvidenceRef e) {
    return e.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " " + e.source()
        + (e.line() > 0 ? ":" + e.line() : "") + (e.detail().isEmpty() ? "" : ": " + firstLine(e.detail()));
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl) + " …";
  }
}
