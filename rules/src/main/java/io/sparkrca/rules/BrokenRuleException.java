package io.sparkrca.rules;

import io.sparkrca.core.error.SparkRcaException;
import java.util.List;

/**
 * Thrown when an engine is built with rules that cannot run: an expression, detail or advice
 * that does not compile (a misspelt field is named with the closest real ones), or an invalid
 * rule file entry. Nothing is evaluated, because a check that silently does not run would let a
 * broken rule pass. Build with {@link StageRuleEngine.Builder#skipBrokenRules(boolean)
 * skipBrokenRules(true)} to run the other rules and get each broken one as a warning instead.
 *
 * <pre>{@code
 * try {
 *   engine = StageRuleEngine.builder().rules(RuleCatalog.load(file)).build();
 * } catch (BrokenRuleException e) {
 *   System.err.println(e.getMessage()); // "rule 'TYPO' does not compile: CelTypeError: ..."
 * }
 * }</pre>
 */
public class BrokenRuleException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  private final transient List<BrokenRule> brokenRules;

  public BrokenRuleException(List<BrokenRule> brokenRules) {
    super(message(brokenRules));
    this.brokenRules = List.copyOf(brokenRules);
  }

  /** The broken rules, in the order they were supplied. */
  public List<BrokenRule> brokenRules() {
    return brokenRules;
  }

  /** The problems, one sentence each, joined: what a caller prints before its own advice. */
  public String problems() {
    return problems(brokenRules);
  }

  static String problems(List<BrokenRule> broken) {
    StringBuilder sb = new StringBuilder();
    for (BrokenRule b : broken) {
      sb.append(sb.length() == 0 ? "" : "; ").append(b.describe());
    }
    return sb.toString();
  }

  private static String message(List<BrokenRule> broken) {
    String which = broken.size() == 1 ? "it" : "them";
    return problems(broken) + ". No rule was evaluated: fix or remove " + which
        + ", or build the engine with skipBrokenRules(true) to run the other rules and report "
        + which + " as warnings";
  }
}
