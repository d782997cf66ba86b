package io.sparkrca.kubernetes.testing;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.model.ExecutorSummary;
import io.sparkrca.core.testkit.TestkitFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes objects a real testkit run would have left on a cluster: the driver and executor
 * pods Spark names and labels ({@code <prefix>-driver}, {@code <prefix>-exec-<id>}, {@code
 * spark-app-selector}, {@code spark-role}, {@code spark-exec-id}), with the executor ids, hosts
 * (as node names), start and end times of the real run: an executor's pod starts when the event
 * log adds it and ends when its worker saw the process exit (the driver log's {@code Worker:
 * Executor .../N finished with state EXITED} line, in the driver's time zone); the memory request
 * and limit are Spark's own sizing for Kubernetes (heap plus {@code max(384m, 10%)} overhead).
 * Each container's log is the run's own log. What the test varies is how the cluster saw a lost
 * executor end ({@link Fate}), and whether its pod is still there.
 *
 * <pre>{@code
 * FixtureCluster c = FixtureCluster.of(TestkitFixtures.get("3.5.9", "executor-lost-fetch-failure"))
 *     .fate("1", FixtureCluster.Fate.OOM_KILLED);
 * c.populate(api, settings.logTailLines());
 * }</pre>
 */
public final class FixtureCluster {
  public static final String NAMESPACE = "spark";
  private static final Pattern WORKER_EXIT = Pattern.compile(
      "^(\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d) INFO Worker: Executor \\S+/(\\S+) finished with state EXITED .*exitStatus (\\d+)");
  private static final Pattern LOG_TIME = Pattern.compile("^(\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d) ");
  private static final DateTimeFormatter SPARK_TIME = DateTimeFormatter.ofPattern("yy/MM/dd HH:mm:ss", Locale.ROOT);

  /** How the cluster recorded a lost executor's end. */
  public enum Fate {
    /** The kernel's OOM killer ended the container at its memory limit: OOMKilled, exit 137. */
    OOM_KILLED,
    /** Something sent SIGKILL, not the OOM killer: Error, exit 137. */
    ERROR_137,
    /** The process exited on its own with the event log's exit code: Error, exit N. */
    ERROR_EXIT,
    /** The kubelet evicted the pod under node memory pressure (SIGTERM, exit 143). */
    EVICTED
  }

  private final TestkitFixtures.Fixture fixture;
  private final SparkApplication app;
  private final ZoneId zone;
  private final String prefix;
  private final Map<String, Fate> fates = new LinkedHashMap<>();
  private final Set<String> deleted = new HashSet<>();
  private final Map<String, String> placement = new LinkedHashMap<>();
  private final Set<String> notReady = new HashSet<>();
  private final Map<String, Instant> exits = new LinkedHashMap<>();
  private Optional<Fate> driverFate = Optional.empty();
  private Optional<String> clientModeDriver = Optional.empty();
  private Optional<String> operatorApp = Optional.empty();

  private FixtureCluster(TestkitFixtures.Fixture fixture) {
    this.fixture = fixture;
    this.app = EventLogs.replay(fixture.eventLog());
    this.zone = app.environment().flatMap(e -> e.systemProperties().stream()
        .filter(p -> p.getKey().equals("user.timezone")).findFirst()).map(p -> ZoneId.of(p.getValue()))
        .orElse(ZoneId.of("UTC"));
    String name = app.info().name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-");
    // Spark's resource name prefix: the app name, then 3 random bytes and the launch time in hex.
    this.prefix = name + "-" + String.format("%06x", app.info().id().hashCode() & 0xFFFFFF)
        + Long.toHexString(app.info().latestAttempt().startTimeEpoch() & 0xFFFFFFFFFFL);
    for (String line : lines(fixture.driverLog())) {
      Matcher m = WORKER_EXIT.matcher(line);
      if (m.find()) {
        exits.put(m.group(2), time(m.group(1)));
      }
    }
  }

  public static FixtureCluster of(TestkitFixtures.Fixture fixture) {
    return new FixtureCluster(fixture);
  }

  /** How the cluster saw executor {@code id} end. */
  public FixtureCluster fate(String id, Fate fate) {
    fates.put(id, fate);
    return this;
  }

  /** The driver's pod ended this way at the end of the driver's log. */
  public FixtureCluster driverFate(Fate fate) {
    this.driverFate = Optional.of(fate);
    return this;
  }

  /**
   * The driver ran in client mode in a pod of its own controller ({@code restartPolicy: Always},
   * no Spark labels), named {@code podName}, which restarted once after the fate: the run's log is
   * its previous container's.
   */
  public FixtureCluster clientModeDriver(String podName) {
    this.clientModeDriver = Optional.of(podName);
    return this;
  }

  /**
   * The Spark Operator launched the run as SparkApplication {@code name}: its pods carry the
   * operator's label, and the SparkApplication's status records the driver and executors' ends.
   */
  public FixtureCluster launchedByOperator(String name) {
    this.operatorApp = Optional.of(name);
    return this;
  }

  /**
   * These executors' pods ran on node {@code node} instead of on their event-log host (a
   * local-cluster run puts every worker on localhost; a cluster spreads them over nodes).
   */
  public FixtureCluster place(String node, String... ids) {
    for (String id : ids) {
      placement.put(id, node);
    }
    return this;
  }

  /**
   * Node {@code node} went NotReady when the first executor placed on it was lost: its Ready
   * condition is False since then and the node controller recorded a NodeNotReady event.
   */
  public FixtureCluster notReady(String node) {
    notReady.add(node);
    return this;
  }

  /** These executors' pods were deleted (Spark's default); their events remain. */
  public FixtureCluster deleted(String... ids) {
    deleted.addAll(List.of(ids));
    return this;
  }

  public SparkApplication app() {
    return app;
  }

  public String appId() {
    return app.info().id();
  }

  public String executorPod(String id) {
    return prefix + "-exec-" + id;
  }

  public String driverPod() {
    return clientModeDriver.orElse(prefix + "-driver");
  }

  /** The node executor {@code id} ran on: where it was {@link #place placed}, else its host in the event log. */
  public String node(String id) {
    return placement.getOrDefault(id, executor(id).hostPort().replaceAll(":\\d+$", ""));
  }

  /** When executor {@code id}'s process exited, as its worker logged it (second precision, as the kubelet). */
  public Instant exitTime(String id) {
    return Optional.ofNullable(exits.get(id)).orElseGet(() -> executor(id).removeTime()
        .orElseThrow(() -> new IllegalArgumentException("executor " + id + " did not end")).truncatedTo(ChronoUnit.SECONDS));
  }

  /** When the event log records executor {@code id}'s removal. */
  public Instant removalTime(String id) {
    return executor(id).removeTime().orElseThrow();
  }

  /** When the driver's log ends (where a killed driver died). */
  public Instant driverEnd() {
    Instant last = Instant.ofEpochMilli(app.info().latestAttempt().startTimeEpoch());
    for (String l : lines(fixture.driverLog())) {
      Matcher m = LOG_TIME.matcher(l);
      if (m.find()) {
        last = time(m.group(1));
      }
    }
    return last;
  }

  /** The memory limit Spark sets on an executor pod: spark.executor.memory plus max(384m, 10%). */
  public long executorMemoryLimit() {
    long heap = size(property("spark.executor.memory").orElse("1g"));
    return heap + Math.max(384L << 20, heap / 10);
  }

  private long driverMemoryLimit() {
    long heap = size(property("spark.driver.memory").orElse("1g"));
    return heap + Math.max(384L << 20, heap / 10);
  }

  /** Creates the pods, nodes, events and logs on {@code api}, logs served for {@code tailLines}. */
  public void populate(ApiServer api, int tailLines) {
    Set<String> nodes = new java.util.LinkedHashSet<>();
    Instant start = Instant.ofEpochMilli(app.info().latestAttempt().startTimeEpoch()).truncatedTo(ChronoUnit.SECONDS);
    Instant end = app.info().latestAttempt().completed()
        ? app.info().latestAttempt().endTime().truncatedTo(ChronoUnit.SECONDS) : driverEnd();
    String driverNode = app.executors(false).stream().filter(e -> e.id().equals("driver")).findFirst()
        .map(e -> e.hostPort().replaceAll(":\\d+$", "")).orElse("localhost");
    nodes.add(driverNode);
    // The driver's pod.
    String driverLog = text(fixture.driverLog()) + text(fixture.dir().resolve("driver-stdout.log"));
    int driverExit = fixture.label().path("application").path("driverExitCode").asInt(0);
    Fate df = driverFate.orElse(driverExit == 0 ? null : Fate.ERROR_EXIT);
    Instant driverStop = df == null ? end : driverEnd();
    if (clientModeDriver.isPresent()) {
      Instant restarted = driverStop.plusSeconds(1);
      api.create(pod(driverPod(), Map.of(), "driver", driverNode, start, driverMemoryLimit(), "Always", 1,
          running(restarted), terminated(start, driverStop, reason(df, driverExit), exit(df, driverExit)),
          "Running", null, null, null));
      api.log(NAMESPACE, driverPod(), "driver", false, tailLines, "");
      api.log(NAMESPACE, driverPod(), "driver", true, tailLines, driverLog);
    } else {
      api.create(pod(driverPod(), labels("driver", null), "spark-kubernetes-driver", driverNode, start,
          driverMemoryLimit(), "Never", 0, null, null, df == null ? "Succeeded" : "Failed", null, null,
          terminated(start, driverStop, df == null ? "Completed" : reason(df, driverExit), df == null ? 0 : exit(df, driverExit))));
      api.log(NAMESPACE, driverPod(), "spark-kubernetes-driver", false, tailLines, driverLog);
      api.noPreviousLog(NAMESPACE, driverPod(), "spark-kubernetes-driver", tailLines);
    }
    event(api, driverPod(), "Pod", "Normal", "Scheduled", "Successfully assigned " + NAMESPACE + "/" + driverPod()
        + " to " + driverNode, start, "default-scheduler");
    // The executors' pods.
    for (ExecutorSummary e : app.executors(false)) {
      if (e.id().equals("driver")) {
        continue;
      }
      String id = e.id();
      String pod = executorPod(id);
      String node = node(id);
      nodes.add(node);
      Instant added = e.addTime().truncatedTo(ChronoUnit.SECONDS);
      Fate fate = fates.get(id);
      int logged = e.removeReason().map(FixtureCluster::exitCode).orElse(0);
      Instant stopped = e.removeTime().isPresent() ? exitTime(id) : end;
      event(api, pod, "Pod", "Normal", "Scheduled", "Successfully assigned " + NAMESPACE + "/" + pod + " to " + node,
          added, "default-scheduler");
      event(api, pod, "Pod", "Normal", "Started", "Started container spark-kubernetes-executor", added, "kubelet");
      if (fate == Fate.EVICTED) {
        event(api, pod, "Pod", "Warning", "Evicted", evictionMessage(), stopped, "kubelet");
        event(api, node, "Node", "Warning", "EvictionThresholdMet", "Attempting to reclaim memory", stopped, "kubelet");
      }
      if (deleted.contains(id)) {
        event(api, pod, "Pod", "Normal", "Killing", "Stopping container spark-kubernetes-executor",
            e.removeTime().orElse(end).truncatedTo(ChronoUnit.SECONDS), "kubelet");
        continue;
      }
      String reason = fate == null ? (logged == 0 ? "Completed" : "Error") : reason(fate, logged);
      int code = fate == null ? logged : exit(fate, logged);
      api.create(pod(pod, labels("executor", id), "spark-kubernetes-executor", node, added, executorMemoryLimit(),
          "Never", 0, null, null, fate == Fate.EVICTED ? "Failed" : code == 0 ? "Succeeded" : "Failed",
          fate == Fate.EVICTED ? "Evicted" : null, fate == Fate.EVICTED ? evictionMessage() : null,
          terminated(added, stopped, reason, code)));
      Path stderr = fixture.dir().resolve("executor-logs/" + id + ".stderr");
      Path stdout = fixture.dir().resolve("executor-logs/" + id + ".stdout");
      // A container's log is its stdout and stderr together; the JVM's last words went to stdout.
      api.log(NAMESPACE, pod, "spark-kubernetes-executor", false, tailLines, text(stderr) + text(stdout));
      api.noPreviousLog(NAMESPACE, pod, "spark-kubernetes-executor", tailLines);
    }
    operatorApp.ifPresent(name -> api.createSparkApplication(sparkApplication(name, df, driverExit, end)));
    for (String n : nodes) {
      boolean pressure = fates.entrySet().stream().anyMatch(x -> x.getValue() == Fate.EVICTED
          && node(x.getKey()).equals(n));
      Instant since = pressure ? fates.entrySet().stream().filter(x -> x.getValue() == Fate.EVICTED)
          .map(x -> exitTime(x.getKey())).min(Instant::compareTo).orElseThrow() : start.minus(1, ChronoUnit.DAYS);
      Optional<Instant> down = notReady.contains(n) ? fates.keySet().stream().filter(x -> node(x).equals(n))
          .map(this::exitTime).min(Instant::compareTo) : Optional.empty();
      api.create(node(n, pressure, since, start.minus(1, ChronoUnit.DAYS), down));
      down.ifPresent(t -> event(api, n, "Node", "Normal", "NodeNotReady", "Node " + n + " status is now: NodeNotReady",
          t, "node-controller"));
    }
  }

  /** The SparkApplication as the operator's status records the run (v1beta2). */
  private io.fabric8.kubernetes.api.model.GenericKubernetesResource sparkApplication(String name, Fate driverFate,
      int driverExit, Instant end) {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("state", driverFate == null ? "COMPLETED" : "FAILED");
    if (driverFate != null) {
      state.put("errorMessage", "driver container failed with ExitCode: " + exit(driverFate, driverExit) + ", Reason: "
          + reason(driverFate, driverExit));
    }
    Map<String, Object> executors = new LinkedHashMap<>();
    for (ExecutorSummary e : app.executors(false)) {
      if (!e.id().equals("driver")) {
        executors.put(executorPod(e.id()), fates.containsKey(e.id()) ? "FAILED" : "COMPLETED");
      }
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("applicationState", state);
    status.put("sparkApplicationId", appId());
    status.put("driverInfo", Map.of("podName", driverPod()));
    status.put("executorState", executors);
    status.put("submissionAttempts", 1);
    status.put("terminationTime", end.toString());
    io.fabric8.kubernetes.api.model.GenericKubernetesResource r = new io.fabric8.kubernetes.api.model
        .GenericKubernetesResourceBuilder().withApiVersion("sparkoperator.k8s.io/v1beta2").withKind("SparkApplication")
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata().build();
    r.setAdditionalProperty("spec", Map.of("type", "Scala", "mode", "cluster", "sparkVersion", fixture.label().path("sparkVersion").asText()));
    r.setAdditionalProperty("status", status);
    return r;
  }

  private static String evictionMessage() {
    return "The node was low on resource: memory. Threshold quantity: 100Mi, available: 93Mi. Container "
        + "spark-kubernetes-executor was using 921Mi, request is 896Mi, has larger consumption of memory.";
  }

  private static String reason(Fate f, int logged) {
    return switch (f) {
      case OOM_KILLED -> "OOMKilled";
      case ERROR_137, ERROR_EXIT, EVICTED -> "Error";
    };
  }

  private static int exit(Fate f, int logged) {
    return switch (f) {
      case OOM_KILLED, ERROR_137 -> 137;
      case ERROR_EXIT -> logged;
      case EVICTED -> 143;
    };
  }

  private Map<String, String> labels(String role, String id) {
    Map<String, String> l = new LinkedHashMap<>();
    l.put("spark-app-selector", appId());
    l.put("spark-role", role);
    l.put("spark-app-name", app.info().name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-"));
    operatorApp.ifPresent(n -> l.put("sparkoperator.k8s.io/app-name", n));
    if (id != null) {
      l.put("spark-exec-id", id);
      l.put("spark-exec-resourceprofile-id", "0");
    }
    return l;
  }

  private static Pod pod(String name, Map<String, String> labels, String container, String node, Instant start,
      long memory, String restartPolicy, int restarts, io.fabric8.kubernetes.api.model.ContainerState running,
      io.fabric8.kubernetes.api.model.ContainerState last, String phase, String reason, String message,
      io.fabric8.kubernetes.api.model.ContainerState terminated) {
    Quantity mem = new Quantity(Long.toString(memory >> 20), "Mi");
    PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).withLabels(labels).endMetadata()
        .withNewSpec().withNodeName(node).withRestartPolicy(restartPolicy).addNewContainer().withName(container)
        .withImage("apache/spark:4.0.0").withNewResources().addToRequests("memory", mem).addToLimits("memory", mem)
        .addToRequests("cpu", new Quantity("1")).endResources().endContainer().endSpec();
    var status = new ContainerStatusBuilder().withName(container).withImage("apache/spark:4.0.0")
        .withRestartCount(restarts).withState(running != null ? running : terminated).withLastState(last).build();
    b.withNewStatus().withPhase(phase).withReason(reason).withMessage(message).withHostIP("10.0.0.1")
        .withStartTime(start.toString()).withQosClass("Burstable").withContainerStatuses(status)
        .addAllToConditions(reason != null && reason.equals("Evicted") && terminated != null
            ? List.of(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
                .withReason("TerminationByKubelet").withMessage(message)
                .withLastTransitionTime(terminated.getTerminated().getFinishedAt()).build()) : List.of())
        .endStatus();
    return b.build();
  }

  private static io.fabric8.kubernetes.api.model.ContainerState terminated(Instant started, Instant finished,
      String reason, int code) {
    return new ContainerStateBuilder().withNewTerminated().withReason(reason).withExitCode(code)
        .withStartedAt(started.toString()).withFinishedAt(finished.toString()).endTerminated().build();
  }

  private static io.fabric8.kubernetes.api.model.ContainerState running(Instant running) {
    return new ContainerStateBuilder().withNewRunning().withStartedAt(running.toString()).endRunning().build();
  }

  private static io.fabric8.kubernetes.api.model.Node node(String name, boolean memoryPressure, Instant since,
      Instant created, Optional<Instant> notReadySince) {
    List<NodeCondition> c = new ArrayList<>();
    c.add(condition("MemoryPressure", memoryPressure ? "True" : "False",
        memoryPressure ? "KubeletHasInsufficientMemory" : "KubeletHasSufficientMemory",
        memoryPressure ? "kubelet has insufficient memory available" : "kubelet has sufficient memory available", since));
    c.add(condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", created));
    c.add(condition("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", created));
    c.add(notReadySince.isPresent()
        ? condition("Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", notReadySince.get())
        : condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", created));
    return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
        .withNewSpec().endSpec().withNewStatus().withConditions(c)
        .addToCapacity("memory", new Quantity("2Gi")).addToAllocatable("memory", new Quantity("2Gi")).endStatus().build();
  }

  private static NodeCondition condition(String type, String status, String reason, String message, Instant since) {
    return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
        .withLastTransitionTime(since.toString()).withLastHeartbeatTime(since.toString()).build();
  }

  private static void event(ApiServer api, String name, String kind, String type, String reason, String message,
      Instant at, String component) {
    String ns = kind.equals("Node") ? "default" : NAMESPACE;
    api.create(new EventBuilder().withNewMetadata().withName(name + "." + Long.toHexString(at.toEpochMilli())
            + reason.toLowerCase(Locale.ROOT)).withNamespace(ns).endMetadata()
        .withNewInvolvedObject().withKind(kind).withName(name).withNamespace(kind.equals("Node") ? null : NAMESPACE)
        .withApiVersion("v1").endInvolvedObject().withType(type).withReason(reason).withMessage(message).withCount(1)
        .withFirstTimestamp(at.toString()).withLastTimestamp(at.toString()).withNewSource().withComponent(component)
        .endSource().build());
  }

  private ExecutorSummary executor(String id) {
    return app.executors(false).stream().filter(e -> e.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no executor " + id + " in " + fixture.scenario()));
  }

  private Optional<String> property(String key) {
    return app.environment().flatMap(e -> e.sparkProperties().stream().filter(p -> p.getKey().equals(key)).findFirst())
        .map(Map.Entry::getValue);
  }

  private static long size(String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    long mult = t.endsWith("g") ? 1L << 30 : t.endsWith("m") ? 1L << 20 : t.endsWith("k") ? 1L << 10 : 1;
    return Long.parseLong(t.replaceAll("[a-z]+$", "")) * mult;
  }

  private static int exitCode(String reason) {
    Matcher m = Pattern.compile("code (\\d+)").matcher(reason);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  private Instant time(String sparkTime) {
    return LocalDateTime.parse(sparkTime, SPARK_TIME).atZone(zone).toInstant();
  }

  private static List<String> lines(Path p) {
    return List.of(text(p).split("\n"));
  }

  private static String text(Path p) {
    try {
      return Files.isRegularFile(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
