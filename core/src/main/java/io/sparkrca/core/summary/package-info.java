/**
 * The executive summary of an application ({@code sparkrca summarize}): {@link
 * io.sparkrca.core.summary.ApplicationSummary} and its Markdown rendering.
 */
package io.sparkrca.core.summary;
