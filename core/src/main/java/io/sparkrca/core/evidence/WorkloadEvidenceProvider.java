package io.sparkrca.core.evidence;

import io.sparkrca.core.source.SourceSettings;

/**
 * Gathers what a managed platform knows about one <em>workload</em> (a Dataproc Serverless batch or
 * session, a Dataproc cluster job, ...) for an {@link EvidenceCollector}: its state and state
 * message, its logs (from the platform's logging service or the driver output it keeps), where its
 * application data is (a URI any {@link io.sparkrca.core.source.SparkHistoryProvider} reads, or the
 * application itself), and its code. The collector then reads and scans all of it as it does for
 * evidence named directly. Found with {@link java.util.ServiceLoader} (list the class in {@code
 * META-INF/services/io.sparkrca.core.evidence.WorkloadEvidenceProvider}) or added with {@link
 * EvidenceCollector.Builder#workloadEvidence}.
 *
 * <pre>{@code
 * public final class MyPlatformEvidence implements WorkloadEvidenceProvider {
 *   public String name() { return "my-platform"; }
 *   public boolean supports(String workload) { return workload.startsWith("myplatform:"); }
 *   public WorkloadEvidence collect(String workload, SourceSettings settings) {
 *     return WorkloadEvidence.builder(workload).applicationUri("gs://logs/spark-events/app-1").build();
 *   }
 * }
 * }</pre>
 */
public interface WorkloadEvidenceProvider {

  /** A short name for messages and provenance, such as {@code "dataproc"}. */
  String name();

  /** Whether this provider knows workloads named like {@code workload}; cheap, from its shape alone. */
  boolean supports(String workload);

  /**
   * What the platform holds about {@code workload}. A fetch that fails is a gap with the exact call
   * and error, never an exception, unless the workload itself cannot be found or named (then a
   * {@link io.sparkrca.core.error.SparkRcaException}).
   */
  WorkloadEvidence collect(String workload, SourceSettings settings);
}
