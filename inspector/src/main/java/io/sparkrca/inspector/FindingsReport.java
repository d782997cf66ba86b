package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The Spark anti-patterns found by scanning a whole archive's application classes and sources
 * (or one file), without the listings.
 *
 * <pre>{@code
 * FindingsReport r = (FindingsReport) ClassInspector.builder().findingsOnly(true).build().inspect("app.jar");
 * r.findings().forEach(f -> System.out.println(f));
 * }</pre>
 *
 * @param source what was scanned
 * @param classesScanned classes read and analysed
 * @param sourcesScanned source files read and analysed
 * @param findings the anti-patterns, by file and line (at most 50 of each pattern, 200 in all)
 * @param findingsOmitted how many more findings that cap left out
 * @param notes what was skipped (library packages, caps, malformed classes)
 */
public record FindingsReport(
    String source,
    int classesScanned,
    int sourcesScanned,
    List<Finding> findings,
    int findingsOmitted,
    List<String> notes) implements Inspection {

  /** Copies the lists and checks that no component is null. */
  public FindingsReport {
    Objects.requireNonNull(source, "source");
    findings = List.copyOf(findings);
    notes = List.copyOf(notes);
  }

  /** A report whose findings were not cut. */
  public FindingsReport(String source, int classesScanned, int sourcesScanned,
      List<Finding> findings, List<String> notes) {
    this(source, classesScanned, sourcesScanned, findings, 0, notes);
  }

  @Override
  public String toText(Function<? super Remedy, String> words) {
    return TextRender.findings(this, words);
  }

  @Override
  public String toJson() {
    return JsonRender.findings(this);
  }
}
