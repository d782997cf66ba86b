package io.sparkrca.core.io;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * A loopback HTTP(S) server for tests: serves objects (in memory or generated) with or without
 * Range support, optional required credentials, scripted failures, redirects; counts requests and
 * body bytes written, and records each request's headers.
 *
 * <pre>{@code
 * try (TestHttpServer server = TestHttpServer.start()) {
 *   server.serve("/log", TestHttpServer.Content.of("hello\n"));
 *   ByteSource s = HttpByteSource.of(server.url("/log"));
 * }
 * }</pre>
 */
public final class TestHttpServer implements AutoCloseable {
  /** The bytes of a served object, possibly generated on the fly. */
  public interface Content {
    long size();

    void copy(long offset, byte[] dst, int off, int len);

    static Content of(byte[] bytes) {
      return new Content() {
        @Override
        public long size() {
          return bytes.length;
        }

        @Override
        public void copy(long offset, byte[] dst, int off, int len) {
          System.arraycopy(bytes, (int) offset, dst, off, len);
        }
      };
    }

    static Content of(String text) {
      return of(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** One request as the server saw it. */
  public record Request(String method, String path, Map<String, String> headers) {
    public String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** A canned answer given once, before normal serving resumes. */
  public record Scripted(int status, Map<String, String> headers, String body) {}

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "test-http");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Content> objects = new ConcurrentHashMap<>();
  private final Map<String, String> redirects = new ConcurrentHashMap<>();
  private final Map<String, ConcurrentLinkedQueue<Scripted>> scripts = new ConcurrentHashMap<>();
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong bodyBytes = new AtomicLong();
  private volatile boolean rangeSupported = true;
  private volatile String requiredAuthorization;
  private volatile String etag = "\"v1\"";

  private TestHttpServer(HttpServer server) {
    this.server = server;
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** A plain HTTP server on a free loopback port. */
  public static TestHttpServer start() throws IOException {
    return new TestHttpServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
  }

  /** An HTTPS server presenting the key and certificate of {@code ssl}. */
  public static TestHttpServer startHttps(SSLContext ssl) throws IOException {
    HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.setHttpsConfigurator(new HttpsConfigurator(ssl));
    return new TestHttpServer(s);
  }

  public String url(String path) {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return scheme + "://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public TestHttpServer serve(String path, Content content) {
    objects.put(path, content);
    return this;
  }

  public TestHttpServer redirect(String from, String toUrl) {
    redirects.put(from, toUrl);
    return this;
  }

  /** Answers the next request for {@code path} with this status (and headers) once. */
  public TestHttpServer enqueue(String path, int status, Map<String, String> headers) {
    scripts.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>()).add(new Scripted(status, headers, "scripted " + status));
    return this;
  }

  /** Whether Range headers are honoured (true) or ignored with a 200 and the whole body. */
  public TestHttpServer rangeSupported(boolean supported) {
    this.rangeSupported = supported;
    return this;
  }

  /** Requires this exact Authorization header: 401 without one, 403 with another. */
  public TestHttpServer requireAuthorization(String value) {
    this.requiredAuthorization = value;
    return this;
  }

  public TestHttpServer etag(String value) {
    this.etag = value;
    return this;
  }

  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** Body bytes written to clients (including any the client abandoned unread; an upper bound). */
  public long bodyBytesSent() {
    return bodyBytes.get();
  }

  public void resetCounters() {
    requests.clear();
    bodyBytes.set(0);
  }

  private final AtomicLong active = new AtomicLong();

  /** Waits (up to 10 s) until no request is being served, e.g. after a client abandoned one. */
  public void awaitIdle() throws InterruptedException {
    for (int i = 0; i < 1000 && active.get() > 0; i++) {
      Thread.sleep(10);
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    active.incrementAndGet();
    try {
      serveOne(ex);
    } finally {
      active.decrementAndGet();
    }
  }

  private void serveOne(HttpExchange ex) throws IOException {
    try (ex) {
      Map<String, String> headers = new HashMap<>();
      ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(",", v)));
      String path = ex.getRequestURI().getPath();
      requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().toString(), Map.copyOf(headers)));

      ConcurrentLinkedQueue<Scripted> script = scripts.get(path);
      Scripted s = script == null ? null : script.poll();
      if (s != null) {
        s.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        sendText(ex, s.status(), s.body());
        return;
      }
      String target = redirects.get(path);
      if (target != null) {
        ex.getResponseHeaders().set("Location", target);
        ex.sendResponseHeaders(302, -1);
        return;
      }
      String auth = requiredAuthorization;
      if (auth != null) {
        String given = headers.get("authorization");
        if (given == null) {
          sendText(ex, 401, "{\"error\": \"login required\"}");
          return;
        }
        if (!given.equals(auth)) {
          sendText(ex, 403, "{\"error\": \"no access\"}");
          return;
        }
      }
      Content c = objects.get(path);
      if (c == null) {
        sendText(ex, 404, "No such object: " + path);
        return;
      }
      ex.getResponseHeaders().set("ETag", etag);
      ex.getResponseHeaders().set("Last-Modified", "Wed, 01 May 2024 12:00:00 GMT");
      ex.getResponseHeaders().set("Accept-Ranges", rangeSupported ? "bytes" : "none");
      long size = c.size();
      String range = headers.get("range");
      if (range != null && rangeSupported) {
        Matcher m = RANGE.matcher(range.trim());
        if (m.matches()) {
          long first;
          long last;
          if (m.group(1).isEmpty()) { // suffix: the last N bytes
            long n = Long.parseLong(m.group(2));
            first = Math.max(0, size - n);
            last = size - 1;
          } else {
            first = Long.parseLong(m.group(1));
            last = m.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(m.group(2)));
          }
          if (first >= size) {
            ex.getResponseHeaders().set("Content-Range", "bytes */" + size);
            ex.sendResponseHeaders(416, -1);
            return;
          }
          ex.getResponseHeaders().set("Content-Range", "bytes " + first + "-" + last + "/" + size);
          sendBody(ex, 206, c, first, last - first + 1);
          return;
        }
      }
      sendBody(ex, 200, c, 0, size);
    }
  }

  private void sendText(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
  }

  private void sendBody(HttpExchange ex, int status, Content c, long from, long length) throws IOException {
    if ("HEAD".equals(ex.getRequestMethod())) {
      ex.getResponseHeaders().set("Content-Length", Long.toString(length));
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, length == 0 ? -1 : length);
    OutputStream out = ex.getResponseBody();
    byte[] chunk = new byte[64 * 1024];
    long done = 0;
    try {
      while (done < length) {
        int n = (int) Math.min(chunk.length, length - done);
        c.copy(from + done, chunk, 0, n);
        // Counted before writing: the client may have read the bytes and the test asserted on
        // the count before a write returns. A failed write thus counts as sent (an upper bound).
        bodyBytes.addAndGet(n);
        out.write(chunk, 0, n);
        done += n;
      }
    } catch (IOException e) {
      // The client went away: stop writing.
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
