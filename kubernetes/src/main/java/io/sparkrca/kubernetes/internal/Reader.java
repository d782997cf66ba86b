package io.sparkrca.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.sparkrca.core.evidence.EvidenceGap;
import io.sparkrca.core.evidence.EvidenceKind;
import io.sparkrca.core.evidence.GapReason;
import io.sparkrca.core.evidence.LogEvidence;
import io.sparkrca.core.evidence.LogRole;
import io.sparkrca.core.evidence.LogSignatures;
import io.sparkrca.core.io.ByteSource;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.kubernetes.ContainerInfo;
import io.sparkrca.kubernetes.EventInfo;
import io.sparkrca.kubernetes.KubernetesSettings;
import io.sparkrca.kubernetes.LogTail;
import io.sparkrca.kubernetes.NodeInfo;
import io.sparkrca.kubernetes.PodInfo;
import io.sparkrca.kubernetes.SparkApplicationInfo;
import io.sparkrca.kubernetes.SparkPods;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the API server holds about one Spark application, with get and list requests only:
 * its pods (by Spark's labels, and a client-mode driver's pod by name), its SparkApplication, the
 * nodes its pods ran on, the events about them, and the tails of the driver's and failed
 * executors' logs. Each request that fails becomes a gap; the time budget bounds the whole read.
 */
public final class Reader {
  /** The events kept per namespace, after filtering to the application's objects. */
  static final int MAX_KEPT_EVENTS = 1000;
  private static final int PAGE = 500;
  /** The SparkApplications searched for the application's when no pod names it. */
  static final int MAX_LISTED_APPLICATIONS = 5000;
  /** The SparkApplications read by the names the pods' operator label gives. */
  static final int MAX_APPLICATION_GETS = 5;
  /**
   * How many times the log byte cap may be read before reading stops: a server that applies
   * tailLines sends about the tail asked for; one that does not would send the whole log.
   */
  static final int LOG_INPUT_FACTOR = 8;
  private static final Logger LOG = LoggerFactory.getLogger(Reader.class);
  /** Closes log streams whose deadline passed; one daemon thread for all readers. */
  private static final ScheduledExecutorService WATCHDOG = watchdog();
  private static final Pattern EXEC_POD = Pattern.compile("-exec-(\\d+)$");
  static final ResourceDefinitionContext SPARK_APPLICATIONS = new ResourceDefinitionContext.Builder()
      .withGroup("sparkoperator.k8s.io").withVersion("v1beta2").withKind("SparkApplication")
      .withPlural("sparkapplications").withNamespaced(true).build();

  private final KubernetesClient client;
  private final KubernetesSettings settings;
  private final String namespace;
  private final SparkPods.Target target;
  private final Calls calls;
  private final List<String> notes = new ArrayList<>();

  private List<PodInfo> pods;
  private boolean podsListed;
  private List<SparkApplicationInfo> applications;
  private List<NodeInfo> nodes;
  private final Set<String> missingNodes = new LinkedHashSet<>();
  private List<EventInfo> events;

  public Reader(KubernetesClient client, KubernetesSettings settings, String server, String namespace,
      SparkPods.Target target, List<EvidenceGap> gaps) {
    this.client = client;
    this.settings = settings;
    this.namespace = namespace;
    this.target = target;
    this.calls = new Calls(server, settings.budget(), settings.requestTimeout(), gaps);
  }

  private static ScheduledExecutorService watchdog() {
    ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "sparkrca-k8s-log-watchdog");
      t.setDaemon(true);
      return t;
    });
    e.setRemoveOnCancelPolicy(true); // a log read that ends in time leaves no task behind
    return e;
  }

  /** The calls made, with the gaps of those that failed. */
  public Calls calls() {
    return calls;
  }

  /** How reading went, beyond the gaps. */
  public List<String> notes() {
    return notes;
  }

  /** The application's pods: Spark's labels, then the driver's pod by name when it has none. */
  public List<PodInfo> pods() {
    if (pods != null) {
      return pods;
    }
    List<PodInfo> out = new ArrayList<>();
    String selector = Mapping.APP_SELECTOR + "=" + target.appId();
    Calls.Request r = new Calls.Request("list", "pods", namespace, "/api/v1/namespaces/" + namespace
        + "/pods?labelSelector=" + selector);
    String cont = null;
    boolean more = true;
    while (more && out.size() < settings.maxPods()) {
      String token = cont;
      int limit = Math.min(PAGE, settings.maxPods() - out.size());
      Optional<PodList> page = calls.run(EvidenceKind.CLUSTER_RECORDS, r, () -> client.pods().inNamespace(namespace)
          .withLabel(Mapping.APP_SELECTOR, target.appId())
          .list(new ListOptionsBuilder().withLimit((long) limit).withContinue(token).build()));
      if (page.isEmpty()) {
        break;
      }
      podsListed = true;
      for (Pod p : page.get().getItems()) {
        out.add(Mapping.pod(p, driverPodName()));
      }
      cont = page.get().getMetadata() == null ? null : page.get().getMetadata().getContinue();
      more = cont != null && !cont.isBlank();
      if (more && out.size() >= settings.maxPods()) {
        calls.gaps().add(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, calls.uri(r), GapReason.PARTIAL,
            "only the first " + settings.maxPods() + " pods were read", "raise the pod cap to read them all"));
      }
    }
    Optional<String> driver = driverPodName();
    if (driver.isPresent() && out.stream().noneMatch(p -> p.name().equals(driver.get()))) {
      Calls.Request g = new Calls.Request("get", "pods", namespace, "/api/v1/namespaces/" + namespace + "/pods/"
          + driver.get());
      Calls.Result<Pod> p = calls.runAllowingNotFound(EvidenceKind.CLUSTER_RECORDS, g,
          () -> client.pods().inNamespace(namespace).withName(driver.get()).get());
      p.value().ifPresent(x -> out.add(0, Mapping.pod(x, driver)));
      if (p.notFound()) {
        notes.add("the driver's pod " + driver.get() + " is gone (" + p.notFoundMessage() + ")");
      }
    }
    out.sort(Comparator.comparing((PodInfo p) -> !p.isDriver()).thenComparing(Reader::executorOrder));
    pods = List.copyOf(out);
    return pods;
  }

  /** Whether the pods could be listed at all (else their absence says nothing). */
  public boolean podsListed() {
    pods();
    return podsListed;
  }

  private static long executorOrder(PodInfo p) {
    try {
      return Long.parseLong(p.executorId().orElse(""));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  private Optional<String> driverPodName() {
    return settings.driverPod().or(target::driverPod);
  }

  /**
   * The application's SparkApplication (Spark Operator), when it was launched by one: by the name
   * its pods' operator label gives, else (its pods gone) the one whose status holds its Spark
   * application id, searched for page by page in at most {@link #MAX_LISTED_APPLICATIONS}.
   */
  public List<SparkApplicationInfo> applications() {
    if (applications != null) {
      return applications;
    }
    Set<String> names = new LinkedHashSet<>();
    for (PodInfo p : pods()) {
      Optional.ofNullable(p.labels().get(Mapping.OPERATOR_APP)).ifPresent(names::add);
    }
    List<SparkApplicationInfo> out = new ArrayList<>();
    String resource = "sparkapplications.sparkoperator.k8s.io";
    String base = "/apis/sparkoperator.k8s.io/v1beta2/namespaces/" + namespace + "/sparkapplications";
    if (!names.isEmpty()) {
      // The label names it: one get, however many other applications the namespace holds.
      int asked = 0;
      for (String name : names) {
        if (asked++ >= MAX_APPLICATION_GETS) {
          notes.add((names.size() - MAX_APPLICATION_GETS) + " more SparkApplications named by the pods' label "
              + Mapping.OPERATOR_APP + " were not read (at most " + MAX_APPLICATION_GETS + " are)");
          break;
        }
        Calls.Request g = new Calls.Request("get", resource, namespace, base + "/" + name);
        Calls.Result<GenericKubernetesResource> app = calls.runAllowingNotFound(EvidenceKind.CLUSTER_RECORDS, g,
            () -> client.genericKubernetesResources(SPARK_APPLICATIONS).inNamespace(namespace).withName(name).get());
        app.value().map(Mapping::sparkApplication).ifPresent(out::add);
        if (app.notFound()) {
          notes.add("the SparkApplication " + name + " that the pods' label " + Mapping.OPERATOR_APP + " names is gone ("
              + app.notFoundMessage() + ")");
        }
      }
    } else if (pods().isEmpty()) {
      // The pods are gone: the SparkApplication, which outlives them, may be all that is left, and
      // only its status says which it is.
      Calls.Request r = new Calls.Request("list", resource, namespace, base);
      String cont = null;
      int searched = 0;
      boolean more = true;
      while (more && out.isEmpty()) {
        String token = cont;
        int gapsBefore = calls.gaps().size();
        Calls.Result<GenericKubernetesResourceList> page = calls.runAllowingNotFound(EvidenceKind.CLUSTER_RECORDS, r,
            () -> client.genericKubernetesResources(SPARK_APPLICATIONS).inNamespace(namespace)
                .list(new ListOptionsBuilder().withLimit((long) PAGE).withContinue(token).build()));
        if (page.value().isEmpty()) {
          if (calls.gaps().size() > gapsBefore
              && calls.gaps().get(calls.gaps().size() - 1).reason() == GapReason.ACCESS_DENIED) {
            // Nothing says the operator was involved: a refusal to list its resources is no gap.
            calls.gaps().remove(calls.gaps().size() - 1);
          }
          break;
        }
        for (GenericKubernetesResource g : page.value().get().getItems()) {
          searched++;
          SparkApplicationInfo a = Mapping.sparkApplication(g);
          if (a.sparkApplicationId().map(target.appId()::equals).orElse(false)) {
            out.add(a);
          }
        }
        var meta = page.value().get().getMetadata();
        cont = meta == null ? null : meta.getContinue();
        more = cont != null && !cont.isBlank();
        if (more && out.isEmpty() && searched >= MAX_LISTED_APPLICATIONS) {
          calls.gaps().add(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, calls.uri(r), GapReason.PARTIAL,
              "only the first " + searched + " SparkApplications in namespace " + namespace + " were searched for the one "
                  + "of " + target.appId() + ", and it was not among them; the rest were not read",
              "find it with kubectl get sparkapplications -n " + namespace + " (its status.sparkApplicationId is "
                  + target.appId() + ")"));
          break;
        }
      }
    }
    applications = List.copyOf(out);
    return applications;
  }

  /** The nodes the pods ran on (at most the node cap); a node that is gone is noted. */
  public List<NodeInfo> nodes() {
    if (nodes != null) {
      return nodes;
    }
    Set<String> names = new LinkedHashSet<>();
    for (PodInfo p : pods()) {
      p.node().ifPresent(names::add);
    }
    List<NodeInfo> out = new ArrayList<>();
    int asked = 0;
    for (String n : names) {
      if (asked++ >= settings.maxNodes()) {
        notes.add((names.size() - settings.maxNodes()) + " more nodes were not read (the node cap is "
            + settings.maxNodes() + ")");
        break;
      }
      Calls.Request r = new Calls.Request("get", "nodes", "", "/api/v1/nodes/" + n);
      Calls.Result<Node> node = calls.runAllowingNotFound(EvidenceKind.CLUSTER_RECORDS, r,
          () -> client.nodes().withName(n).get());
      node.value().ifPresent(x -> out.add(Mapping.node(x)));
      if (node.notFound()) {
        missingNodes.add(n);
      }
      if (!calls.gaps().isEmpty() && calls.gaps().get(calls.gaps().size() - 1).reason() == GapReason.ACCESS_DENIED
          && calls.gaps().get(calls.gaps().size() - 1).uri().endsWith("/nodes/" + n)) {
        break; // the same refusal for every node: one gap says it
      }
    }
    nodes = List.copyOf(out);
    return nodes;
  }

  /** Nodes the pods ran on that no longer exist. */
  public Set<String> missingNodes() {
    nodes();
    return missingNodes;
  }

  /**
   * The pod names of the application, with their executor ids: the pods listed, the
   * SparkApplication's, and those Spark's naming gives for the executors the event log knows
   * ({@code <spark.kubernetes.executor.podNamePrefix>-exec-<id>}), whose pods may be gone.
   */
  public Map<String, String> podNames() {
    Map<String, String> names = new LinkedHashMap<>();
    for (PodInfo p : pods()) {
      names.put(p.name(), p.executorId().orElse(""));
    }
    driverPodName().ifPresent(d -> names.putIfAbsent(d, "driver"));
    for (SparkApplicationInfo a : applications()) {
      a.driverPod().ifPresent(d -> names.putIfAbsent(d, "driver"));
      for (String pod : a.executorStates().keySet()) {
        Matcher m = EXEC_POD.matcher(pod);
        names.putIfAbsent(pod, m.find() ? m.group(1) : "");
      }
    }
    // Spark names its pods <prefix>-driver and <prefix>-exec-<id>: without the prefix property,
    // the pods still there give it, and name the deleted executors' pods whose events remain.
    Set<String> prefixes = new LinkedHashSet<>();
    target.podNamePrefix().ifPresent(prefixes::add);
    for (PodInfo p : pods()) {
      Matcher m = EXEC_POD.matcher(p.name());
      if (!p.isDriver() && m.find()) {
        prefixes.add(p.name().substring(0, m.start()));
      } else if (p.isDriver() && p.name().endsWith("-driver") && p.labels().containsKey(Mapping.APP_SELECTOR)) {
        prefixes.add(p.name().substring(0, p.name().length() - "-driver".length()));
      }
    }
    for (String prefix : prefixes) {
      names.putIfAbsent(prefix + "-driver", "driver");
      for (String id : target.executorIds()) {
        names.putIfAbsent(prefix + "-exec-" + id, id);
      }
    }
    return names;
  }

  /**
   * The events about the application's pods and SparkApplication (in its namespace) and about
   * its nodes (in {@code default}, where the kubelet records them), oldest first.
   */
  public List<EventInfo> events() {
    if (events != null) {
      return events;
    }
    Map<String, String> names = podNames();
    Set<String> apps = new LinkedHashSet<>();
    applications().forEach(a -> apps.add(a.name()));
    List<EventInfo> out = new ArrayList<>(listEvents(namespace, Optional.empty(),
        e -> (e.involvedKind().equals("Pod") && names.containsKey(e.involvedName()))
            || (e.involvedKind().equals("SparkApplication") && apps.contains(e.involvedName()))));
    Set<String> nodeNames = new LinkedHashSet<>();
    pods().forEach(p -> p.node().ifPresent(nodeNames::add));
    if (!nodeNames.isEmpty()) {
      out.addAll(listEvents("default", Optional.of("involvedObject.kind=Node"),
          e -> e.involvedKind().equals("Node") && nodeNames.contains(e.involvedName())));
    }
    out.sort(Comparator.comparing((EventInfo e) -> e.time().orElse(java.time.Instant.MAX)));
    events = List.copyOf(out);
    return events;
  }

  private List<EventInfo> listEvents(String ns, Optional<String> fieldSelector, java.util.function.Predicate<EventInfo> keep) {
    // At most MAX_KEPT_EVENTS are kept; when more are about the application, the ones that say
    // most go first: warnings (OOMKilling, Evicted, BackOff) before normal events, the newer
    // before the older. The head of the queue is the one least worth keeping.
    PriorityQueue<EventInfo> kept = new PriorityQueue<>(KEEP_ORDER);
    int matched = 0;
    int warnings = 0;
    int warningsLeftOut = 0;
    Calls.Request r = new Calls.Request("list", "events", ns, "/api/v1/namespaces/" + ns + "/events"
        + fieldSelector.map(f -> "?fieldSelector=" + f).orElse(""));
    String cont = null;
    int read = 0;
    boolean more = true;
    while (more) {
      String token = cont;
      Optional<EventList> page = calls.run(EvidenceKind.CLUSTER_RECORDS, r, () -> {
        var op = client.v1().events().inNamespace(ns);
        var options = new ListOptionsBuilder().withLimit((long) PAGE).withContinue(token);
        fieldSelector.ifPresent(options::withFieldSelector);
        return op.list(options.build());
      });
      if (page.isEmpty()) {
        break;
      }
      for (Event e : page.get().getItems()) {
        read++;
        EventInfo info = Mapping.event(e);
        if (keep.test(info)) {
          matched++;
          warnings += info.warning() ? 1 : 0;
          kept.add(info);
          if (kept.size() > MAX_KEPT_EVENTS && kept.poll().warning()) {
            warningsLeftOut++;
          }
        }
      }
      cont = page.get().getMetadata() == null ? null : page.get().getMetadata().getContinue();
      more = cont != null && !cont.isBlank();
      if (more && read >= settings.maxEvents()) {
        calls.gaps().add(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, calls.uri(r), GapReason.PARTIAL,
            "only the first " + read + " events of namespace " + ns + " were read",
            "raise the event cap to read them all"));
        break;
      }
    }
    if (matched > kept.size()) {
      int leftOut = matched - kept.size();
      calls.gaps().add(new EvidenceGap(EvidenceKind.CLUSTER_RECORDS, calls.uri(r), GapReason.PARTIAL,
          leftOut + " of the " + matched + " events about the application in namespace " + ns + " were left out (at most "
              + MAX_KEPT_EVENTS + " are kept): " + (warningsLeftOut == 0
                  ? "all " + warnings + " warning(s) are kept, with the newest normal events"
                  : "only the newest " + (warnings - warningsLeftOut) + " of its " + warnings + " warnings are kept"),
          "list them all with kubectl get events -n " + ns + " --sort-by=.lastTimestamp"));
    }
    return new ArrayList<>(kept);
  }

  /** Events from least to most worth keeping: normal before warning, then older before newer. */
  private static final Comparator<EventInfo> KEEP_ORDER = Comparator.comparing(EventInfo::warning)
      .thenComparing(e -> e.time().orElse(java.time.Instant.MIN));

  /**
   * The pods whose logs matter, in order: the driver, then executors that failed, at most the log
   * cap; {@code executorId} (or {@code "driver"}) picks one instead.
   */
  public List<PodInfo> logPods(Optional<String> executorId) {
    List<PodInfo> out = new ArrayList<>();
    for (PodInfo p : pods()) {
      boolean chosen = executorId.map(id -> p.executorId().map(id::equals).orElse(false))
          .orElse(p.isDriver() || p.failed());
      if (chosen && out.size() < settings.maxLogs()) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * The tail of the Spark container's log of {@code pod}: the current run, and the previous one
   * when the container restarted ({@code previous=true} answers 400 for a container that never
   * restarted, as Spark's never do under {@code restartPolicy: Never}), scanned for signatures.
   */
  public List<LogTail> logs(PodInfo pod, boolean previousOnly, LogSignatures signatures) {
    List<LogTail> out = new ArrayList<>();
    Optional<ContainerInfo> c = pod.sparkContainer();
    if (c.isEmpty()) {
      return out;
    }
    ContainerInfo container = c.get();
    boolean ran = !container.state().equals("waiting") || container.restartCount() > 0;
    if (!previousOnly && ran) {
      read(pod, container, false, signatures).ifPresent(out::add);
    }
    if (container.restartCount() > 0) {
      read(pod, container, true, signatures).ifPresent(out::add);
    }
    return out;
  }

  private Optional<LogTail> read(PodInfo pod, ContainerInfo container, boolean previous, LogSignatures signatures) {
    String path = "/api/v1/namespaces/" + namespace + "/pods/" + pod.name() + "/log?container=" + container.name()
        + (previous ? "&previous=true" : "") + "&tailLines=" + settings.logTailLines();
    Calls.Request r = new Calls.Request("get", "pods/log", namespace, path);
    EvidenceKind kind = pod.isDriver() ? EvidenceKind.DRIVER_LOG : EvidenceKind.EXECUTOR_LOGS;
    List<EvidenceGap> before = new ArrayList<>(calls.gaps());
    // fabric8's JDK client applies the request timeout only until the headers arrive, and the
    // budget is checked only before a call: a log that trickles or never ends would hold the read
    // for ever. So the whole read gets a deadline, and a watchdog closes the stream when it
    // passes (a blocked read then returns); the bytes read by then are kept.
    boolean budgetBound = calls.remaining().compareTo(settings.requestTimeout()) < 0;
    Duration limit = budgetBound ? calls.remaining() : settings.requestTimeout();
    long deadline = System.nanoTime() + limit.toNanos();
    long maxInput = (long) settings.maxLogBytes() * LOG_INPUT_FACTOR;
    Optional<Tail> tail = calls.run(kind, r, () -> {
      var c = client.pods().inNamespace(namespace).withName(pod.name()).inContainer(container.name());
      try (InputStream in = previous ? c.terminated().tailingLines(settings.logTailLines()).getLogInputStream()
          : c.tailingLines(settings.logTailLines()).getLogInputStream()) {
        return Tail.read(in, settings.maxLogBytes(), maxInput, deadline);
      } catch (IOException e) {
        throw new KubernetesClientException("reading the log failed: " + e.getMessage(), e);
      }
    });
    if (tail.isEmpty()) {
      if (calls.gaps().size() > before.size()) {
        EvidenceGap g = calls.gaps().get(calls.gaps().size() - 1);
        if (previous && g.detail().startsWith("HTTP 400")) {
          // The container has no previous run to show after all: nothing is missing.
          calls.gaps().remove(calls.gaps().size() - 1);
        }
      }
      return Optional.empty();
    }
    Tail t = tail.get();
    String logName = (pod.isDriver() ? "the driver's" : "executor " + pod.executorId().orElse("?") + "'s") + " log ("
        + pod.name() + (previous ? ", previous container" : "") + ")";
    String stopped = switch (t.stop()) {
      case END -> "";
      case DEADLINE -> "reading stopped after " + limit.toMillis() + " ms ("
          + (budgetBound ? "what was left of the time budget of " + calls.budget().toSeconds() + " s" : "the request timeout")
          + ") before the log ended";
      case INPUT_CAP -> "reading stopped after " + t.read() + " bytes, more than the " + settings.logTailLines()
          + " lines asked for can hold within the log cap (the server did not apply tailLines)";
    };
    switch (t.stop()) {
      case DEADLINE -> calls.gaps().add(new EvidenceGap(kind, calls.uri(r), GapReason.TIMEOUT,
          logName + " was cut: " + stopped + "; the " + t.read() + " bytes read by then are kept"
              + (t.read() == 0 ? " (none)" : ", its later lines are missing"),
          "the API server sent the log slowly or did not end it: try again, or raise the request timeout"
              + (budgetBound ? " and the Kubernetes time budget" : "") + "; kubectl logs --tail="
              + settings.logTailLines() + " shows what the server sends"));
      case INPUT_CAP -> calls.gaps().add(new EvidenceGap(kind, calls.uri(r), GapReason.PARTIAL,
          logName + " was cut: " + stopped + "; the last " + t.bytes().length + " bytes read are kept, which need not "
              + "be the log's last lines",
          "the API server (or a proxy in front of it) ignored tailLines: read the log with kubectl logs --tail="
              + settings.logTailLines() + ", or raise the log byte cap"));
      case END -> { }
    }
    if (t.stop() != Stop.END && t.read() == 0) {
      return Optional.empty(); // nothing read: an empty log would look like a healthy one
    }
    String uri = "k8s://" + namespace + "/pods/" + pod.name() + "/log?container=" + container.name()
        + (previous ? "&previous=true" : "");
    byte[] bytes = t.bytes();
    LogEvidence scan = LogEvidence.scan(ByteSource.of(uri, bytes), pod.isDriver() ? LogRole.DRIVER : LogRole.EXECUTOR,
        pod.isDriver() ? Optional.empty() : pod.executorId(),
        (pod.isDriver() ? "the driver's pod" : "pod label " + Mapping.EXEC_ID + "=" + pod.executorId().orElse("?"))
            + (previous ? ", previous container" : ""), signatures);
    if (t.cut() || t.stop() != Stop.END) {
      List<String> notes = new ArrayList<>(scan.notes());
      if (t.stop() != Stop.END) {
        notes.add(stopped);
      }
      if (t.cut()) {
        notes.add("only the last " + bytes.length + " bytes of the log tail were kept");
      }
      scan = new LogEvidence(scan.uri(), scan.role(), scan.channel(), scan.executorId(), scan.classifiedBy(),
          scan.bytes(), scan.codec(), scan.linesScanned(), scan.signatureCounts(), scan.excerpts(),
          scan.excerptsCapped(), scan.firstTime(), scan.lastTime(), scan.lastLines(), notes);
    }
    return Optional.of(new LogTail(pod.name(), container.name(), previous, pod.executorId(),
        Redactor.standard().redactText(new String(bytes, StandardCharsets.UTF_8)), t.cut(), scan));
  }

  /** Why reading a log stopped. */
  enum Stop {
    /** The server ended the log. */
    END,
    /** The deadline passed first: the watchdog closed the stream. */
    DEADLINE,
    /** The server sent more than the tail asked for can be (it ignored tailLines). */
    INPUT_CAP
  }

  /**
   * The last bytes of a stream, at most {@code max}, starting at a line; reading stops at the
   * stream's end, after {@code maxInput} bytes, or at {@code deadline} ({@link System#nanoTime()}),
   * when a watchdog closes the stream so that a read blocked on a silent server returns.
   *
   * @param bytes the bytes kept
   * @param cut whether older bytes were left out to keep at most {@code max}
   * @param read how many bytes were read in all
   * @param stop why reading stopped
   */
  record Tail(byte[] bytes, boolean cut, long read, Stop stop) {
    static Tail read(InputStream in, int max, long maxInput, long deadline) throws IOException {
      AtomicBoolean expired = new AtomicBoolean();
      ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
        expired.set(true);
        try {
          in.close();
        } catch (IOException | RuntimeException e) {
          LOG.debug("closing a log stream at its deadline failed", e);
        }
      }, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      try {
        return read(in, max, maxInput, expired);
      } finally {
        watchdog.cancel(false);
      }
    }

    private static Tail read(InputStream in, int max, long maxInput, AtomicBoolean expired) throws IOException {
      byte[] ring = new byte[max];
      long total = 0;
      byte[] buf = new byte[8192];
      Stop stop = Stop.END;
      while (true) {
        int n;
        try {
          n = in.read(buf, 0, (int) Math.min(buf.length, maxInput - total));
        } catch (IOException e) {
          if (!expired.get()) {
            throw e;
          }
          n = -1; // the watchdog closed the stream under the read
        }
        for (int i = 0; i < n; i++) {
          ring[(int) ((total + i) % max)] = buf[i];
        }
        total += Math.max(0, n);
        if (n < 0 || expired.get()) {
          stop = expired.get() ? Stop.DEADLINE : Stop.END;
          break;
        }
        if (total >= maxInput) {
          stop = Stop.INPUT_CAP;
          break;
        }
      }
      if (total <= max) {
        return new Tail(java.util.Arrays.copyOf(ring, (int) total), false, total, stop);
      }
      byte[] out = new byte[max];
      int start = (int) (total % max);
      System.arraycopy(ring, start, out, 0, max - start);
      System.arraycopy(ring, 0, out, max - start, start);
      int nl = 0;
      while (nl < out.length && out[nl] != '\n') {
        nl++;
      }
      return new Tail(java.util.Arrays.copyOfRange(out, Math.min(out.length, nl + 1), out.length), true, total, stop);
    }
  }
}
