/**
 * Stage diagnostics with typed CEL rules ({@code StageRuleEngine}), the recommended rule catalog
 * and the analyzers built on them: failure chain, OOM classification, baseline comparison, SQL plan
 * checks and configuration advice. Every rule runs on the core application model, so it works for
 * every source that produces one.
 */
package io.sparkrca.rules;
