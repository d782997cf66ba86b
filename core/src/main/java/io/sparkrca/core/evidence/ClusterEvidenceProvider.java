package io.sparkrca.core.evidence;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.source.SourceSettings;

/**
 * Adds the cluster manager's side of the story (Kubernetes pods and events, YARN container
 * statuses) to an {@link EvidenceCollector}, for an application whose master it knows. Found
 * with {@link java.util.ServiceLoader} or added with {@link EvidenceCollector.Builder#clusterEvidence}.
 *
 * <pre>{@code
 * public final class MyYarnEvidence implements ClusterEvidenceProvider {
 *   public String name() { return "yarn"; }
 *   public boolean supports(SparkApplication app) { return master(app).equals("yarn"); }
 *   public ClusterEvidence collect(SparkApplication app, SourceSettings s) { ... }
 * }
 * }</pre>
 */
public interface ClusterEvidenceProvider {

  /** A short name for messages. */
  String name();

  /** Whether this provider can say something about {@code app} (from its master, its settings). */
  boolean supports(SparkApplication app);

  /** The records it has about {@code app}, with what it could not get as gaps. */
  ClusterEvidence collect(SparkApplication app, SourceSettings settings);

  /**
   * What a cluster provider found.
   *
   * @param events records about the application's processes
   * @param logs logs it read (a killed container's previous log), scanned like any other
   * @param gaps what it could not get, with the exact reason
   */
  record ClusterEvidence(java.util.List<ClusterEvent> events, java.util.List<LogEvidence> logs,
      java.util.List<EvidenceGap> gaps) {
    public ClusterEvidence {
      events = java.util.List.copyOf(events);
      logs = java.util.List.copyOf(logs);
      gaps = java.util.List.copyOf(gaps);
    }
  }
}
