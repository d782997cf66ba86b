package io.sparkrca.core.report.html;

import io.sparkrca.core.redaction.Redactor;
import java.util.List;
import java.util.Objects;

/**
 * One self-contained HTML page: its styles inlined, no script, no external resource, so that it
 * opens the same offline, in a mail client or an archive as in a browser, and every text is
 * readable without JavaScript. Every piece of text added through {@link #text(String)} (and the
 * helpers that call it) is redacted with {@link Redactor#standard()} and escaped.
 *
 * <pre>{@code
 * HtmlPage page = HtmlPage.titled("Root Cause Analysis");
 * page.heading(2, "Root cause").paragraph(report.rootCause().explanation());
 * page.raw(Charts.histogram(...));
 * Files.writeString(Path.of("rca.html"), page.render());
 * }</pre>
 *
 * <p>Not thread-safe; one page per report.
 */
public final class HtmlPage {
  /** The most characters one piece of text may have in a page; longer text is cut and says so. */
  public static final int MAX_TEXT = 20_000;
  /**
   * Table rows and list items shown at first; the rest are in a collapsed {@code <details>} that
   * says how many it holds. A closed {@code <details>} is neither laid out nor painted, and the
   * time a browser takes to paint (and to screenshot) a page grows with the page's height.
   */
  public static final int SHOWN_ROWS = 10;
  /**
   * Characters of a table cell or list item shown at first; a longer one (a list of 600 stage ids)
   * shows its start and keeps the rest in a collapsed {@code <details>}, all of it in the page.
   */
  public static final int SHOWN_CHARS = 240;

  // Literal colours, not CSS custom properties: the page needs no cascade of variables, and the
  // library's sources stay free of anything that reads like a command-line flag.
  private static final String STYLE = """
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1d2430;\
      background:#fff;margin:0 auto;max-width:1040px;padding:16px 24px 48px}
      h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5dae1;\
      padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
      p{margin:6px 0}code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f4f6f9;\
      padding:1px 4px;border-radius:3px}pre{font:12.5px ui-monospace,Menlo,Consolas,monospace;background:#f4f6f9;\
      padding:8px;overflow:auto;white-space:pre-wrap}
      table{border-collapse:collapse;margin:6px 0 12px;width:100%}th,td{border:1px solid #d5dae1;padding:3px 6px;\
      text-align:left;vertical-align:top}th{background:#f4f6f9}td.num,th.num{text-align:right;\
      font-variant-numeric:tabular-nums}
      .verdict{display:inline-block;padding:2px 8px;border-radius:4px;font-weight:600;color:#fff;background:#2458b3}
      .verdict.problem{background:#b3261e}.verdict.healthy{background:#1f7a3a}.verdict.undetermined{background:#b26a00}
      .muted{color:#5b6472}.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px}
      figure{margin:12px 0 18px}figcaption{color:#5b6472;font-size:13px;margin-top:2px}
      svg text{font:11px system-ui,sans-serif;fill:#1d2430}svg .axis{stroke:#d5dae1}svg .grid{stroke:#eef0f3}
      details{margin:4px 0}summary{cursor:pointer;color:#2458b3}
      details.clip{margin:0}details.clip>summary{color:inherit;list-style:none}\
      details.clip>summary::-webkit-details-marker{display:none}\
      details.clip:not([open])>summary::after{content:"\\2026 " attr(data-more);color:#2458b3}
      .pair{display:grid;grid-template-columns:1fr 1fr;gap:16px}.pair>figure{min-width:0}
      ul{margin:4px 0 8px;padding-left:22px}li{margin:2px 0}
      """;

  private final StringBuilder body = new StringBuilder();
  private final String title;
  private int ids;

  private HtmlPage(String title) {
    this.title = Objects.requireNonNull(title, "title");
  }

  /** A page with this title (redacted and escaped). */
  public static HtmlPage titled(String title) {
    return new HtmlPage(title);
  }

  /** Redacts and escapes {@code s} for HTML text or an attribute; cut at {@link #MAX_TEXT} characters. */
  public static String text(String s) {
    if (s == null) {
      return "";
    }
    String r = Redactor.standard().redactText(s);
    if (r.length() > MAX_TEXT) {
      r = r.substring(0, MAX_TEXT) + " [cut: " + (r.length() - MAX_TEXT) + " more characters]";
    }
    return escape(r);
  }

  /** Escapes {@code s} for HTML text or a double-quoted attribute, without redacting. */
  public static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            b.append(' ');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /** A fresh element id, unique in this page. */
  public String id(String prefix) {
    return prefix + "-" + (++ids);
  }

  /** A heading (level 1 to 4). */
  public HtmlPage heading(int level, String text) {
    int l = Math.max(1, Math.min(4, level));
    body.append("<h").append(l).append('>').append(text(text)).append("</h").append(l).append(">\n");
    return this;
  }

  /** A paragraph of text. */
  public HtmlPage paragraph(String text) {
    body.append("<p>").append(text(text)).append("</p>\n");
    return this;
  }

  /** A paragraph of muted text. */
  public HtmlPage note(String text) {
    body.append("<p class=\"muted\">").append(text(text)).append("</p>\n");
    return this;
  }

  /**
   * A bulleted list (empty lists are left out): the first {@value #SHOWN_ROWS} items, then the
   * others in a collapsed {@code <details>}; a long item shows its first {@value #SHOWN_CHARS}
   * characters, the rest collapsed.
   */
  public HtmlPage list(List<String> items) {
    if (items.isEmpty()) {
      return this;
    }
    int shown = items.size() <= SHOWN_ROWS + 2 ? items.size() : SHOWN_ROWS;
    items(items.subList(0, shown));
    if (shown < items.size()) {
      body.append("<details class=\"rows\"><summary>The other ").append(items.size() - shown).append(" of ")
          .append(items.size()).append(" items</summary>\n");
      items(items.subList(shown, items.size()));
      body.append("</details>\n");
    }
    return this;
  }

  private void items(List<String> items) {
    body.append("<ul>\n");
    for (String i : items) {
      body.append("<li>").append(clipped(i)).append("</li>\n");
    }
    body.append("</ul>\n");
  }

  /**
   * Redacts and escapes {@code s} like {@link #text(String)}; past {@value #SHOWN_CHARS}
   * characters it shows the start (cut at a space or comma) and keeps the rest in a collapsed
   * {@code <details>}, so the element's text is still all of {@code s}.
   */
  public static String clipped(String s) {
    if (s == null) {
      return "";
    }
    String r = Redactor.standard().redactText(s);
    if (r.length() > MAX_TEXT) {
      r = r.substring(0, MAX_TEXT) + " [cut: " + (r.length() - MAX_TEXT) + " more characters]";
    }
    // Shorter than a third more than the shown part: shown whole, a fold would save little.
    if (r.length() <= SHOWN_CHARS * 4 / 3) {
      return escape(r);
    }
    int cut = SHOWN_CHARS;
    for (int i = SHOWN_CHARS; i > SHOWN_CHARS / 2; i--) {
      char c = r.charAt(i);
      if (c == ' ' || c == ',') {
        cut = i;
        break;
      }
    }
    if (Character.isLowSurrogate(r.charAt(cut))) {
      cut--;
    }
    return "<details class=\"clip\"><summary data-more=\"" + String.format(java.util.Locale.ROOT, "%,d", r.length() - cut)
        + " more characters\">" + escape(r.substring(0, cut)) + "</summary>" + escape(r.substring(cut)) + "</details>";
  }

  /** A preformatted block. */
  public HtmlPage pre(String text) {
    body.append("<pre>").append(text(text)).append("</pre>\n");
    return this;
  }

  /** Key/value pairs shown as a two-column grid. */
  public HtmlPage facts(List<String[]> pairs) {
    body.append("<div class=\"kv\">\n");
    for (String[] p : pairs) {
      body.append("<div class=\"muted\">").append(text(p[0])).append("</div><div>").append(text(p[1])).append("</div>\n");
    }
    body.append("</div>\n");
    return this;
  }

  /**
   * A table: a header row and rows of cells (text, redacted and escaped; a long cell shows its
   * start, see {@link #clipped(String)}). Columns named in {@code numeric} (by index) are
   * right-aligned. Past {@value #SHOWN_ROWS} rows the others are in a collapsed {@code <details>}
   * that says how many it holds (and the table stops at {@link Charts#MAX_TABLE_ROWS}).
   */
  public HtmlPage table(String caption, List<String> header, List<List<String>> rows, int... numeric) {
    body.append(Charts.foldedTable(caption, header, rows, SHOWN_ROWS, numeric));
    return this;
  }

  /** Markup made by {@link Charts} or this package, added as it is. */
  public HtmlPage raw(String html) {
    body.append(html);
    if (!html.endsWith("\n")) {
      body.append('\n');
    }
    return this;
  }

  /** The whole document. */
  public String render() {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        // Nothing may be fetched: no script, no remote style, no image, no frame.
        + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        + "img-src data:\">\n"
        + "<meta name=\"generator\" content=\"sparkrca\">\n"
        + "<title>" + text(title) + "</title>\n<style>\n" + STYLE + "</style>\n</head>\n<body>\n"
        + "<h1>" + text(title) + "</h1>\n" + body + "</body>\n</html>\n";
  }
}
