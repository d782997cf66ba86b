package io.sparkrca.rules;

/**
 * A piece of remediation that depends on the application's configuration: {@code text} is offered
 * only when {@code when}, a CEL bool expression over {@code conf} (the effective Spark properties,
 * {@code map<string, string>}, with Spark's defaults filled in for the keys listed in
 * {@link SparkDefaults}), is true. When the configuration is unknown (no environment), the text is
 * offered with a caveat; when {@code when} fails (for example a key with no known default), too.
 *
 * <pre>{@code
 * new Advice("conf['spark.sql.adaptive.enabled'] != 'true'",
 *     "Enable AQE (spark.sql.adaptive.enabled=true) so that Spark splits skewed partitions.");
 * }</pre>
 *
 * @param when a CEL expression of type bool; empty means always
 * @param text the advice, in plain text
 */
public record Advice(String when, String text) {
  public Advice {
    when = when == null ? "" : when;
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("advice needs a text");
    }
  }
}
