package io.sparkrca.core.report;

/**
 * What every result of sparkrca can do: render itself as Markdown (for people), JSON (for
 * machines, in a documented shape) and plain text. A user who learned one entry point's results
 * knows the others'. HTML is one self-contained page (no script, no external request); results
 * with something to draw override {@link #toHtml()} with charts.
 *
 * <pre>{@code
 * Report r = RcaEngine.standard().analyze(evidence);
 * Files.writeString(Path.of("rca.md"), r.toMarkdown());
 * }</pre>
 */
public interface Report {
  /** Markdown for people; every piece of input text redacted and escaped. */
  String toMarkdown();

  /** JSON for machines, pretty-printed. */
  String toJson();

  /** Plain text; by default the Markdown. */
  default String toText() {
    return toMarkdown();
  }

  /**
   * One self-contained HTML page (styles inlined, no script, nothing fetched when opened; every
   * text redacted and escaped). By default the Markdown, shown as preformatted text.
   */
  default String toHtml() {
    String md = toMarkdown();
    String first = md.lines().findFirst().orElse("sparkrca report").replaceFirst("^#+\\s*", "");
    return io.sparkrca.core.report.html.HtmlPage.titled(first).pre(md).render();
  }
}
