package io.sparkrca.core.report;

/**
 * What every result of sparkrca can do: render itself as Markdown (for people), JSON (for
 * machines, in a documented shape) and plain text. A user who learned one entry point's results
 * knows the others'.
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
}
