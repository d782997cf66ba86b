package io.sparkrca.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.ContainerInfo;
import io.sparkrca.kubernetes.EventInfo;
import io.sparkrca.kubernetes.NodeInfo;
import io.sparkrca.kubernetes.PodInfo;
import io.sparkrca.kubernetes.SparkApplicationInfo;
import io.sparkrca.kubernetes.Termination;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns the API server's objects (fabric8's model) into this module's records, redacting messages. */
public final class Mapping {
  /** Spark's labels on the pods it creates. */
  public static final String APP_SELECTOR = "spark-app-selector";
  public static final String ROLE = "spark-role";
  public static final String EXEC_ID = "spark-exec-id";
  /** The Spark Operator's labels. */
  public static final String OPERATOR_APP = "sparkoperator.k8s.io/app-name";
  private static final List<String> KEPT_LABELS = List.of(APP_SELECTOR, ROLE, EXEC_ID, "spark-app-name",
      "spark-exec-resourceprofile-id", OPERATOR_APP, "sparkoperator.k8s.io/submission-id",
      "sparkoperator.k8s.io/launched-by-spark-operator");
  private static final List<String> NODE_LABELS = List.of("node.kubernetes.io/instance-type",
      "topology.kubernetes.io/zone", "kubernetes.io/hostname", "cloud.google.com/gke-spot",
      "cloud.google.com/gke-preemptible", "cloud.google.com/gke-nodepool", "eks.amazonaws.com/capacityType",
      "karpenter.sh/capacity-type", "kubernetes.azure.com/scalesetpriority");

  private Mapping() {}

  /** A pod, with its role and executor id from Spark's labels (or {@code driverPod}'s name). */
  public static PodInfo pod(Pod p, Optional<String> driverPod) {
    Map<String, String> labels = p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels();
    String name = p.getMetadata().getName();
    String role = labels.getOrDefault(ROLE, driverPod.map(name::equals).orElse(false) ? "driver" : "other");
    if (!role.equals("driver") && !role.equals("executor")) {
      role = driverPod.map(name::equals).orElse(false) ? "driver" : "other";
    }
    Optional<String> exec = role.equals("driver") ? Optional.of("driver") : Optional.ofNullable(labels.get(EXEC_ID));
    Map<String, String> kept = new LinkedHashMap<>();
    for (String k : KEPT_LABELS) {
      if (labels.containsKey(k)) {
        kept.put(k, labels.get(k));
      }
    }
    var status = p.getStatus();
    var spec = p.getSpec();
    Map<String, ResourceRequirements> resources = new LinkedHashMap<>();
    List<String> order = new ArrayList<>();
    if (spec != null && spec.getContainers() != null) {
      for (Container c : spec.getContainers()) {
        resources.put(c.getName(), c.getResources());
        order.add(c.getName());
      }
    }
    Map<String, ContainerStatus> statuses = new LinkedHashMap<>();
    if (status != null && status.getContainerStatuses() != null) {
      for (ContainerStatus cs : status.getContainerStatuses()) {
        statuses.put(cs.getName(), cs);
        if (!order.contains(cs.getName())) {
          order.add(cs.getName());
        }
      }
    }
    List<ContainerInfo> containers = new ArrayList<>();
    for (String c : order) {
      containers.add(container(c, resources.get(c), statuses.get(c)));
    }
    String disruption = "";
    Optional<Instant> disruptedAt = Optional.empty();
    if (status != null && status.getConditions() != null) {
      for (PodCondition c : status.getConditions()) {
        if ("DisruptionTarget".equals(c.getType()) && "True".equals(c.getStatus())) {
          disruption = text(c.getReason()) + (c.getMessage() == null ? "" : ": " + text(c.getMessage()));
          disruptedAt = time(c.getLastTransitionTime());
        }
      }
    }
    return new PodInfo(text(p.getMetadata().getNamespace()), name, role, exec,
        status == null ? "Unknown" : text(status.getPhase()), status == null ? "" : text(status.getReason()),
        status == null ? "" : text(status.getMessage()),
        Optional.ofNullable(spec == null ? null : spec.getNodeName()).filter(n -> !n.isBlank()),
        status == null ? Optional.empty() : time(status.getStartTime()), time(p.getMetadata().getDeletionTimestamp()),
        disruption, disruptedAt, status == null ? "" : text(status.getQosClass()),
        spec == null ? "" : text(spec.getRestartPolicy()), kept, containers);
  }

  private static ContainerInfo container(String name, ResourceRequirements r, ContainerStatus cs) {
    String state = "unknown";
    String reason = "";
    Optional<Instant> since = Optional.empty();
    Optional<Termination> terminated = Optional.empty();
    Optional<Termination> last = Optional.empty();
    String image = "";
    int restarts = 0;
    if (cs != null) {
      image = text(cs.getImage());
      restarts = cs.getRestartCount() == null ? 0 : cs.getRestartCount();
      ContainerState s = cs.getState();
      if (s != null && s.getTerminated() != null) {
        state = "terminated";
        terminated = Optional.of(termination(s.getTerminated()));
      } else if (s != null && s.getRunning() != null) {
        state = "running";
        since = time(s.getRunning().getStartedAt());
      } else if (s != null && s.getWaiting() != null) {
        state = "waiting";
        reason = text(s.getWaiting().getReason());
      }
      if (cs.getLastState() != null && cs.getLastState().getTerminated() != null) {
        last = Optional.of(termination(cs.getLastState().getTerminated()));
      }
    }
    return new ContainerInfo(name, image, restarts, state, reason, since, terminated, last,
        bytes(r, true, "memory"), bytes(r, false, "memory"), raw(r, true, "cpu"), raw(r, false, "cpu"));
  }

  private static Termination termination(ContainerStateTerminated t) {
    return new Termination(text(t.getReason()), t.getExitCode() == null ? 0 : t.getExitCode(),
        Optional.ofNullable(t.getSignal()).filter(x -> x != 0), time(t.getStartedAt()), time(t.getFinishedAt()),
        text(t.getMessage()));
  }

  private static Optional<Long> bytes(ResourceRequirements r, boolean request, String resource) {
    Map<String, Quantity> m = r == null ? null : request ? r.getRequests() : r.getLimits();
    if (m == null || m.get(resource) == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Quantity.getAmountInBytes(m.get(resource)).longValue());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String raw(ResourceRequirements r, boolean request, String resource) {
    Map<String, Quantity> m = r == null ? null : request ? r.getRequests() : r.getLimits();
    return m == null || m.get(resource) == null ? "" : m.get(resource).toString();
  }

  /** A node and its conditions. */
  public static NodeInfo node(Node n) {
    List<NodeInfo.Condition> conditions = new ArrayList<>();
    var status = n.getStatus();
    if (status != null && status.getConditions() != null) {
      for (NodeCondition c : status.getConditions()) {
        conditions.add(new NodeInfo.Condition(text(c.getType()), text(c.getStatus()), text(c.getReason()),
            text(c.getMessage()), time(c.getLastTransitionTime())));
      }
    }
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, String> all = n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
    for (String k : NODE_LABELS) {
      if (all.containsKey(k)) {
        labels.put(k, all.get(k));
      }
    }
    Optional<Long> capacity = Optional.empty();
    Optional<Long> allocatable = Optional.empty();
    if (status != null) {
      capacity = quantity(status.getCapacity(), "memory");
      allocatable = quantity(status.getAllocatable(), "memory");
    }
    boolean unschedulable = n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
    return new NodeInfo(n.getMetadata().getName(), conditions, capacity, allocatable, unschedulable, labels,
        time(n.getMetadata().getCreationTimestamp()));
  }

  private static Optional<Long> quantity(Map<String, Quantity> m, String key) {
    if (m == null || m.get(key) == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Quantity.getAmountInBytes(m.get(key)).longValue());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A core v1 event. */
  public static EventInfo event(Event e) {
    var ref = e.getInvolvedObject();
    String source = "";
    if (e.getSource() != null) {
      source = text(e.getSource().getComponent()) + (e.getSource().getHost() == null ? "" : " on " + e.getSource().getHost());
    }
    if (source.isEmpty() && e.getReportingComponent() != null) {
      source = e.getReportingComponent();
    }
    Optional<Instant> first = time(e.getFirstTimestamp());
    Optional<Instant> last = time(e.getLastTimestamp());
    if (first.isEmpty() && e.getEventTime() != null) {
      first = time(e.getEventTime().getTime());
    }
    if (e.getSeries() != null && e.getSeries().getLastObservedTime() != null) {
      Optional<Instant> observed = time(e.getSeries().getLastObservedTime().getTime());
      if (observed.isPresent()) {
        last = observed;
      }
    }
    int count = e.getCount() != null ? e.getCount() : e.getSeries() != null && e.getSeries().getCount() != null
        ? e.getSeries().getCount() : 1;
    return new EventInfo(text(e.getMetadata().getNamespace()), text(e.getMetadata().getName()),
        ref == null ? "" : text(ref.getKind()), ref == null ? "" : text(ref.getName()), text(e.getType()),
        text(e.getReason()), text(e.getMessage()), count, first, last, source);
  }

  /** A Spark Operator SparkApplication, from its status. */
  @SuppressWarnings("unchecked")
  public static SparkApplicationInfo sparkApplication(GenericKubernetesResource r) {
    Map<String, Object> status = r.getAdditionalProperties().get("status") instanceof Map<?, ?> m
        ? (Map<String, Object>) m : Map.of();
    Map<String, Object> state = status.get("applicationState") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    Map<String, Object> driver = status.get("driverInfo") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    Map<String, String> executors = new LinkedHashMap<>();
    if (status.get("executorState") instanceof Map<?, ?> m) {
      m.forEach((k, v) -> executors.put(String.valueOf(k), String.valueOf(v)));
    }
    int attempts = status.get("submissionAttempts") instanceof Number n ? n.intValue() : 0;
    return new SparkApplicationInfo(text(r.getMetadata().getNamespace()), r.getMetadata().getName(),
        text(asString(state.get("state"))), text(asString(state.get("errorMessage"))),
        Optional.ofNullable(asString(status.get("sparkApplicationId"))).filter(x -> !x.isBlank()),
        Optional.ofNullable(asString(driver.get("podName"))).filter(x -> !x.isBlank()), executors, attempts,
        time(asString(status.get("terminationTime"))));
  }

  private static String asString(Object o) {
    return o == null ? null : String.valueOf(o);
  }

  /** An RFC 3339 time, as the API server writes them; empty when absent or unreadable. */
  public static Optional<Instant> time(String t) {
    if (t == null || t.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(OffsetDateTime.parse(t.trim()).toInstant());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A value from the API server, redacted; "" for null. */
  static String text(String s) {
    return s == null ? "" : Redactor.standard().redactText(s.strip());
  }
}
