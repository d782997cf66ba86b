package io.sparkrca.rules;

import io.sparkrca.core.error.InvalidRequestException;

/**
 * A piece of remediation that depends on the application's configuration, and optionally on the
 * flagged stage: {@code text} is offered only when {@code when}, a CEL bool expression over
 * {@code conf} (the effective Spark properties, {@code map<string, string>}, with Spark's
 * defaults filled in for the keys listed in {@link io.sparkrca.core.app.SparkDefaults}), is true, and, when
 * {@code stageWhen} is given, for the flagged stages on which it is true.
 *
 * <p>{@code stageWhen} is a CEL bool expression over the flagged stage {@code s} (and
 * {@code stages}, {@code total_executor_summary}), for advice that only makes sense on some
 * stages: coalescing shuffle partitions cannot help a stage that reads no shuffle data. When it
 * holds for only some of a finding's stages, the text names them. An application-level finding
 * has no stage, so advice whose {@code stageWhen} reads {@code s} is never offered on one.
 *
 * <p>{@code text} may embed values: {@code ${expr}} is replaced by the value of the CEL
 * expression {@code expr} over {@code conf}, so that a finding cites the configuration behind it
 * ({@code "spark.sql.shuffle.partitions is ${conf['spark.sql.shuffle.partitions']}"}). Every
 * expression is compiled with the rule, and a broken one is a broken rule ({@link BrokenRule}).
 * A key without a known default is absent from {@code conf}: guard it with
 * {@code 'key' in conf ? conf['key'] : 'unset'}.
 *
 * <p>When the configuration is unknown (no environment), advice with a {@code when} is offered
 * with a caveat, and so is advice whose {@code when} fails (for example on a key with no known
 * default); advice whose text embeds configuration values is not offered, since there is nothing
 * to cite.
 *
 * <pre>{@code
 * new Advice("conf['spark.sql.adaptive.enabled'] != 'true'",
 *     "Enable AQE (spark.sql.adaptive.enabled=true) so that Spark splits skewed partitions.");
 * new Advice("conf['spark.sql.adaptive.enabled'] == 'true'",
 *     "s.stage_metrics.stage_shuffle_read_metrics.bytes_read > 0",
 *     "AQE coalesces this stage's ${conf['spark.sql.shuffle.partitions']} shuffle partitions.");
 * }</pre>
 *
 * @param when a CEL expression of type bool over {@code conf}; empty means always
 * @param stageWhen a CEL expression of type bool over the flagged stage {@code s}; empty means
 *     every flagged stage
 * @param text the advice, in plain text, with optional {@code ${expr}} values
 */
public record Advice(String when, String stageWhen, String text) {
  public Advice {
    when = when == null ? "" : when;
    stageWhen = stageWhen == null ? "" : stageWhen;
    if (text == null || text.isBlank()) {
      throw new InvalidRequestException(
          "advice needs a text: pass a non-blank text (the advice offered when '" + when + "' holds)");
    }
  }

  /** Advice that depends on the configuration only. */
  public Advice(String when, String text) {
    this(when, "", text);
  }
}
