package io.sparkrca.core.report;

import io.sparkrca.core.redaction.Redactor;

/**
 * Safe Markdown for text that comes from logs: secrets redacted, newlines folded, length capped,
 * and code spans fenced with more backticks than the text contains, so log text can neither break
 * the layout nor pass itself off as report structure.
 *
 * <pre>{@code
 * out.append("- Reason: ").append(Markdown.code(stage.failureReason().orElse(""), 300));
 * }</pre>
 */
public final class Markdown {
  private Markdown() {}

  /** {@code text} as an inline code span: redacted, on one line, at most {@code max} chars. */
  public static String code(String text, int max) {
    String t = oneLine(Redactor.standard().redactText(text == null ? "" : text), max);
    int longest = 0;
    int run = 0;
    for (int i = 0; i < t.length(); i++) {
      if (t.charAt(i) == '`') {
        longest = Math.max(longest, ++run);
      } else {
        run = 0;
      }
    }
    String fence = "`".repeat(longest + 1);
    boolean pad = t.startsWith("`") || t.endsWith("`") || t.isEmpty();
    return fence + (pad ? " " : "") + t + (pad ? " " : "") + fence;
  }

  /** {@code text} as an inline code span of at most 300 characters. */
  public static String code(String text) {
    return code(text, 300);
  }

  /** Plain text made safe for a Markdown line: redacted, one line, Markdown syntax escaped. */
  public static String text(String text, int max) {
    String t = oneLine(Redactor.standard().redactText(text == null ? "" : text), max);
    StringBuilder sb = new StringBuilder(t.length() + 8);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if ("\\`*_[]<>|#".indexOf(c) >= 0) {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /**
   * {@code text} as a fenced code block: redacted, at most {@code maxLines} lines (each cut at 500
   * characters), fenced with more backticks than the text holds in a row, so it cannot close it.
   */
  public static String codeBlock(String text, int maxLines) {
    String[] lines = Redactor.standard().redactText(text == null ? "" : text).split("\r?\n", -1);
    StringBuilder body = new StringBuilder();
    int longest = 2;
    for (int i = 0; i < lines.length && i < maxLines; i++) {
      String l = lines[i].length() > 500 ? lines[i].substring(0, 500) + " ...[truncated]" : lines[i];
      int run = 0;
      for (int k = 0; k < l.length(); k++) {
        run = l.charAt(k) == '`' ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      body.append(l).append('\n');
    }
    if (lines.length > maxLines) {
      body.append("... (").append(lines.length - maxLines).append(" more lines)\n");
    }
    String fence = "`".repeat(longest + 1);
    return fence + "text\n" + body + fence + "\n";
  }

  /** Folds line breaks into " ⏎ " and cuts to {@code max} characters with a marker. */
  public static String oneLine(String text, int max) {
    String t = text.replace("\r\n", "\n").replace('\r', '\n').replace("\n", " \u23ce ").replace('\t', ' ');
    if (t.length() > max) {
      t = t.substring(0, Math.max(0, max)) + " ...[truncated]";
    }
    return t;
  }
}
