package io.sparkrca.rules;

import java.util.Objects;

/**
 * A supplied rule that cannot run as written: its expression, detail or an advice does not
 * compile, or its entry in a rule file is invalid (no expression, an unknown severity). Such
 * problems are found before any application is read. By default they stop the engine from being
 * built ({@link BrokenRuleException}); an engine built with
 * {@link StageRuleEngine.Builder#skipBrokenRules(boolean) skipBrokenRules(true)} reports each as
 * the warning {@link #warning()} and runs without it.
 *
 * <pre>{@code
 * try {
 *   StageRuleEngine.builder().rulesJson(json).build();
 * } catch (BrokenRuleException e) {
 *   for (BrokenRule b : e.brokenRules()) {
 *     System.err.println(b.ruleId() + ": " + b.message()); // "TYPO: CelTypeError: undefined field ..."
 *   }
 * }
 * }</pre>
 *
 * @param ruleId the rule's id ({@code #3} for an entry that is not even an object)
 * @param part which part of the rule is broken
 * @param message what the compiler or the reader said, for example the unknown field and the
 *     closest real field names
 */
public record BrokenRule(String ruleId, Part part, String message) {
  /** The part of a rule that is broken. */
  public enum Part {
    /** The rule file entry itself: not an object, no expression, a bad severity or advice. */
    ENTRY,
    /** The rule's expression. */
    EXPRESSION,
    /** The rule's detail expression. */
    DETAIL,
    /** One of the rule's advice: its condition or the values its text embeds. */
    ADVICE
  }

  public BrokenRule {
    Objects.requireNonNull(ruleId, "ruleId");
    Objects.requireNonNull(part, "part");
    Objects.requireNonNull(message, "message");
  }

  /** One line naming the rule and the problem, as an error states it. */
  public String describe() {
    return switch (part) {
      case ENTRY -> "rule '" + ruleId + "' is invalid: " + message;
      case EXPRESSION -> "rule '" + ruleId + "' does not compile: " + message;
      case DETAIL -> "the detail of rule '" + ruleId + "' does not compile: " + message;
      case ADVICE -> "an advice of rule '" + ruleId + "' does not compile: " + message;
    };
  }

  /**
   * The warning an engine that skips broken rules reports: the rule is skipped, a broken detail
   * falls back to a generic text, a broken advice is left out.
   */
  public String warning() {
    return switch (part) {
      case ENTRY, EXPRESSION -> RuleCatalog.skipped(ruleId, message);
      case DETAIL -> StageRuleEngine.detailWarning(ruleId, message);
      case ADVICE -> "advice of rule '" + ruleId + "' was dropped because it does not compile: " + message;
    };
  }
}
