/**
 * Collecting the evidence for a root-cause analysis: {@link io.sparkrca.core.evidence.EvidenceCollector}
 * gathers, for one workload, the application model (from any source), driver and executor logs
 * (scanned for failure signatures, never read whole), the job's code, a baseline run and cluster
 * records, concurrently and with a bound; {@link io.sparkrca.core.evidence.Evidence} is the
 * immutable result, with the provenance of every piece and the gaps: what could not be collected
 * and exactly why.
 *
 * <pre>{@code
 * Evidence evidence = EvidenceCollector.builder()
 *     .application("/tmp/spark-events/app-1.zstd")
 *     .driverLog("/var/log/spark/driver.log")
 *     .executorLogs("/var/log/spark/executors/")
 *     .build()
 *     .collect();
 * evidence.gaps().forEach(g -> System.err.println(g.describe()));
 * }</pre>
 */
package io.sparkrca.core.evidence;
