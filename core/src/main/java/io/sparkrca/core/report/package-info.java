/**
 * Reports and their building blocks: {@link io.sparkrca.core.report.RcaReport}, the root-cause
 * analysis of one application (root cause, confidence, failure chain, timeline, findings,
 * recommendations, missing evidence), rendered as Markdown and as versioned JSON; the root-cause
 * vocabulary ({@link io.sparkrca.core.knowledge.RootCauseKind}); {@link io.sparkrca.core.report.Report},
 * what every result of sparkrca renders to; safe Markdown and human formats.
 *
 * <pre>{@code
 * RcaReport report = RcaEngine.standard().analyze(evidence);
 * System.out.println(report.toMarkdown());
 * }</pre>
 */
package io.sparkrca.core.report;
