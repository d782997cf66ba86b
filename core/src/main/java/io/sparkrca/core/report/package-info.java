/**
 * Reports and their building blocks: the root-cause vocabulary ({@link
 * io.sparkrca.core.report.RootCauseKind}), safe Markdown and human formats.
 */
package io.sparkrca.core.report;
