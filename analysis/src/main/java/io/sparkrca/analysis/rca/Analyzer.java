package io.sparkrca.analysis.rca;

import io.sparkrca.analysis.AnalysisContext;
import java.util.List;

/**
 * One analysis of the evidence: it reads an {@link AnalysisContext} and proposes {@link
 * Candidate}s, each a finding that may be the root cause. {@link RcaEngine} runs every analyzer
 * and ranks what they propose. The standard analyzers cover failures (task, executor, driver),
 * out-of-memory errors, performance problems and the comparison with a baseline; more can be
 * added with {@link RcaEngine.Builder#analyzer} or found with {@link java.util.ServiceLoader}.
 *
 * <pre>{@code
 * public final class QuotaAnalyzer implements Analyzer {
 *   public String name() { return "warehouse-quota"; }
 *   public List<Candidate> analyze(AnalysisContext ctx) {
 *     return ctx.evidence().excerpts("QUOTA").stream()
 *         .map(e -> Candidate.builder(quotaFinding(e)).explainsFailure(true).build()).toList();
 *   }
 * }
 * }</pre>
 *
 * <p>An analyzer must not throw for unusual input: what it cannot judge, it leaves out. It must
 * be stateless (one instance serves concurrent analyses).
 */
public interface Analyzer {

  /** A short name, recorded on each finding it makes. */
  String name();

  /** The candidates this analyzer finds; empty when it finds nothing. */
  List<Candidate> analyze(AnalysisContext context);
}
