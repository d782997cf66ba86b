package io.sparkrca.core.evidence;

import java.util.Objects;

/**
 * A problem found in the job's code (an anti-pattern such as an unbounded {@code collect()}), and
 * where.
 *
 * <pre>{@code
 * code.findings().forEach(f -> System.out.println(f.location() + ": " + f.title()));
 * }</pre>
 *
 * @param id a stable id, e.g. {@code collect-unbounded}
 * @param title what it is, in a few words
 * @param location {@code file:line} or {@code class:line in method}
 * @param evidence the code that triggered it, e.g. {@code Dataset.collectAsList()}
 * @param remediation what to do about it
 */
public record CodeFinding(String id, String title, String location, String evidence, String remediation) {
  public CodeFinding {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(location, "location");
    Objects.requireNonNull(evidence, "evidence");
    Objects.requireNonNull(remediation, "remediation");
  }
}
