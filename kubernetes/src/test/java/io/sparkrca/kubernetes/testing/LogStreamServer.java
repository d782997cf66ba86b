package io.sparkrca.kubernetes.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback API server (plain HTTP) that holds one running driver pod and serves its log the way
 * a misbehaving kubelet or proxy does: the headers at once, then the body in a way fabric8's
 * request timeout does not cover (it ends when the headers arrive). fabric8's mock server answers
 * with a whole body, so it cannot show these. Everything else is 404, as for objects not there.
 *
 * <pre>{@code
 * try (LogStreamServer s = LogStreamServer.start(LogStreamServer.Body.STALL_AFTER_A_LINE)) {
 *   KubernetesSettings k = KubernetesSettings.builder().kubeconfig(s.kubeconfig(dir)).build();
 * }
 * }</pre>
 */
public final class LogStreamServer implements AutoCloseable {
  public static final String NAMESPACE = "spark";
  public static final String APP_ID = "spark-0123456789abcdef";
  public static final String DRIVER_POD = "stream-app-driver";
  /** The first line every log body sends. */
  public static final String FIRST_LINE = "24/01/01 00:00:00 ERROR SparkContext: Error initializing SparkContext.";

  /** How the log body comes. */
  public enum Body {
    /** One line, then silence with the connection open. */
    STALL_AFTER_A_LINE,
    /** One line every 100 ms, never ending. */
    TRICKLE,
    /** Lines as fast as the client takes them, never ending (tailLines ignored). */
    ENDLESS
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "log-stream-server");
    t.setDaemon(true);
    return t;
  });
  private final Body body;
  private final AtomicLong logBytesSent = new AtomicLong();
  private volatile boolean closed;

  private LogStreamServer(Body body) throws IOException {
    this.body = body;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.setExecutor(threads);
    server.createContext("/", ex -> {
      try (ex) {
        handle(ex);
      } catch (IOException | RuntimeException e) {
        // The client went away (it closed the log stream): what a kubelet sees too.
      }
    });
  }

  /** Starts a server that sends the driver's log as {@code body} says. */
  public static LogStreamServer start(Body body) {
    try {
      LogStreamServer s = new LogStreamServer(body);
      s.server.start();
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A kubeconfig for this server (plain HTTP, a bearer token, namespace {@link #NAMESPACE}). */
  public Path kubeconfig(Path dir) {
    String text = "apiVersion: v1\nkind: Config\nclusters:\n- name: stream\n  cluster:\n    server: http://"
        + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "\n"
        + "users:\n- name: reader\n  user:\n    token: stream-test-token\n"
        + "contexts:\n- name: test\n  context:\n    cluster: stream\n    user: reader\n    namespace: " + NAMESPACE + "\n"
        + "current-context: test\n";
    try {
      return Files.writeString(dir.resolve("kubeconfig-stream"), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How many bytes of log the server has sent so far. */
  public long logBytesSent() {
    return logBytesSent.get();
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    if (path.equals("/api/v1/namespaces/" + NAMESPACE + "/pods")) {
      json(ex, 200, "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":[" + driverPod() + "]}");
    } else if (path.equals("/api/v1/namespaces/" + NAMESPACE + "/pods/" + DRIVER_POD + "/log")) {
      ex.getResponseHeaders().set("Content-Type", "text/plain");
      ex.sendResponseHeaders(200, 0); // chunked: the headers go now, the body as it comes
      OutputStream o = ex.getResponseBody();
      send(o, (FIRST_LINE + "\n").getBytes(StandardCharsets.UTF_8));
      switch (body) {
        case STALL_AFTER_A_LINE -> pause(3_600_000);
        case TRICKLE -> {
          for (int i = 0; !closed; i++) {
            pause(100);
            send(o, ("24/01/01 00:00:01 INFO Executor: still running " + i + "\n").getBytes(StandardCharsets.UTF_8));
          }
        }
        case ENDLESS -> {
          byte[] line = "24/01/01 00:00:01 INFO Executor: a log line that goes on and on\n".getBytes(StandardCharsets.UTF_8);
          byte[] chunk = new byte[line.length * 200];
          for (int i = 0; i < 200; i++) {
            System.arraycopy(line, 0, chunk, i * line.length, line.length);
          }
          while (!closed) {
            send(o, chunk);
          }
        }
      }
    } else {
      json(ex, 404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
          + "\"message\":\"not found\",\"reason\":\"NotFound\",\"code\":404}");
    }
  }

  private void send(OutputStream o, byte[] b) throws IOException {
    o.write(b);
    o.flush();
    logBytesSent.addAndGet(b.length);
  }

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  private static String driverPod() {
    return "{\"metadata\":{\"name\":\"" + DRIVER_POD + "\",\"namespace\":\"" + NAMESPACE + "\",\"labels\":{"
        + "\"spark-app-selector\":\"" + APP_ID + "\",\"spark-role\":\"driver\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"spark-kubernetes-driver\"}]},"
        + "\"status\":{\"phase\":\"Running\",\"containerStatuses\":[{\"name\":\"spark-kubernetes-driver\","
        + "\"restartCount\":0,\"state\":{\"running\":{\"startedAt\":\"2024-01-01T00:00:00Z\"}}}]}}";
  }

  private static void json(HttpExchange ex, int code, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, b.length);
    ex.getResponseBody().write(b);
  }

  @Override
  public void close() {
    closed = true;
    server.stop(0);
    threads.shutdownNow(); // wakes the handlers that stall
  }
}
