package io.sparkrca.rules;

import io.sparkrca.core.error.InvalidRequestException;
import java.time.Duration;

/**
 * Bounds on what a rule may cost. CEL has no I/O and no unbounded loops; these caps bound the
 * rest: the text, its nesting, the comprehension steps of one evaluation, and the wall-clock time
 * one rule may take over all stages. A rule that exceeds a cap is skipped with a warning.
 *
 * <pre>{@code
 * StageRuleEngine.builder().limits(RuleLimits.DEFAULT.withMaxRuleTime(Duration.ofSeconds(1)))...
 * }</pre>
 *
 * @param maxExpressionLength code points of an expression (rule, detail or advice condition)
 * @param maxNestingDepth parser recursion depth (parentheses, operators, calls)
 * @param maxNodes expression nodes after macro expansion
 * @param maxIterations comprehension steps ({@code filter}, {@code map}, {@code exists}, ...) in
 *     one evaluation
 * @param maxRuleTime wall-clock time one rule may take over all stages
 */
public record RuleLimits(
    int maxExpressionLength, int maxNestingDepth, int maxNodes, int maxIterations, Duration maxRuleTime) {
  /** 4,096 characters, depth 32, 2,000 nodes, 5,000,000 steps, 10 s. */
  public static final RuleLimits DEFAULT = new RuleLimits(4096, 32, 2000, 5_000_000, Duration.ofSeconds(10));

  public RuleLimits {
    if (maxExpressionLength < 1 || maxNestingDepth < 1 || maxNodes < 1 || maxIterations < 1) {
      throw new InvalidRequestException(
          "rule limits must be at least 1: maxExpressionLength " + maxExpressionLength
              + ", maxNestingDepth " + maxNestingDepth + ", maxNodes " + maxNodes + ", maxIterations "
              + maxIterations);
    }
    if (maxRuleTime == null || maxRuleTime.isNegative() || maxRuleTime.isZero()) {
      throw new InvalidRequestException(
          "rule limits: maxRuleTime must be a positive duration, was " + maxRuleTime);
    }
  }

  public RuleLimits withMaxExpressionLength(int n) {
    return new RuleLimits(n, maxNestingDepth, maxNodes, maxIterations, maxRuleTime);
  }

  public RuleLimits withMaxNestingDepth(int n) {
    return new RuleLimits(maxExpressionLength, n, maxNodes, maxIterations, maxRuleTime);
  }

  public RuleLimits withMaxIterations(int n) {
    return new RuleLimits(maxExpressionLength, maxNestingDepth, maxNodes, n, maxRuleTime);
  }

  public RuleLimits withMaxRuleTime(Duration d) {
    return new RuleLimits(maxExpressionLength, maxNestingDepth, maxNodes, maxIterations, d);
  }
}
