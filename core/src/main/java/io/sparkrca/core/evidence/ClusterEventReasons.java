package io.sparkrca.core.evidence;

/**
 * The {@link ClusterEvent#reason()}s that a provider writes and an analysis reads, defined once for
 * both sides: the records sparkrca's Dataproc provider makes of the autoscaler and of autotuning,
 * and the Kubernetes reasons that the Kubernetes provider keeps and the analysis acts on.
 *
 * <pre>{@code
 * boolean autotuned = evidence.clusterEvents().stream()
 *     .anyMatch(e -> e.reason().equals(ClusterEventReasons.DATAPROC_AUTOTUNING));
 * }</pre>
 */
public final class ClusterEventReasons {
  private ClusterEventReasons() {}

  /** Dataproc's autoscaler counted the executors a workload needs and has: message {@code required=10 running=9}. */
  public static final String AUTOSCALER_EXECUTORS = "AutoscalerExecutors";
  /** A Dataproc workload runs with autotuning: message {@code scenarios=MEMORY,SCALING}. */
  public static final String DATAPROC_AUTOTUNING = "DataprocAutotuning";

  /** Kubernetes: the kernel's OOM killer ended a container for exceeding its memory limit. */
  public static final String OOM_KILLED = "OOMKilled";
  /** Kubernetes: the kubelet is stopping a container (a deleted pod, an eviction, a failed probe). */
  public static final String KILLING = "Killing";
  /** Kubernetes: the kubelet evicted the pod (node pressure). */
  public static final String EVICTED = "Evicted";
  /** Kubernetes: the scheduler is preempting the pod for one of higher priority. */
  public static final String PREEMPTING = "Preempting";
  /** Kubernetes: the pod was preempted. */
  public static final String PREEMPTED = "Preempted";
  /** Kubernetes: the pod's node stopped reporting ready. */
  public static final String NODE_NOT_READY = "NodeNotReady";
  /** Kubernetes: the pod's node shut down (a graceful node shutdown). */
  public static final String SHUTDOWN = "Shutdown";
}
