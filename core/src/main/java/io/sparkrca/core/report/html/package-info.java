/**
 * Self-contained HTML reports: {@link io.sparkrca.core.report.html.HtmlPage} (one file, styles
 * inlined, no script, no external request, text redacted and escaped), {@link
 * io.sparkrca.core.report.html.Charts} (inline SVG drawn in Java, with text alternatives and
 * aggregation for applications of any size) and {@link io.sparkrca.core.report.html.RunProfile}
 * (the bounded numbers the charts draw, taken once from an application).
 *
 * <pre>{@code
 * String html = RcaEngine.standard().analyze(evidence).toHtml();
 * Files.writeString(Path.of("rca.html"), html);
 * }</pre>
 */
package io.sparkrca.core.report.html;
