package io.sparkrca.historyserver.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A loopback HTTP proxy in front of a History Server (the real one, or {@code serve}) that passes
 * every GET through unchanged, optionally after a fixed delay, except those a scripted {@link
 * Fault} matches: 429 with {@code Retry-After}, 500/502/503, a body that stalls past the client's
 * read timeout, a body cut mid-JSON, a proxy's HTML login page, an oversize body, a redirect to
 * another host, a connection closed without an answer. It records every request (path, query and
 * whether an {@code Authorization} header came with it), so tests can count retries.
 *
 * <pre>{@code
 * try (FaultProxy p = FaultProxy.start(shsUrl, Duration.ZERO)) {
 *   p.inject(path -> path.endsWith("/jobs"), FaultProxy.Fault.UNAVAILABLE, 2);
 *   // point the client at p.url()
 * }
 * }</pre>
 */
public final class FaultProxy implements AutoCloseable {
  /** What the proxy does in place of passing a request through. */
  public enum Fault {
    /** 429 Too Many Requests with {@code Retry-After: 1}. */
    TOO_MANY_REQUESTS,
    /** 401 Unauthorized, as a server that wants credentials. */
    UNAUTHORIZED,
    /** 403 Forbidden, as a server that refuses the credentials sent. */
    FORBIDDEN,
    /** 500 Internal Server Error. */
    SERVER_ERROR,
    /** 502 Bad Gateway. */
    BAD_GATEWAY,
    /** 503 Service Unavailable. */
    UNAVAILABLE,
    /** The real answer, its second half sent only after {@link #stall}. */
    SLOW_BODY,
    /** The first half of the real answer, then the end of the (chunked) body. */
    CUT_MID_JSON,
    /** 200 with a single sign-on login page. */
    HTML_LOGIN,
    /** 200 with a JSON body of 26 MiB (more than the default cap of one answer). */
    OVERSIZE,
    /** 302 to the same path on {@code localhost} of the {@link #redirectTarget} (another host name). */
    REDIRECT_OTHER_HOST,
    /** The connection closed without an answer. */
    CLOSE_WITHOUT_ANSWER,
    /**
     * The real answer behind 64 KiB of leading white space, sent 1,100 bytes every 900 ms: fast
     * enough that no read waits a whole second for its next KiB, far too slow for a whole answer.
     */
    TRICKLE
  }

  /** One request the proxy received. */
  public record Request(String pathAndQuery, boolean authorization, String fault) {}

  private record Rule(Predicate<String> matches, Fault fault, AtomicInteger remaining) {}

  private final HttpServer server;
  private final ExecutorService pool;
  private final String upstream;
  private final Duration delay;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
      .version(HttpClient.Version.HTTP_1_1).build();
  private final List<Rule> rules = Collections.synchronizedList(new ArrayList<>());
  private final List<Request> log = Collections.synchronizedList(new ArrayList<>());
  private final AtomicLong forwarded = new AtomicLong();
  private volatile Duration stall = Duration.ofSeconds(3);
  private volatile String redirectTarget = "";

  private FaultProxy(String upstream, Duration delay, int threads) throws IOException {
    this.upstream = upstream.replaceAll("/+$", "");
    this.delay = delay;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    this.pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "fault-proxy");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(pool);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A proxy to {@code upstream} (a root such as {@code http://127.0.0.1:18080}) adding {@code delay} to each request. */
  public static FaultProxy start(String upstream, Duration delay) {
    try {
      return new FaultProxy(upstream, delay, 32);
    } catch (IOException e) {
      throw new IllegalStateException("cannot bind the fault proxy", e);
    }
  }

  /** Its root URL on 127.0.0.1. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Applies {@code fault} to the next {@code times} requests whose path and query {@code matches}. */
  public FaultProxy inject(Predicate<String> matches, Fault fault, int times) {
    rules.add(new Rule(matches, fault, new AtomicInteger(times)));
    return this;
  }

  /** How long {@link Fault#SLOW_BODY} stalls mid-body. */
  public FaultProxy stall(Duration d) {
    this.stall = d;
    return this;
  }

  /** The root that {@link Fault#REDIRECT_OTHER_HOST} redirects to (its host should differ from 127.0.0.1). */
  public FaultProxy redirectTarget(String root) {
    this.redirectTarget = root.replaceAll("/+$", "");
    return this;
  }

  /** Forgets the rules and the request log. */
  public void reset() {
    rules.clear();
    log.clear();
    forwarded.set(0);
  }

  /** Every request received, in order. */
  public List<Request> requests() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** Requests received whose path and query {@code matches}. */
  public long count(Predicate<String> matches) {
    return requests().stream().filter(r -> matches.test(r.pathAndQuery())).count();
  }

  /** Requests passed through to the upstream. */
  public long forwarded() {
    return forwarded.get();
  }

  private Fault take(String pathAndQuery) {
    synchronized (rules) {
      for (Rule r : rules) {
        if (r.matches().test(pathAndQuery) && r.remaining().getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
          return r.fault();
        }
      }
    }
    return null;
  }

  private void handle(HttpExchange ex) throws IOException {
    String pathAndQuery = ex.getRequestURI().getRawPath()
        + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery());
    Fault fault = take(pathAndQuery);
    log.add(new Request(pathAndQuery, ex.getRequestHeaders().containsKey("Authorization"),
        fault == null ? "" : fault.name()));
    try {
      if (!delay.isZero()) {
        Thread.sleep(delay.toMillis());
      }
      if (fault == null) {
        pass(ex, pathAndQuery);
        return;
      }
      switch (fault) {
        case TOO_MANY_REQUESTS -> {
          ex.getResponseHeaders().set("Retry-After", "1");
          text(ex, 429, "slow down");
        }
        case UNAUTHORIZED -> text(ex, 401, "unauthorized");
        case FORBIDDEN -> text(ex, 403, "forbidden");
        case SERVER_ERROR -> text(ex, 500, "internal error");
        case BAD_GATEWAY -> text(ex, 502, "bad gateway");
        case UNAVAILABLE -> text(ex, 503, "unavailable");
        case HTML_LOGIN -> {
          ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
          byte[] page = ("<!DOCTYPE html>\n<html><head><title>Sign in - Example Corp SSO</title></head>"
              + "<body><form action=\"/login\"><input name=\"user\"></form></body></html>").getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, page.length);
          ex.getResponseBody().write(page);
        }
        case OVERSIZE -> {
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(200, 0);
          OutputStream out = ex.getResponseBody();
          byte[] spaces = new byte[64 * 1024];
          java.util.Arrays.fill(spaces, (byte) ' ');
          out.write('[');
          for (int i = 0; i < 26 * 16; i++) {
            out.write(spaces);
          }
          out.write(']');
        }
        case REDIRECT_OTHER_HOST -> {
          ex.getResponseHeaders().set("Location", redirectTarget + pathAndQuery);
          ex.sendResponseHeaders(302, -1);
        }
        case CLOSE_WITHOUT_ANSWER -> {
          // No status line at all: the client sees the connection end (as after a reset).
        }
        case SLOW_BODY, CUT_MID_JSON -> {
          HttpResponse<byte[]> r = upstream(pathAndQuery);
          byte[] body = r.body();
          ex.getResponseHeaders().set("Content-Type", r.headers().firstValue("Content-Type").orElse("application/json"));
          ex.sendResponseHeaders(r.statusCode(), 0);
          OutputStream out = ex.getResponseBody();
          int half = body.length / 2;
          out.write(body, 0, half);
          out.flush();
          if (fault == Fault.SLOW_BODY) {
            Thread.sleep(stall.toMillis());
            out.write(body, half, body.length - half);
          }
        }
        case TRICKLE -> {
          HttpResponse<byte[]> r = upstream(pathAndQuery);
          ex.getResponseHeaders().set("Content-Type", "application/json");
          ex.sendResponseHeaders(r.statusCode(), 0);
          byte[] padded = new byte[64 * 1024 + r.body().length];
          java.util.Arrays.fill(padded, 0, 64 * 1024, (byte) ' ');
          System.arraycopy(r.body(), 0, padded, 64 * 1024, r.body().length);
          OutputStream out = ex.getResponseBody();
          for (int i = 0; i < padded.length; i += 1100) {
            out.write(padded, i, Math.min(1100, padded.length - i));
            out.flush();
            Thread.sleep(900);
          }
        }
        default -> throw new IllegalStateException(fault.name());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientWentAway) {
      // The client gave up (a cap, a timeout): nothing more to send.
    } finally {
      ex.close();
    }
  }

  private void pass(HttpExchange ex, String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<byte[]> r = upstream(pathAndQuery);
    forwarded.incrementAndGet();
    r.headers().firstValue("Content-Type").ifPresent(v -> ex.getResponseHeaders().set("Content-Type", v));
    byte[] body = r.body();
    ex.sendResponseHeaders(r.statusCode(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      ex.getResponseBody().write(body);
    }
  }

  private HttpResponse<byte[]> upstream(String pathAndQuery) throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(URI.create(upstream + pathAndQuery)).timeout(Duration.ofMinutes(5)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void text(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain");
    ex.sendResponseHeaders(status, b.length);
    ex.getResponseBody().write(b);
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
