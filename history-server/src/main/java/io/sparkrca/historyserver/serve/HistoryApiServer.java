package io.sparkrca.historyserver.serve;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sparkrca.core.api.ApiResponse;
import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogHistory;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.redaction.Redactor;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A read-only HTTP server answering the Spark History Server's REST API ({@code /api/v1/...},
 * through core's {@link RestRouter}, so with the History Server's JSON, parameters and errors) over
 * a directory of event logs (any codec, rolling, in progress): new logs and logs that grew are
 * picked up (the directory is looked at again at most once per refresh interval), applications
 * are replayed when first asked for and a bounded number of replays is kept. Bound to the
 * loopback unless told otherwise; a bounded pool of threads; each request answered within a
 * timeout (503 after it); only GET and HEAD (405 otherwise).
 *
 * <pre>{@code
 * try (HistoryApiServer server = HistoryApiServer.builder("/tmp/spark-events").port(18080).build().start()) {
 *   System.out.println("listening on " + server.url());   // http://127.0.0.1:18080
 *   server.awaitStop();
 * }
 * }</pre>
 */
public final class HistoryApiServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HistoryApiServer.class);

  private final Builder config;
  private final EventLogReader reader;
  private final Object historyLock = new Object();
  private EventLogHistory history;
  private long refreshedAt;
  private HttpServer server;
  private ThreadPoolExecutor http;
  private ThreadPoolExecutor workers;
  private final AtomicLong requests = new AtomicLong();
  private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

  private HistoryApiServer(Builder b) {
    this.config = b;
    this.reader = b.reader != null ? b.reader : EventLogs.reader().build();
  }

  /** A server over the event logs at {@code location} (a directory, one log, or a URI). */
  public static Builder builder(String location) {
    return new Builder(location);
  }

  /**
   * Lists the logs and starts listening.
   *
   * @throws SparkRcaException when the logs cannot be listed or the address cannot be bound
   */
  public HistoryApiServer start() {
    synchronized (historyLock) {
      history = reader.history(config.location, config.cachedApplications);
      history.applications();
      refreshedAt = System.nanoTime();
    }
    AtomicInteger n = new AtomicInteger();
    http = new ThreadPoolExecutor(config.threads, config.threads, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(config.queue), r -> daemon(r, "sparkrca-serve-http-" + n.incrementAndGet()),
        new ThreadPoolExecutor.AbortPolicy());
    workers = new ThreadPoolExecutor(config.threads, config.threads, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(config.queue), r -> daemon(r, "sparkrca-serve-worker-" + n.incrementAndGet()),
        new ThreadPoolExecutor.AbortPolicy());
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(config.host), config.port), 64);
    } catch (IOException e) {
      throw new SparkRcaException("cannot listen on " + config.host + ":" + config.port + " (" + e.getMessage()
          + "); choose another port, or stop what listens there", e);
    }
    server.setExecutor(command -> {
      try {
        http.execute(command);
      } catch (RejectedExecutionException e) {
        LOG.warn("serve: too many connections waiting; one was dropped");
      }
    });
    server.createContext("/", this::handle);
    server.start();
    LOG.debug("Serving the History Server API over {} at {}", Redactor.redactUri(config.location), url());
    return this;
  }

  /** Where the server listens, such as {@code http://127.0.0.1:18080}. */
  public String url() {
    InetSocketAddress a = server.getAddress();
    String host = a.getAddress().getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  /** The port listened on (useful with port 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Requests answered so far. */
  public long requests() {
    return requests.get();
  }

  /** Blocks until {@link #close()} is called. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  @Override
  public void close() {
    if (server != null) {
      server.stop(0);
    }
    if (http != null) {
      http.shutdownNow();
    }
    if (workers != null) {
      workers.shutdownNow();
    }
    stopped.countDown();
  }

  private EventLogHistory history() {
    synchronized (historyLock) {
      if (System.nanoTime() - refreshedAt >= config.refreshInterval.toNanos()) {
        try {
          history = history.refresh();
        } catch (SparkRcaException e) {
          LOG.warn("serve: could not look at {} again ({}); answering from what was listed before",
              Redactor.redactUri(config.location), e.getMessage());
        }
        refreshedAt = System.nanoTime();
      }
      return history;
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    requests.incrementAndGet();
    try (ex) {
      String method = ex.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        ex.getResponseHeaders().set("Allow", "GET, HEAD");
        send(ex, 405, "text/plain", "read-only: only GET and HEAD are answered");
        return;
      }
      String raw = ex.getRequestURI().getRawPath();
      String query = ex.getRequestURI().getRawQuery();
      if (!raw.startsWith("/api/v1/") && !raw.equals("/api/v1")) {
        send(ex, 404, "text/plain", "not found: " + raw + " (this server answers the REST API under /api/v1/ only)");
        return;
      }
      if (raw.matches("/api/v1/applications/[^/]+(/[^/]+)?/logs/?")) {
        send(ex, 404, "text/plain", "event-log downloads are not served here: read the logs in "
            + Redactor.redactUri(config.location) + " directly");
        return;
      }
      String path = raw.substring("/api/v1".length()) + (query == null ? "" : "?" + query);
      ApiResponse r;
      Future<ApiResponse> f;
      try {
        f = workers.submit(() -> {
          ApiResponse answer = RestRouter.over(history()).get(path);
          return config.redact && answer.ok()
              ? new ApiResponse(answer.status(), Redactor.standard().redactJson(answer.body())) : answer;
        });
      } catch (RejectedExecutionException e) {
        send(ex, 503, "text/plain", "too many requests in progress; try again shortly");
        return;
      }
      try {
        r = f.get(config.requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        f.cancel(true);
        send(ex, 503, "text/plain", "the answer took longer than " + config.requestTimeout.toSeconds()
            + " s (replaying a large log); try again shortly, it may be ready then");
        return;
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        String msg = c instanceof SparkRcaException ? c.getMessage() : "internal error: " + c;
        LOG.warn("serve: {} failed: {}", Redactor.redactUri(path), msg, c instanceof SparkRcaException ? null : c);
        send(ex, c instanceof InvalidRequestException ? 400 : 500, "text/plain", Redactor.standard().redactText(msg));
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        send(ex, 503, "text/plain", "the server is stopping");
        return;
      }
      send(ex, r.status(), r.ok() ? "application/json" : "text/plain", r.body());
    }
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type + (type.startsWith("text/") ? "; charset=utf-8" : ""));
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /** Builder for {@link HistoryApiServer}. */
  public static final class Builder {
    private final String location;
    private String host = "127.0.0.1";
    private int port = 18080;
    private int threads = 4;
    private int queue = 64;
    private int cachedApplications = 8;
    private Duration requestTimeout = Duration.ofSeconds(120);
    private Duration refreshInterval = Duration.ofSeconds(2);
    private EventLogReader reader;
    private boolean redact;

    private Builder(String location) {
      this.location = Objects.requireNonNull(location, "location");
    }

    /**
     * The address to listen on (default {@code 127.0.0.1}, this machine only). Anything else
     * exposes the applications' data, secrets redacted, to whoever reaches that address.
     */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port (default 18080, the History Server's; 0 picks a free one). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new InvalidRequestException("the port must be between 0 and 65535, not " + port);
      }
      this.port = port;
      return this;
    }

    /** Threads answering requests (default 4). */
    public Builder threads(int threads) {
      if (threads < 1 || threads > 64) {
        throw new InvalidRequestException("the number of server threads must be between 1 and 64, not " + threads);
      }
      this.threads = threads;
      return this;
    }

    /** Replayed applications kept (default 8). */
    public Builder cachedApplications(int n) {
      if (n < 1 || n > 1000) {
        throw new InvalidRequestException("the number of cached applications must be between 1 and 1000, not " + n);
      }
      this.cachedApplications = n;
      return this;
    }

    /** How long one request may take (default 120 s); then 503. */
    public Builder requestTimeout(Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new InvalidRequestException("the request timeout must be positive, not " + d);
      }
      this.requestTimeout = d;
      return this;
    }

    /** How often at most the log directory is looked at again (default 2 s). */
    public Builder refreshInterval(Duration d) {
      if (d.isNegative()) {
        throw new InvalidRequestException("the refresh interval must not be negative, not " + d);
      }
      this.refreshInterval = d;
      return this;
    }

    /**
     * Whether answers are redacted beyond the History Server's own rule (default false: answers
     * are the History Server's): every secret known by its value ({@link
     * io.sparkrca.core.redaction.SecretPatterns}) in names, descriptions, SQL text and properties,
     * and every property whose name sparkrca holds secret ({@link Redactor#redactJson}).
     */
    public Builder redact(boolean redact) {
      this.redact = redact;
      return this;
    }

    /** The reader of the logs (default: local files and the class path's byte sources). */
    public Builder reader(EventLogReader reader) {
      this.reader = Objects.requireNonNull(reader, "reader");
      return this;
    }

    public HistoryApiServer build() {
      return new HistoryApiServer(this);
    }
  }
}
