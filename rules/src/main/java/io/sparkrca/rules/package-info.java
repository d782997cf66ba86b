/**
 * Stage diagnostics with typed CEL rules, the recommended rule catalog, and (as they land) the
 * analyzers built on them. Every rule runs on the core application model, so it works for every
 * source that produces one.
 *
 * <h2>Three lines for the common case</h2>
 *
 * <pre>{@code
 * StageRuleEngine engine = StageRuleEngine.builder().recommended().build();
 * StageDiagnostics result = engine.evaluateEventLog("/tmp/spark-events/app-1");
 * System.out.println(result.toMarkdown());   // or result.toJson()
 * }</pre>
 *
 * <h2>Writing rules</h2>
 *
 * Rules are CEL expressions checked against the Dataproc v1 Spark application messages
 * ({@link io.sparkrca.rules.DataprocSchema}) with the proto's snake_case field names, so rules
 * written for the Dataproc agent's {@code GetSparkStageDiagnostics} run unchanged:
 *
 * <pre>{@code
 * // per stage attempt: reads s, flags each attempt for which it is true
 * s.stage_metrics.executor_run_time_millis >= 2000
 *     && ratio(s.stage_metrics.jvm_gc_time_millis, s.stage_metrics.executor_run_time_millis) > 0.15
 * // the agent's style: a list of stages (or stage ids)
 * stages.filter(x, x.num_failed_tasks > 0)
 * // application level: a bool
 * ratio(sum(stages.map(x, x.stage_metrics.jvm_gc_time_millis)),
 *     sum(stages.map(x, x.stage_metrics.executor_run_time_millis))) > 0.1
 * }</pre>
 *
 * A rule that does not compile makes {@link io.sparkrca.rules.StageRuleEngine.Builder#build()}
 * throw {@link io.sparkrca.rules.BrokenRuleException} (naming the closest fields of a misspelt
 * one), unless the engine is built to skip broken rules.
 *
 * Rule files are JSON lists of {@code {ruleId, description, expression, detail?, remediation?,
 * severity?, advice?}} ({@link io.sparkrca.rules.RuleCatalog}). The mapping from the model to the
 * schema is one piece of code ({@link io.sparkrca.rules.StageTelemetry#from}); it gives the values
 * the History Server reports for the same stage attempt.
 */
package io.sparkrca.rules;
