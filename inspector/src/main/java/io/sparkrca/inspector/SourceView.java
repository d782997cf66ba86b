package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A text file or text entry: a plain source ({@code .py}, {@code .scala}, {@code .java},
 * {@code .sql}) or a resource (MANIFEST.MF, {@code .properties}, {@code .xml}, {@code .conf}),
 * printed numbered as {@code {i:4d} | line} within the line budget, with the anti-patterns found in
 * sources.
 *
 * <pre>{@code
 * SourceView s = (SourceView) ClassInspector.builder().maxLines(50).build().inspect("job.py");
 * System.out.println(s.totalLines() + " lines; " + s.findings().size() + " findings");
 * }</pre>
 *
 * @param source the file, or the archive and entry
 * @param entry whether it is an archive entry (rather than a whole file)
 * @param language {@code python}, {@code scala}, {@code java}, {@code sql} or {@code text}
 * @param firstLine the number of the first line shown
 * @param lines the lines shown
 * @param totalLines how many lines the file has (or, with {@code totalLinesExact} false, at least)
 * @param totalLinesExact whether the file was read to its end to count lines
 * @param findings anti-patterns found in the source (at most 50 of each pattern, 200 in all)
 * @param findingsOmitted how many more findings that cap left out
 * @param notes what was cut or skipped
 */
public record SourceView(
    String source,
    boolean entry,
    String language,
    int firstLine,
    List<String> lines,
    long totalLines,
    boolean totalLinesExact,
    List<Finding> findings,
    int findingsOmitted,
    List<String> notes) implements Inspection {

  /** Copies the lists and checks that no component is null. */
  public SourceView {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(language, "language");
    lines = List.copyOf(lines);
    findings = List.copyOf(findings);
    notes = List.copyOf(notes);
  }

  /** A view whose findings were not cut. */
  public SourceView(String source, boolean entry, String language, int firstLine,
      List<String> lines, long totalLines, boolean totalLinesExact, List<Finding> findings,
      List<String> notes) {
    this(source, entry, language, firstLine, lines, totalLines, totalLinesExact, findings, 0,
        notes);
  }

  /** Whether lines after those shown exist. */
  public boolean truncated() {
    return firstLine + lines.size() - 1 < totalLines;
  }

  @Override
  public String toText(Function<? super Remedy, String> words) {
    return TextRender.source(this, words);
  }

  @Override
  public String toJson() {
    return JsonRender.source(this);
  }
}
