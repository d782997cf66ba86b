/**
 * Root-cause analysis: {@link io.sparkrca.analysis.rca.RcaEngine} turns the {@link
 * io.sparkrca.core.evidence.Evidence} about an application into an {@link
 * io.sparkrca.core.report.RcaReport}; {@link io.sparkrca.analysis.rca.Analyzer} is the SPI of the
 * analyses it runs, {@link io.sparkrca.analysis.AnalysisContext} what they read and {@link
 * io.sparkrca.analysis.rca.Candidate} what they propose.
 *
 * <pre>{@code
 * Evidence evidence = EvidenceCollector.builder()
 *     .application("/tmp/spark-events/app-1")
 *     .driverLog("/tmp/driver.log")
 *     .build()
 *     .collect();
 * RcaReport report = RcaEngine.standard().analyze(evidence);
 * System.out.println(report.rootCause().kind() + ": " + report.rootCause().explanation());
 * }</pre>
 */
package io.sparkrca.analysis.rca;
