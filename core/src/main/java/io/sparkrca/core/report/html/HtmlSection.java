package io.sparkrca.core.report.html;

/**
 * Part of a report that writes itself into another report's HTML page: a comparison with a
 * baseline inside a root-cause analysis, for example.
 *
 * <pre>{@code
 * HtmlPage page = HtmlPage.titled("Root Cause Analysis");
 * comparison.appendHtml(page);
 * }</pre>
 */
public interface HtmlSection {
  /** Appends this part's headings, text and charts to {@code page}. */
  void appendHtml(HtmlPage page);
}
