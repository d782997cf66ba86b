package io.sparkrca.inspector;

import io.sparkrca.core.error.Remedy;
import java.util.List;
import java.util.function.Function;

/**
 * What {@link ClassInspector} found: an {@link ArchiveOverview}, a {@link ClassView}, a {@link
 * SourceView} or a {@link FindingsReport}. Every kind renders as text (bounded, with notes where
 * it cut) and as JSON carrying the same facts as fields.
 *
 * <pre>{@code
 * Inspection result = ClassInspector.create().inspect("app.jar!/com/example/Job.class");
 * System.out.println(result.toText());
 * result.findings().forEach(f -> System.out.println(f.location() + ": " + f.remediation()));
 * }</pre>
 */
public sealed interface Inspection extends io.sparkrca.core.report.Report permits ArchiveOverview, ClassView, SourceView, FindingsReport {

  /** What was inspected: the URI (credentials removed), with {@code !/entry} when an entry. */
  String source();

  /**
   * Spark anti-patterns found, at most 50 of each pattern and 200 in all; empty for an overview.
   */
  List<Finding> findings();

  /** How many more findings the cap on {@link #findings()} left out; 0 when none was. */
  default int findingsOmitted() {
    return 0;
  }

  /** What was skipped, capped or suspicious (zip-bomb caps, malformed classes, cut output). */
  List<String> notes();

  /** The human-readable rendering. */
  @Override
  default String toText() {
    return toText(Remedy::words);
  }

  /**
   * The human-readable rendering, with its advice ({@link InspectorRemedies}) in {@code words}'
   * words: a command line names its own options there.
   */
  String toText(Function<? super Remedy, String> words);

  /** The text rendering as Markdown: a fenced block, since it is laid out for a terminal. */
  @Override
  default String toMarkdown() {
    return io.sparkrca.core.report.Markdown.codeBlock(toText(), Integer.MAX_VALUE);
  }

  /** The JSON rendering: an object whose fields carry the same facts as the text. */
  String toJson();
}
