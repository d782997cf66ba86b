package io.sparkrca.gcp.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback server speaking the part of the Cloud Storage JSON API the google-cloud-storage client
 * uses to read: object metadata, media downloads with {@code Range} (206 and {@code Content-Range},
 * {@code x-goog-generation}), and listing with {@code prefix}, {@code delimiter} and paging. Objects
 * may be "virtual": their bytes are computed from the offset, so a 5 GB object costs no memory.
 * It counts requests and the media bytes it sent, and can misbehave on purpose (ignore ranges,
 * answer an error status).
 */
public final class FakeGcs implements AutoCloseable {
  /** The bytes of a virtual object at an offset. */
  public interface Content {
    byte at(long offset);
  }

  private record Obj(long size, long generation, Content content) {}

  private final HttpServer server;
  private final Map<String, Obj> objects = new ConcurrentHashMap<>();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger mediaRequests = new AtomicInteger();
  private final AtomicLong mediaBytes = new AtomicLong();
  private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
  private volatile boolean ignoreRange;
  private volatile int failStatus;
  private final AtomicLong generations = new AtomicLong(1000);

  public FakeGcs() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "fake-gcs");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  /** The host to give the client ({@code StorageOptions.setHost}, STORAGE_EMULATOR_HOST). */
  public String host() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public FakeGcs put(String bucket, String name, byte[] bytes) {
    objects.put(bucket + "/" + name, new Obj(bytes.length, generations.incrementAndGet(), o -> bytes[(int) o]));
    return this;
  }

  public FakeGcs put(String bucket, String name, String text) {
    return put(bucket, name, text.getBytes(StandardCharsets.UTF_8));
  }

  public FakeGcs putVirtual(String bucket, String name, long size, Content content) {
    objects.put(bucket + "/" + name, new Obj(size, generations.incrementAndGet(), content));
    return this;
  }

  /** Answer media requests with 200 and the whole object, whatever the Range. */
  public FakeGcs ignoreRange(boolean ignore) {
    this.ignoreRange = ignore;
    return this;
  }

  /** Answer every request with this status (0: behave). */
  public FakeGcs failWith(int status) {
    this.failStatus = status;
    return this;
  }

  public int requests() {
    return requests.get();
  }

  public int mediaRequests() {
    return mediaRequests.get();
  }

  public long mediaBytes() {
    return mediaBytes.get();
  }

  public List<String> log() {
    return List.copyOf(log);
  }

  public void reset() {
    requests.set(0);
    mediaRequests.set(0);
    mediaBytes.set(0);
    log.clear();
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      requests.incrementAndGet();
      String path = ex.getRequestURI().getRawPath();
      Map<String, String> q = query(ex.getRequestURI().getRawQuery());
      log.add(ex.getRequestMethod() + " " + ex.getRequestURI() + (ex.getRequestHeaders().getFirst("Range") == null ? ""
          : " Range: " + ex.getRequestHeaders().getFirst("Range")));
      if (failStatus != 0) {
        json(ex, failStatus, "{\"error\":{\"code\":" + failStatus + ",\"message\":\"fake failure " + failStatus
            + "\",\"errors\":[{\"reason\":\"forbidden\",\"message\":\"fake\"}]}}");
        return;
      }
      String p = path.startsWith("/download") ? path.substring("/download".length()) : path;
      if (!p.startsWith("/storage/v1/b/")) {
        json(ex, 404, "{\"error\":{\"code\":404,\"message\":\"no such API\"}}");
        return;
      }
      String rest = p.substring("/storage/v1/b/".length());
      int slash = rest.indexOf('/');
      String bucket = decode(slash < 0 ? rest : rest.substring(0, slash));
      String tail = slash < 0 ? "" : rest.substring(slash);
      if (tail.equals("/o")) {
        list(ex, bucket, q);
        return;
      }
      if (!tail.startsWith("/o/")) {
        json(ex, 404, "{\"error\":{\"code\":404,\"message\":\"not found\"}}");
        return;
      }
      String name = decode(tail.substring(3));
      Obj o = objects.get(bucket + "/" + name);
      if (o == null || (q.containsKey("generation") && Long.parseLong(q.get("generation")) != o.generation())) {
        json(ex, 404, "{\"error\":{\"code\":404,\"message\":\"No such object: " + bucket + "/" + name + "\"}}");
        return;
      }
      if ("media".equals(q.get("alt"))) {
        media(ex, o);
      } else {
        json(ex, 200, meta(bucket, name, o));
      }
    }
  }

  private void media(HttpExchange ex, Obj o) throws IOException {
    mediaRequests.incrementAndGet();
    String range = ex.getRequestHeaders().getFirst("Range");
    long start = 0;
    long end = o.size() - 1;
    boolean partial = false;
    if (range != null && !ignoreRange) {
      String[] r = range.trim().substring("bytes=".length()).split("-", -1);
      start = Long.parseLong(r[0]);
      if (!r[1].isEmpty()) {
        end = Math.min(end, Long.parseLong(r[1]));
      }
      if (start >= o.size()) {
        ex.getResponseHeaders().add("Content-Range", "bytes */" + o.size());
        json(ex, 416, "{\"error\":{\"code\":416,\"message\":\"range not satisfiable\"}}");
        return;
      }
      partial = true;
    }
    ex.getResponseHeaders().add("x-goog-generation", Long.toString(o.generation()));
    ex.getResponseHeaders().add("Content-Type", "application/octet-stream");
    if (partial) {
      ex.getResponseHeaders().add("Content-Range", "bytes " + start + "-" + end + "/" + o.size());
    }
    long len = end - start + 1;
    ex.sendResponseHeaders(partial ? 206 : 200, len == 0 ? -1 : len);
    if (len <= 0) {
      return;
    }
    byte[] buf = new byte[64 * 1024];
    try (OutputStream out = ex.getResponseBody()) {
      long pos = start;
      while (pos <= end) {
        int n = (int) Math.min(buf.length, end - pos + 1);
        for (int i = 0; i < n; i++) {
          buf[i] = o.content().at(pos + i);
        }
        out.write(buf, 0, n);
        mediaBytes.addAndGet(n);
        pos += n;
      }
    } catch (IOException clientGone) {
      // the client stopped reading (a detected ignored range): nothing more to send
    }
  }

  private void list(HttpExchange ex, String bucket, Map<String, String> q) throws IOException {
    String prefix = q.getOrDefault("prefix", "");
    String delimiter = q.get("delimiter");
    int max = Integer.parseInt(q.getOrDefault("maxResults", "1000"));
    String token = q.get("pageToken");
    TreeMap<String, Obj> names = new TreeMap<>();
    TreeSet<String> prefixes = new TreeSet<>();
    for (Map.Entry<String, Obj> e : objects.entrySet()) {
      if (!e.getKey().startsWith(bucket + "/")) {
        continue;
      }
      String n = e.getKey().substring(bucket.length() + 1);
      if (!n.startsWith(prefix)) {
        continue;
      }
      if (delimiter != null) {
        int d = n.indexOf(delimiter, prefix.length());
        if (d >= 0) {
          prefixes.add(n.substring(0, d + delimiter.length()));
          continue;
        }
      }
      names.put(n, e.getValue());
    }
    List<String> all = new ArrayList<>();
    all.addAll(prefixes);
    all.addAll(names.keySet());
    all.sort(null);
    int from = token == null ? 0 : Integer.parseInt(token);
    int to = Math.min(all.size(), from + max);
    StringBuilder items = new StringBuilder();
    StringBuilder pfx = new StringBuilder();
    for (String n : all.subList(from, to)) {
      if (prefixes.contains(n)) {
        pfx.append(pfx.length() == 0 ? "" : ",").append('"').append(esc(n)).append('"');
      } else {
        items.append(items.length() == 0 ? "" : ",").append(meta(bucket, n, names.get(n)));
      }
    }
    String body = "{\"kind\":\"storage#objects\",\"items\":[" + items + "],\"prefixes\":[" + pfx + "]"
        + (to < all.size() ? ",\"nextPageToken\":\"" + to + "\"" : "") + "}";
    json(ex, 200, body);
  }

  private static String meta(String bucket, String name, Obj o) {
    return "{\"kind\":\"storage#object\",\"id\":\"" + esc(bucket + "/" + name + "/" + o.generation()) + "\",\"bucket\":\""
        + esc(bucket) + "\",\"name\":\"" + esc(name) + "\",\"size\":\"" + o.size() + "\",\"generation\":\""
        + o.generation() + "\",\"metageneration\":\"1\",\"updated\":\"2026-01-02T03:04:05.000Z\"}";
  }

  private static void json(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> m = new LinkedHashMap<>();
    if (raw == null) {
      return m;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      m.put(decode(eq < 0 ? kv : kv.substring(0, eq)), eq < 0 ? "" : decode(kv.substring(eq + 1)));
    }
    return m;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  static String esc(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
