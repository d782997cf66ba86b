/**
 * The comparison of a slow run with a healthy baseline of the same job: {@link
 * io.sparkrca.analysis.compare.Comparison}. Stages and jobs are aligned by what they are, time is
 * normalised by input, the first divergent stage is shown side by side, the configuration diff is
 * ranked and linked to the stage evidence, the code is compared when both runs' code is given, and
 * the verdict names its confidence and the alternatives it rejected.
 *
 * <pre>{@code
 * Comparison c = Comparison.of(EventLogs.replay(slow), EventLogs.replay(healthy));
 * Files.writeString(Path.of("compare.html"), c.toHtml());
 * System.exit(c.exitCode());
 * }</pre>
 */
package io.sparkrca.analysis.compare;
