/**
 * Human formats of numbers shared by every report and renderer: sizes, durations, ratios and
 * percentages, written the same way in Markdown, HTML and text.
 *
 * <pre>{@code
 * String spill = Formats.humanBytes(1536);   // "1.5 KiB"
 * String took = Formats.humanMillis(90_000); // "1.5 min"
 * }</pre>
 */
package io.sparkrca.core.format;
