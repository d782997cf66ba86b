package io.sparkrca.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.sparkrca.core.evidence.ClusterEvidenceProvider;
import io.sparkrca.core.evidence.ClusterEvent;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.internal.Calls;
import io.sparkrca.kubernetes.internal.Clients;
import io.sparkrca.kubernetes.internal.Reader;
import io.sparkrca.kubernetes.internal.Records;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads, with get and list requests only, what a Kubernetes cluster holds about one Spark
 * application: its driver and executor pods (Spark's {@code spark-app-selector}, {@code
 * spark-role} and {@code spark-exec-id} labels), each container's termination record, the nodes
 * they ran on and their conditions, the events about them, its Spark Operator SparkApplication, and
 * the tails of the driver's and failed executors' logs. Whatever it cannot read is a gap with the
 * exact reason (a 403 names the verb and resource to grant). The results render as Markdown and
 * JSON; {@link #evidence} gives them to an {@link io.sparkrca.core.evidence.EvidenceCollector}.
 *
 * <pre>{@code
 * try (SparkPods k8s = SparkPods.connect(KubernetesSettings.builder().namespace("spark").build())) {
 *   PodsView pods = k8s.pods(SparkPods.Target.of("spark-4f1c0e8d2b7a4c1e9d6f3a5b7c9e1d2f"));
 *   System.out.println(pods.toMarkdown());
 * }
 * }</pre>
 *
 * <p>Thread-safe; close it to release the client it made.
 */
public final class SparkPods implements AutoCloseable {
  private final KubernetesClient client;
  private final boolean owned;
  private final KubernetesSettings settings;
  private final String server;
  private final Optional<String> contextNamespace;

  private SparkPods(KubernetesClient client, boolean owned, KubernetesSettings settings) {
    this.client = client;
    this.owned = owned;
    this.settings = settings;
    Config c = client.getConfiguration();
    this.server = Redactor.redactUri(Optional.ofNullable(c.getMasterUrl()).orElse(""));
    this.contextNamespace = Clients.contextNamespace(c);
  }

  /**
   * Connects as kubectl would with these settings (nothing is sent yet).
   *
   * @throws io.sparkrca.core.error.SparkRcaException when there is no configuration or it turns TLS
   *     verification off
   */
  public static SparkPods connect(KubernetesSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return new SparkPods(Clients.create(settings), true, settings);
  }

  /** Reads through a client the caller made (and closes); the settings' caps and budget apply. */
  public static SparkPods using(KubernetesClient client, KubernetesSettings settings) {
    return new SparkPods(Objects.requireNonNull(client, "client"), false, Objects.requireNonNull(settings, "settings"));
  }

  /**
   * Which application to read.
   *
   * @param appId its Spark application id ({@code spark.app.id}; Spark labels its pods with it)
   * @param namespace its namespace ({@code spark.kubernetes.namespace}), when known
   * @param driverPod its driver's pod ({@code spark.kubernetes.driver.pod.name}), when known
   * @param podNamePrefix its pods' name prefix ({@code spark.kubernetes.executor.podNamePrefix}),
   *     which names deleted pods in events
   * @param executorIds the executors the event log knows, to name their pods when they are gone
   */
  public record Target(String appId, Optional<String> namespace, Optional<String> driverPod,
      Optional<String> podNamePrefix, Set<String> executorIds) {
    public Target {
      Objects.requireNonNull(appId, "appId");
      if (appId.isBlank()) {
        throw new InvalidRequestException("the Spark application id is empty");
      }
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(driverPod, "driverPod");
      Objects.requireNonNull(podNamePrefix, "podNamePrefix");
      executorIds = Set.copyOf(executorIds);
    }

    /** The application with this id, nothing else known. */
    public static Target of(String appId) {
      return new Target(appId, Optional.empty(), Optional.empty(), Optional.empty(), Set.of());
    }

    /** The application, with what its Spark properties say about its pods. */
    public static Target of(String appId, Map<String, String> sparkProperties, Set<String> executorIds) {
      return new Target(appId, nonBlank(sparkProperties.get("spark.kubernetes.namespace")),
          nonBlank(sparkProperties.get("spark.kubernetes.driver.pod.name")),
          nonBlank(sparkProperties.get("spark.kubernetes.executor.podNamePrefix")), executorIds);
    }

    public Target withPodNamePrefix(String prefix) {
      return new Target(appId, namespace, driverPod, nonBlank(prefix), executorIds);
    }

    private static Optional<String> nonBlank(String s) {
      return Optional.ofNullable(s).map(String::trim).filter(x -> !x.isEmpty());
    }
  }

  /** The API server, as reports show it. */
  public String server() {
    return server;
  }

  /**
   * The namespace read for {@code target}: the settings', else the application's ({@code
   * spark.kubernetes.namespace}), else the kubeconfig context's, else {@code default}.
   */
  public String namespace(Target target) {
    return settings.namespace().or(target::namespace).or(() -> contextNamespace).orElse("default");
  }

  /** The application's pods with their containers' records, their nodes and its SparkApplication. */
  public PodsView pods(Target target) {
    List<EvidenceGap> gaps = new ArrayList<>();
    String ns = namespace(target);
    Reader r = new Reader(client, settings, server, ns, target, gaps);
    List<PodInfo> pods = r.pods();
    List<SparkApplicationInfo> apps = r.applications();
    List<NodeInfo> nodes = r.nodes();
    List<String> notes = new ArrayList<>(r.notes());
    r.missingNodes().forEach(n -> notes.add("node " + n + " no longer exists"));
    goneGap(r, target, ns, List.of()).ifPresent(gaps::add);
    return new PodsView(server, ns, target.appId(), pods, nodes, apps, gaps, notes);
  }

  /** The events about the application's pods, their nodes and its SparkApplication, oldest first. */
  public EventsView events(Target target) {
    List<EvidenceGap> gaps = new ArrayList<>();
    String ns = namespace(target);
    Reader r = new Reader(client, settings, server, ns, target, gaps);
    List<EventInfo> events = r.events();
    goneGap(r, target, ns, events).ifPresent(gaps::add);
    if (events.isEmpty() && r.calls().gaps().stream().noneMatch(g -> g.uri().contains("/events"))) {
      gaps.add(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, server + "/api/v1/namespaces/" + ns + "/events",
          GapReason.NOT_FOUND, "no event about the application's pods remains in namespace " + ns,
          "the API server keeps events for about an hour (--event-ttl); export them (an event exporter to your "
              + "logging system) to keep them for analysis"));
    }
    return new EventsView(server, ns, target.appId(), events, gaps, r.notes());
  }

  /**
   * The log tails of the application's driver and failed executors (or of one executor, {@code
   * "driver"} for the driver), the previous run's too after a restart, scanned with the standard
   * signatures; {@code previousOnly} reads only previous runs.
   */
  public LogsView logs(Target target, Optional<String> executorId, boolean previousOnly) {
    List<EvidenceGap> gaps = new ArrayList<>();
    String ns = namespace(target);
    Reader r = new Reader(client, settings, server, ns, target, gaps);
    List<LogTail> logs = new ArrayList<>();
    List<PodInfo> pods = r.logPods(executorId);
    for (PodInfo p : pods) {
      logs.addAll(r.logs(p, previousOnly, LogSignatures.standard()));
    }
    goneGap(r, target, ns, List.of()).ifPresent(gaps::add);
    if (pods.isEmpty() && !r.pods().isEmpty()) {
      gaps.add(new EvidenceGap(executorId.isPresent() ? EvidenceKind.EXECUTOR_LOGS : EvidenceKind.DRIVER_LOG, server, GapReason.NOT_FOUND,
          executorId.map(id -> "no pod of the application is executor " + id)
              .orElse("neither the driver's pod nor a failed executor's pod is there"),
          executorId.isPresent() ? "list the pods to see which executors have one" : "name an executor to read its log"));
    }
    return new LogsView(server, ns, target.appId(), logs, gaps);
  }

  /**
   * Everything, as evidence for an analysis: the records ({@link ClusterEvent}s with the pod, node,
   * container, times and memory limit), the log tails scanned with {@code signatures}, and the gaps.
   */
  public ClusterEvidenceProvider.ClusterEvidence evidence(Target target, LogSignatures signatures) {
    List<EvidenceGap> gaps = new ArrayList<>();
    String ns = namespace(target);
    Reader r = new Reader(client, settings, server, ns, target, gaps);
    List<PodInfo> pods = r.pods();
    List<SparkApplicationInfo> apps = r.applications();
    List<NodeInfo> nodes = r.nodes();
    List<EventInfo> events = r.events();
    List<LogEvidence> logs = new ArrayList<>();
    for (PodInfo p : r.logPods(Optional.empty())) {
      r.logs(p, false, signatures).forEach(t -> logs.add(t.scan()));
    }
    goneGap(r, target, ns, events).ifPresent(gaps::add);
    List<ClusterEvent> records = Records.of(ns, pods, nodes, r.missingNodes(), events, apps, r.podNames());
    return new ClusterEvidenceProvider.ClusterEvidence(records, logs, gaps);
  }

  /** The gap for pods that are gone: none of them, or those of executors the event log knows. */
  private Optional<EvidenceGap> goneGap(Reader r, Target target, String ns, List<EventInfo> events) {
    if (!r.podsListed()) {
      return Optional.empty();
    }
    String uri = server + "/api/v1/namespaces/" + ns + "/pods?labelSelector=spark-app-selector=" + target.appId();
    String keep = "to keep them, run with spark.kubernetes.executor.deleteOnTermination=false, and export the "
        + "cluster's events (an event exporter to your logging system): the API server keeps events for about an hour";
    long remaining = events.stream().filter(e -> e.involvedKind().equals("Pod")).count();
    if (r.pods().isEmpty()) {
      return Optional.of(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, uri, GapReason.NOT_FOUND,
          "no pod in namespace " + ns + " has label spark-app-selector=" + target.appId() + ": the application's pods "
              + "are deleted (or it ran in another namespace or cluster)"
              + (remaining > 0 ? "; " + remaining + " event(s) about them remain" : ""),
          "check the namespace and context; " + keep));
    }
    Set<String> present = new TreeSet<>();
    r.pods().forEach(p -> p.executorId().ifPresent(present::add));
    List<String> gone = target.executorIds().stream().filter(id -> !present.contains(id))
        .sorted(java.util.Comparator.comparingLong(SparkPods::number)).toList();
    if (!gone.isEmpty()) {
      return Optional.of(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, uri, GapReason.PARTIAL,
          "the pods of executor(s) " + String.join(", ", gone.subList(0, Math.min(20, gone.size())))
              + (gone.size() > 20 ? " and " + (gone.size() - 20) + " more" : "")
              + " are gone: Spark deletes an executor's pod when the executor is removed", keep));
    }
    return Optional.empty();
  }

  private static long number(String id) {
    try {
      return Long.parseLong(id);
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public void close() {
    if (owned) {
      client.close();
    }
  }
}
