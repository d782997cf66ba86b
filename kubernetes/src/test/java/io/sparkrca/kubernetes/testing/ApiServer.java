package io.sparkrca.kubernetes.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import io.sparkrca.kubernetes.KubernetesSettings;
import io.sparkrca.kubernetes.internal.Clients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * fabric8's {@link KubernetesMockServer} over HTTPS on the loopback, in CRUD mode, answering as a
 * real API server does where the CRUD store does not: expectations first (logs, faults), then
 * core v1 event field selectors with the server's own rules (the fields it supports, a 400 for the
 * others, {@code involvedObject.*} refused by {@code events.k8s.io/v1}), then the CRUD store. A
 * log request with no expectation is answered 500, so that a test cannot pass on a log it never
 * registered. Clients reach it through a kubeconfig file that trusts its self-signed certificate,
 * as kubectl would.
 *
 * <pre>{@code
 * try (ApiServer api = ApiServer.start()) {
 *   api.create(pod);
 *   api.log("spark", "app-exec-1", "spark-kubernetes-executor", false, 2000, text);
 *   KubernetesSettings s = api.settings(dir).namespace("spark").build();
 * }
 * }</pre>
 */
public final class ApiServer implements AutoCloseable {
  /** The fields core v1 events can be selected by (apiserver's event field label conversion). */
  private static final Set<String> CORE_EVENT_FIELDS = Set.of("involvedObject.kind", "involvedObject.namespace",
      "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
      "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type", "metadata.name",
      "metadata.namespace");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The bearer token of the kubeconfigs it writes (a secret that must never reach output). */
  public static final String TOKEN = "sparkrca-test-token";

  // The mock server logs every request at INFO through java.util.logging: keep test output
  // readable. Held here because java.util.logging keeps loggers only weakly, with their level.
  private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
  }

  private final Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
  private final List<Fault> faults = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final KubernetesMockServer server;
  private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
  private final MockDispatcher expectations = new MockDispatcher(responses);
  private KubernetesClient client;

  private ApiServer() {
    Dispatcher dispatcher = new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        for (Fault f : faults) {
          if (f.matches(request)) {
            return f.answer().apply(request);
          }
        }
        return answer(request);
      }

      @Override
      public void shutdown() {
        crud.shutdown();
      }
    };
    this.server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
        dispatcher, true);
    crud.expectCustomResource(new CustomResourceDefinitionContext.Builder().withGroup("sparkoperator.k8s.io")
        .withVersion("v1beta2").withKind("SparkApplication").withPlural("sparkapplications").withScope("Namespaced")
        .withStatusSubresource(false).build());
  }

  /** The answer of the API server without the faults: expectations, event field selectors, the CRUD store. */
  private MockResponse answer(RecordedRequest request) {
    Queue<ServerResponse> q = responses.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()),
        request.getPath()));
    if (q != null && !q.isEmpty()) {
      return expectations.dispatch(request);
    }
    String path = request.getPath();
    if (path.matches("/api/v1/namespaces/[^/]+/pods/[^/?]+/log.*")) {
      return status(500, "InternalError", "the test registered no log for " + path);
    }
    if (request.getMethod().equals("GET") && path.contains("fieldSelector=") && path.contains("/events")) {
      return events(path);
    }
    return crud.dispatch(request);
  }

  /** Starts a server on a free loopback port. */
  public static ApiServer start() {
    ApiServer a = new ApiServer();
    a.server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    return a;
  }

  /** The server's URL. */
  public String url() {
    return "https://localhost:" + server.getPort();
  }

  /** The fabric8 mock server, for expectations. */
  public KubernetesMockServer mock() {
    return server;
  }

  /**
   * Writes a kubeconfig for this server (its CA, a bearer token, context {@code test} with
   * namespace {@code contextNamespace}) into {@code dir} and returns its path.
   */
  public Path kubeconfig(Path dir, String contextNamespace) {
    return kubeconfig(dir, contextNamespace, false);
  }

  /** As {@link #kubeconfig(Path, String)}; {@code insecure} asks to skip TLS verification instead of naming the CA. */
  public Path kubeconfig(Path dir, String contextNamespace, boolean insecure) {
    String ca = server.getSelfSignedCertificate().certificatePath();
    String text = "apiVersion: v1\nkind: Config\nclusters:\n- name: mock\n  cluster:\n    server: " + url() + "\n"
        + (insecure ? "    insecure-skip-tls-verify: true\n" : "    certificate-authority: " + ca + "\n")
        + "users:\n- name: reader\n  user:\n    token: " + TOKEN + "\n"
        + "contexts:\n- name: test\n  context:\n    cluster: mock\n    user: reader\n    namespace: " + contextNamespace + "\n"
        + "- name: other\n  context:\n    cluster: mock\n    user: reader\n    namespace: elsewhere\n"
        + "current-context: test\n";
    try {
      Path file = dir.resolve(insecure ? "kubeconfig-insecure" : "kubeconfig");
      Files.writeString(file, text);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Settings that reach this server through a kubeconfig in {@code dir}, with short timeouts for tests. */
  public KubernetesSettings.Builder settings(Path dir) {
    return KubernetesSettings.builder().kubeconfig(kubeconfig(dir, "spark")).requestTimeout(java.time.Duration.ofSeconds(60))
        .connectTimeout(java.time.Duration.ofSeconds(30)).retries(0);
  }

  /** Stores {@code resource} as the API server would hold it (through its own API, verifying TLS). */
  public <T extends HasMetadata> T create(T resource) {
    return client().resource(resource).create();
  }

  /** Stores a Spark Operator SparkApplication (sparkoperator.k8s.io/v1beta2). */
  public void createSparkApplication(io.fabric8.kubernetes.api.model.GenericKubernetesResource app) {
    client().genericKubernetesResources(new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
        .withGroup("sparkoperator.k8s.io").withVersion("v1beta2").withKind("SparkApplication")
        .withPlural("sparkapplications").withNamespaced(true).build())
        .inNamespace(app.getMetadata().getNamespace()).resource(app).create();
  }

  private KubernetesClient client() {
    if (client == null) {
      try {
        Path dir = Files.createTempDirectory("sparkrca-kube");
        client = Clients.create(settings(dir).build());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return client;
  }

  /**
   * Registers a container's log as the kubelet serves it for the request this module makes
   * ({@code tailLines}): its last {@code tailLines} lines.
   */
  public void log(String namespace, String pod, String container, boolean previous, int tailLines, String text) {
    String path = logPath(namespace, pod, container, previous, tailLines);
    String[] lines = text.split("(?<=\n)");
    StringBuilder tail = new StringBuilder();
    for (int i = Math.max(0, lines.length - tailLines); i < lines.length; i++) {
      tail.append(lines[i]);
    }
    server.expect().get().withPath(path).andReturn(200, tail.toString()).always();
  }

  /**
   * The answer of a real API server to {@code previous=true} for a container that never restarted
   * (Spark's pods run with {@code restartPolicy: Never}): 400.
   */
  public void noPreviousLog(String namespace, String pod, String container, int tailLines) {
    server.expect().get().withPath(logPath(namespace, pod, container, true, tailLines)).andReturn(400,
        statusBody(400, "BadRequest", "previous terminated container \"" + container + "\" in pod \"" + pod
            + "\" not found")).always();
  }

  /** The path fabric8 requests a log at. */
  public static String logPath(String namespace, String pod, String container, boolean previous, int tailLines) {
    return "/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log?pretty=false&container=" + container
        + (previous ? "&previous=true" : "") + "&tailLines=" + tailLines;
  }

  /** How the server answers GET requests for one resource path (whatever their query). */
  private record Fault(String resourcePath, java.util.function.Function<RecordedRequest, MockResponse> answer) {
    boolean matches(RecordedRequest r) {
      String p = r.getPath();
      int q = p.indexOf('?');
      return r.getMethod().equals("GET") && (q < 0 ? p : p.substring(0, q)).equals(resourcePath);
    }
  }

  /**
   * A 403 for every GET of {@code resourcePath} (any query) as RBAC answers it: the user, verb,
   * resource and namespace named.
   */
  public void forbid(String resourcePath, String verb, String resource, String namespace) {
    String group = resource.contains(".") ? resource.substring(resource.indexOf('.') + 1) : "";
    String plural = resource.contains(".") ? resource.substring(0, resource.indexOf('.')) : resource;
    String message = plural + " is forbidden: User \"system:serviceaccount:spark:sparkrca\" cannot " + verb
        + " resource \"" + plural + "\" in API group \"" + group + "\""
        + (namespace.isEmpty() ? " at the cluster scope" : " in the namespace \"" + namespace + "\"");
    faults.add(new Fault(resourcePath, r -> status(403, "Forbidden", message)));
  }

  /** Answers every GET of {@code resourcePath} as it otherwise would, but only after {@code delay}. */
  public void slow(String resourcePath, java.time.Duration delay) {
    faults.add(new Fault(resourcePath, r -> {
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return answer(r);
    }));
  }

  /**
   * Answers every GET of the list {@code resourcePath} with {@code items} (model objects) as the
   * API server pages a list: at most {@code limit} a page, with a continue token while more
   * remain. fabric8's CRUD store returns a whole list at once, so it cannot show what lies past
   * the first page.
   */
  public void paged(String resourcePath, String kind, String apiVersion, List<?> items) {
    List<JsonNode> nodes = items.stream().map(i -> (JsonNode) JSON.valueToTree(i)).toList();
    faults.add(new Fault(resourcePath, r -> {
      Map<String, String> query = new HashMap<>();
      String p = r.getPath();
      if (p.contains("?")) {
        for (String param : p.substring(p.indexOf('?') + 1).split("&")) {
          String[] kv = param.split("=", 2);
          query.put(kv[0], kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
        }
      }
      int from = Integer.parseInt(query.getOrDefault("continue", "0"));
      int limit = Integer.parseInt(query.getOrDefault("limit", String.valueOf(Integer.MAX_VALUE)));
      int to = (int) Math.min(nodes.size(), (long) from + limit);
      ObjectNode list = JSON.createObjectNode();
      list.put("kind", kind);
      list.put("apiVersion", apiVersion);
      ObjectNode meta = list.putObject("metadata");
      if (to < nodes.size()) {
        meta.put("continue", String.valueOf(to));
      }
      list.putArray("items").addAll(nodes.subList(from, to));
      return new MockResponse().setResponseCode(200).setBody(list.toString());
    }));
  }

  /** Every request received since the last call, as {@code METHOD path}. */
  public List<String> requests() {
    List<String> out = new ArrayList<>();
    try {
      RecordedRequest r;
      while ((r = server.takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
        out.add(r.getMethod() + " " + r.getPath());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return out;
  }

  private MockResponse events(String path) {
    int q = path.indexOf('?');
    String base = path.substring(0, q);
    List<String[]> requirements = new ArrayList<>();
    StringBuilder rest = new StringBuilder();
    for (String param : path.substring(q + 1).split("&")) {
      if (param.startsWith("fieldSelector=")) {
        String selector = URLDecoder.decode(param.substring("fieldSelector=".length()), StandardCharsets.UTF_8);
        for (String req : selector.split(",")) {
          String[] kv = req.split("!=|==|=", 2);
          boolean negate = req.contains("!=");
          boolean coreEvents = base.startsWith("/api/v1/");
          if (coreEvents ? !CORE_EVENT_FIELDS.contains(kv[0]) : kv[0].startsWith("involvedObject.")) {
            return status(400, "BadRequest", "field label not supported: " + kv[0]);
          }
          requirements.add(new String[] {kv[0], kv.length > 1 ? kv[1] : "", negate ? "!" : "="});
        }
      } else {
        rest.append(rest.length() == 0 ? "?" : "&").append(param);
      }
    }
    MockResponse all = crud.handleGet(base + rest);
    try {
      JsonNode list = JSON.readTree(all.getBody().readUtf8());
      ArrayNode kept = JSON.createArrayNode();
      for (JsonNode item : list.path("items")) {
        boolean match = true;
        for (String[] r : requirements) {
          JsonNode v = item;
          for (String part : r[0].split("\\.")) {
            v = v.path(part);
          }
          boolean equal = v.asText("").equals(r[1]);
          match &= r[2].equals("=") == equal;
        }
        if (match) {
          kept.add(item);
        }
      }
      ((ObjectNode) list).set("items", kept);
      return new MockResponse().setResponseCode(200).setBody(JSON.writeValueAsString(list));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A Status body as the API server writes it. */
  public static String statusBody(int code, String reason, String message) {
    ObjectNode o = JSON.createObjectNode();
    o.put("kind", "Status");
    o.put("apiVersion", "v1");
    o.putObject("metadata");
    o.put("status", "Failure");
    o.put("message", message);
    o.put("reason", reason);
    o.put("code", code);
    return o.toString();
  }

  private static MockResponse status(int code, String reason, String message) {
    return new MockResponse().setResponseCode(code).setBody(statusBody(code, reason, message));
  }

  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      // fabric8's mock server waits 10 s for its vert.x server to close and throws if it has not;
      // on a loaded 2-core machine the event loop can stall that long (vert.x logs "blocked for
      // ... ms"). The test's checks have run by then; a slow teardown of the fake is not a failure
      // of the code under test, so it is reported and the test goes on.
      if (!String.valueOf(e.getMessage()).contains("Unable to close MockWebServer")) {
        throw e;
      }
      System.err.println("ApiServer: the mock API server did not close within fabric8's 10 s (" + e.getCause()
          + "); left to close in the background");
    }
  }
}
