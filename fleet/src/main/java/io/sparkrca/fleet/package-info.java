/**
 * Fleet analysis: every application under a directory or object-store prefix, each analysed by
 * the {@link io.sparkrca.analysis.rca.RcaEngine} into one {@link io.sparkrca.fleet.FleetRow},
 * and a {@link io.sparkrca.fleet.FleetSummary} of them all (counts per root-cause kind, the
 * worst offenders by wasted core-hours, regressions between runs of the same application name).
 *
 * <p>The same rows come from every place that runs this analysis: {@code sparkrca scan} on one
 * machine ({@link io.sparkrca.fleet.FleetScan}: parallel within a memory budget, resumable
 * and incremental through a {@link io.sparkrca.fleet.FleetIndex}), and the {@code
 * sparkrca-spark} job that spreads the logs over a cluster's executors. Both find the logs with
 * {@link io.sparkrca.fleet.FleetLogs}, analyse each with {@link
 * io.sparkrca.fleet.FleetAnalysis} and summarise with {@link
 * io.sparkrca.fleet.FleetSummary.Totals}.
 *
 * <pre>{@code
 * FleetScan scan = FleetScan.builder().threads(2).index(Path.of("fleet-index.jsonl")).build();
 * FleetScan.Result result = scan.run("/tmp/spark-events", row -> System.out.println(row.toJson()));
 * System.err.println(result.summary().toMarkdown());
 * }</pre>
 */
package io.sparkrca.fleet;
