package io.sparkrca.core.evidence;

import io.sparkrca.core.source.SourceSettings;
import java.util.List;

/**
 * Looks inside a job's code for an {@link EvidenceCollector}: the sparkrca-inspector module
 * provides one for JARs, class files and Python/Scala/Java/SQL sources (found with {@link
 * java.util.ServiceLoader}); without it, code is a gap in the evidence.
 *
 * <pre>{@code
 * public final class MyInspector implements CodeInspectionProvider {
 *   public String name() { return "mine"; }
 *   public boolean supports(String uri) { return uri.endsWith(".r"); }
 *   public CodeEvidence inspect(String uri, SourceSettings s, List<StackFrame> frames) { ... }
 * }
 * }</pre>
 */
public interface CodeInspectionProvider {

  /** A short name for messages. */
  String name();

  /** Whether this provider reads {@code uri} (from its name alone). */
  boolean supports(String uri);

  /**
   * Inspects the code at {@code uri}: its overview and anti-patterns, and where each of {@code
   * frames} (user frames of the failure's stack traces) is in it.
   */
  CodeEvidence inspect(String uri, SourceSettings settings, List<StackFrame> frames);

  /**
   * How the code at {@code candidateUri} differs from the code at {@code baselineUri} (two builds
   * of one job's JAR, two versions of its script), for a comparison of two runs; empty when this
   * provider cannot compare them. Throws a {@link io.sparkrca.core.error.SparkRcaException} naming
   * the input that could not be read.
   */
  default java.util.Optional<CodeDiff> diff(String baselineUri, String candidateUri, SourceSettings settings) {
    return java.util.Optional.empty();
  }
}
