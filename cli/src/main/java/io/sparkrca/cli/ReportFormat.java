package io.sparkrca.cli;

import io.sparkrca.core.report.Report;

/**
 * Output formats of the commands whose result is a {@link Report} with an HTML rendering
 * ({@code rca}, {@code compare}, {@code summarize}).
 */
enum ReportFormat {
  markdown,
  json,
  text,
  html;

  /** The report in this format. */
  String render(Report r) {
    return switch (this) {
      case markdown -> r.toMarkdown();
      case json -> r.toJson();
      case text -> r.toText();
      case html -> r.toHtml();
    };
  }
}
