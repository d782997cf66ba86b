package io.sparkrca.core.evidence;

import java.util.List;
import java.util.Objects;

/**
 * What the job's code told: what it is, the Spark anti-patterns in it, and where the failure's
 * stack frames point in it.
 *
 * <pre>{@code
 * for (CodeEvidence c : evidence.code()) {
 *   System.out.println(c.uri() + " (" + c.kind() + "): " + c.findings().size() + " findings");
 * }
 * }</pre>
 *
 * @param uri the code (credentials removed)
 * @param kind what it is: {@code jar}, {@code class}, {@code python}, {@code scala}, {@code sql}, ...
 * @param summary one line, e.g. {@code "jar, 12 classes, Main-Class com.x.Job"}
 * @param findings anti-patterns found
 * @param locations the stack frames of interest found in the code
 * @param notes what was skipped or capped
 */
public record CodeEvidence(
    String uri, String kind, String summary, List<CodeFinding> findings, List<CodeLocation> locations,
    List<String> notes) {
  public CodeEvidence {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(summary, "summary");
    findings = List.copyOf(findings);
    locations = List.copyOf(locations);
    notes = List.copyOf(notes);
  }
}
