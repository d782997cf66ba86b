package io.sparkrca.rules;

import io.sparkrca.core.error.SparkRcaException;

/**
 * A rule file or inline rule list that is not JSON, or not a JSON list of rule objects. Rules
 * that are objects but broken (no expression, a bad severity) are not errors: they are skipped
 * with a warning.
 *
 * <pre>{@code
 * try {
 *   RuleCatalog.load(Path.of("rules.json"));
 * } catch (RuleFileException e) {
 *   System.err.println(e.getMessage()); // "rule file rules.json is not valid JSON: ..."
 * }
 * }</pre>
 */
public class RuleFileException extends SparkRcaException {
  private static final long serialVersionUID = 1L;

  public RuleFileException(String message) {
    super(message);
  }
}
