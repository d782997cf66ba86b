package io.sparkrca.inspector;

import java.util.List;

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
public sealed interface Inspection permits ArchiveOverview, ClassView, SourceView, FindingsReport {

  /** What was inspected: the URI (credentials removed), with {@code !/entry} when an entry. */
  String source();

  /** Spark anti-patterns found; empty for an overview. */
  List<Finding> findings();

  /** What was skipped, capped or suspicious (zip-bomb caps, malformed classes, cut output). */
  List<String> notes();

  /** The human-readable rendering. */
  String toText();

  /** The JSON rendering: an object whose fields carry the same facts as the text. */
  String toJson();
}
