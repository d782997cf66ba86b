package io.sparkrca.rules;

import io.sparkrca.core.error.Remedy;
import io.sparkrca.core.error.SparkRcaException;

/**
 * Thrown when an engine is built without a single rule. The engine ships no implicit rules:
 * what counts as unhealthy depends on the workload, so the caller chooses, for example with
 * {@link RuleCatalog#recommended()}.
 *
 * <pre>{@code
 * StageRuleEngine.builder().build(); // throws NoRulesException
 * }</pre>
 */
public class NoRulesException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  /** What to do: add rules, or opt in to the recommended catalog. A command line may say it with its own options. */
  public static final Remedy ADD_RULES = Remedy.of("rules.add",
      "Add rules to the builder (rule, rules, rulesJson) or opt in to the recommended catalog (recommended()).");

  private static final String PROBLEM =
      "no diagnostic rules supplied. The engine applies no rules or thresholds of its own, because"
          + " what counts as unhealthy depends on the workload. ";

  public static final String MESSAGE = PROBLEM + ADD_RULES.words();

  public NoRulesException() {
    super(PROBLEM, ADD_RULES);
  }
}
