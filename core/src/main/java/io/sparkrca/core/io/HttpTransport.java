package io.sparkrca.core.io;

import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.redaction.Redactor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends GET requests for {@link HttpByteSource}: headers, redirects, retries with backoff and
 * {@code Retry-After}, and the translation of failures into messages that say what to do.
 */
final class HttpTransport {
  /**
   * The logger, got on first use (a retry): every command that opens a URI makes a transport, and
   * getting a logger first starts the logging provider, which costs a short command's start.
   */
  private static final class Log {
    static final Logger LOG = LoggerFactory.getLogger(HttpTransport.class);
  }

  /** How the transport waits between retries; replaced in tests so that nothing really sleeps. */
  interface Sleeper {
    Sleeper REAL = d -> Thread.sleep(d.toMillis());

    void sleep(Duration d) throws InterruptedException;
  }

  /** A final (non-redirect, non-retryable) answer; the caller closes {@link #body()}. */
  record Response(int status, HttpHeaders headers, BodyStream body, URI uri) {
    Optional<String> header(String name) {
      return headers.firstValue(name);
    }
  }

  private final HttpSettings settings;
  private volatile HttpClient client;

  HttpTransport(HttpSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  HttpSettings settings() {
    return settings;
  }

  private HttpClient client() {
    HttpClient c = client;
    if (c == null) {
      synchronized (this) {
        c = client;
        if (c == null) {
          c =
              HttpClient.newBuilder()
                  .connectTimeout(settings.connectTimeout())
                  .followRedirects(HttpClient.Redirect.NEVER) // followed here, to guard credentials
                  .sslContext(TlsTrust.withExtraCas(settings.caFiles()))
                  .build();
          client = c;
        }
      }
    }
    return c;
  }

  /**
   * Sends a GET and returns the first answer that is neither a redirect nor worth retrying: a 2xx
   * or a 416. 401, 403, 404 and 410 and other errors become exceptions naming {@code name}.
   *
   * @param range the {@code Range} header value, or null for none
   * @param extraHeaders per-source headers (credentials taken from the URL)
   */
  Response get(URI uri, String name, String range, Map<String, String> extraHeaders)
      throws IOException {
    URI current = uri;
    boolean sameOrigin = true;
    int redirects = 0;
    int attempt = 0;
    Duration waited = Duration.ZERO;
    while (true) {
      HttpRequest request = request(current, range, sameOrigin ? extraHeaders : Map.of(), sameOrigin);
      HttpResponse<java.io.InputStream> response;
      try {
        response = client().send(request, info -> new BodyStream(settings.readTimeout()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted during GET " + name);
      } catch (IOException e) {
        if (!isRetryable(e) || attempt >= settings.maxRetries()) {
          throw failure(name, e, attempt + 1);
        }
        Duration wait = backoff(attempt);
        Log.LOG.debug("GET {} failed ({}); retry {} in {} ms", name, e, attempt + 1, wait.toMillis());
        pause(wait, name);
        attempt++;
        continue;
      }
      int status = response.statusCode();
      BodyStream body = (BodyStream) response.body();
      if (isRedirect(status)) {
        body.close();
        URI next = redirectTarget(current, response.headers(), name);
        if (++redirects > settings.maxRedirects()) {
          throw new SparkRcaException(
              "GET " + name + ": more than " + settings.maxRedirects() + " redirects; the URL "
                  + "loops or points at a login page. Check the URL");
        }
        if ("https".equalsIgnoreCase(current.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
          throw new SparkRcaException(
              "GET " + name + ": the server redirects from https to plain http ("
                  + Redactor.redactUri(next.toString()) + "); refused so that nothing is sent in the "
                  + "clear. Use the https URL of the final location");
        }
        sameOrigin &= sameOrigin(uri, next);
        current = next;
        continue;
      }
      if (isRetryableStatus(status)) {
        Optional<Duration> retryAfter = retryAfter(response.headers());
        String detail = snippet(body);
        body.close();
        if (attempt >= settings.maxRetries()) {
          throw new SparkRcaException(
              "GET " + name + ": HTTP " + status + reason(status) + " after " + (attempt + 1)
                  + " attempts" + detail + ". The server is overloaded or failing; try again later");
        }
        if (retryAfter.isPresent() && retryAfter.get().compareTo(settings.maxRetryAfter()) > 0) {
          throw new SparkRcaException(
              "GET " + name + ": HTTP " + status + reason(status) + "; the server asks to retry after "
                  + retryAfter.get().toSeconds() + " s, longer than the "
                  + settings.maxRetryAfter().toSeconds() + " s this reader waits. Try again later");
        }
        Duration wait = retryAfter.isPresent() ? retryAfter.get() : backoff(attempt);
        if (waited.plus(wait).compareTo(settings.maxRetryAfter()) > 0) {
          // The waits of one request together stay within what one Retry-After may ask for.
          throw new SparkRcaException(
              "GET " + name + ": HTTP " + status + reason(status) + " after " + (attempt + 1) + " attempts and "
                  + waited.toSeconds() + " s of waiting; the server asks to wait " + wait.toSeconds()
                  + " s more, past the " + settings.maxRetryAfter().toSeconds() + " s this reader waits for one "
                  + "request" + detail + ". Try again later");
        }
        if (wait.compareTo(Duration.ofSeconds(5)) >= 0) {
          Log.LOG.warn("GET {}: HTTP {}{}; waiting {} s before retry {} of {}", name, status, reason(status),
              wait.toSeconds(), attempt + 1, settings.maxRetries());
        } else {
          Log.LOG.debug("GET {}: HTTP {}; retry {} in {} ms", name, status, attempt + 1, wait.toMillis());
        }
        pause(wait, name);
        waited = waited.plus(wait);
        attempt++;
        continue;
      }
      if (status >= 400 && status != 416) {
        String detail = snippet(body);
        body.close();
        throw statusError(name, status, detail, hasCredentials(extraHeaders));
      }
      return new Response(status, response.headers(), body, current);
    }
  }

  private HttpRequest request(
      URI uri, String range, Map<String, String> extraHeaders, boolean sendCredentials) {
    if (sendCredentials && (settings.hasCredentials() || !extraHeaders.isEmpty())
        && "http".equalsIgnoreCase(uri.getScheme()) && !settings.credentialsOverPlainHttp()
        && !isLoopback(uri.getHost())) {
      throw new SparkRcaException(
          "refusing to send credentials over plain http to " + uri.getHost() + ": anyone on the "
              + "network path could read them. Use the https URL, or allow plain http for this "
              + "host explicitly in the HTTP settings");
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(settings.requestTimeout()).GET();
    if ("http".equalsIgnoreCase(uri.getScheme())) {
      b.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance on plain http
    }
    b.header("Accept-Encoding", "identity"); // byte offsets must be offsets into the object
    b.header("User-Agent", "sparkrca");
    if (sendCredentials) {
      settings.headers().forEach(b::setHeader);
      Map<String, String> dynamic = settings.dynamicHeaders().get();
      if (dynamic != null) {
        // Computed per request (a refreshed token), so not checked when the settings were built.
        dynamic.forEach((k, v) -> {
          HttpSettings.requireValidHeader(k, v);
          b.setHeader(k, v);
        });
      }
      extraHeaders.forEach(b::setHeader);
    }
    if (range != null) {
      b.setHeader("Range", range);
    }
    return b.build();
  }

  private boolean hasCredentials(Map<String, String> extraHeaders) {
    if (!extraHeaders.isEmpty()) {
      return true;
    }
    for (String h : settings.headers().keySet()) {
      if (h.equalsIgnoreCase("Authorization") || h.equalsIgnoreCase("Cookie")) {
        return true;
      }
    }
    Map<String, String> dynamic = settings.dynamicHeaders().get();
    return dynamic != null && !dynamic.isEmpty();
  }

  /** Whether {@code host} is this machine (a name or address that never leaves it). */
  static boolean isLoopback(String host) {
    if (host == null) {
      return false;
    }
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return h.equalsIgnoreCase("localhost") || h.startsWith("127.") || h.equals("::1")
        || h.equals("0:0:0:0:0:0:0:1");
  }

  private static boolean isRedirect(int status) {
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
  }

  private static boolean isRetryableStatus(int status) {
    return status == 408 || status == 429 || status == 500 || status == 502 || status == 503
        || status == 504;
  }

  private static URI redirectTarget(URI current, HttpHeaders headers, String name) {
    String location =
        headers
            .firstValue("Location")
            .orElseThrow(
                () ->
                    new SparkRcaException(
                        "GET " + name + ": a redirect without a Location header; the server is "
                            + "misconfigured"));
    URI next;
    try {
      next = current.resolve(URI.create(location.trim()));
    } catch (IllegalArgumentException e) {
      throw new SparkRcaException("GET " + name + ": the server redirects to an invalid URL");
    }
    String scheme = String.valueOf(next.getScheme());
    if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https") || next.getHost() == null) {
      throw new SparkRcaException("GET " + name + ": the server redirects to " + Redactor.redactUri(next.toString())
          + ", which is not an http(s) URL with a host; refused. Check the URL, or give the final location directly");
    }
    return next;
  }

  static boolean sameOrigin(URI a, URI b) {
    return a.getScheme().equalsIgnoreCase(b.getScheme())
        && String.valueOf(a.getHost()).equalsIgnoreCase(String.valueOf(b.getHost()))
        && port(a) == port(b);
  }

  private static int port(URI u) {
    if (u.getPort() >= 0) {
      return u.getPort();
    }
    return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }

  /** Parses {@code Retry-After}: delay-seconds or an HTTP date. */
  static Optional<Duration> retryAfter(HttpHeaders headers) {
    Optional<String> v = headers.firstValue("Retry-After");
    if (v.isEmpty()) {
      return Optional.empty();
    }
    String s = v.get().trim();
    try {
      long seconds = Long.parseLong(s);
      return Optional.of(Duration.ofSeconds(Math.max(0, seconds)));
    } catch (NumberFormatException e) {
      try {
        ZonedDateTime when = ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(ZonedDateTime.now(when.getZone()), when);
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
      } catch (DateTimeParseException ignored) {
        return Optional.empty();
      }
    }
  }

  /** Exponential backoff with "equal jitter": between half and all of initial * 2^attempt. */
  Duration backoff(int attempt) {
    long base = settings.initialBackoff().toMillis();
    long cap = settings.maxBackoff().toMillis();
    long exp = attempt >= 30 ? cap : Math.min(cap, base << attempt);
    long half = exp / 2;
    return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(exp - half + 1));
  }

  void pause(Duration wait, String name) throws InterruptedIOException {
    try {
      settings.sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to retry " + name);
    }
  }

  /** Whether a failed request may succeed if tried again. */
  static boolean isRetryable(IOException e) {
    if (e instanceof InterruptedIOException && !(e instanceof HttpTimeoutException)
        && !(e instanceof java.net.SocketTimeoutException)) {
      return false;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException
          || t instanceof SSLPeerUnverifiedException
          || t instanceof CertificateException
          || t instanceof UnknownHostException
          || t instanceof UnresolvedAddressException
          || t instanceof java.net.ConnectException && !(t instanceof java.net.http.HttpConnectTimeoutException)) {
        // A refused connection means nothing listens there: retrying only delays the answer.
        return false;
      }
    }
    return true;
  }

  /** The message for a request that failed without an HTTP answer. */
  static SparkRcaException failure(String name, IOException e, int attempts) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException
          || t instanceof SSLPeerUnverifiedException
          || t instanceof CertificateException) {
        return new SparkRcaException(
            "GET " + name + ": TLS certificate verification failed ("
                + Redactor.redactUri(String.valueOf(t.getMessage())) + "). If a proxy on your network "
                + "inspects TLS traffic, or the server uses a private CA, add its root certificate to "
                + "the trusted CA files (it is added to the system trust); verification is never "
                + "disabled",
            e);
      }
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return new SparkRcaException(
            "GET " + name + ": cannot resolve the host name; check the URL and your DNS or proxy "
                + "settings", e);
      }
      if (t instanceof java.net.ConnectException) {
        return new SparkRcaException(
            "GET " + name + ": connection refused, nothing listens at that host and port; check "
                + "the URL and that the server is up", e);
      }
    }
    String what = e instanceof HttpTimeoutException ? "timed out" : "failed";
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new SparkRcaException(
        "GET " + name + ": the request " + what + " after " + attempts + " attempt"
            + (attempts == 1 ? "" : "s") + " (" + Redactor.redactUri(detail) + "); check the URL, "
            + "that the server is up, and the network", e);
  }

  private static RuntimeException statusError(String name, int status, String detail, boolean sentCredentials) {
    switch (status) {
      case 401:
        return new AccessDeniedException(
            name,
            "HTTP 401 Unauthorized" + detail,
            sentCredentials
                ? "the credentials sent were rejected; check that the token is valid and not expired"
                : "the server requires credentials; send them as a header of the HTTP settings "
                    + "(HttpSettings.builder().header(\"Authorization\", \"Bearer TOKEN\"), or "
                    + "bearerTokenFromEnv(VAR) to read the token from the environment)");
      case 403:
        return new AccessDeniedException(
            name,
            "HTTP 403 Forbidden" + detail,
            (sentCredentials
                    ? "the credentials were accepted but may not read this object"
                    : "no credentials were sent and the server refuses anonymous reads")
                + "; ask for read access to it (for Cloud Storage, roles/storage.objectViewer) or "
                + "check the URL");
      case 404:
      case 410:
        return new InputNotFoundException(
            name,
            "HTTP " + status + detail + "; check the URL"
                + (name.contains("driveroutput")
                    ? " (a Dataproc driveroutput prefix is not an object: pass the prefix itself, "
                        + "and its numbered parts are found)"
                    : ""));
      default:
        return new UnsupportedInputException(
            "GET " + name + ": HTTP " + status + reason(status) + detail + "; the server refused "
                + "the request. Check the URL and the headers");
    }
  }

  private static String reason(int status) {
    switch (status) {
      case 408: return " Request Timeout";
      case 429: return " Too Many Requests";
      case 500: return " Internal Server Error";
      case 502: return " Bad Gateway";
      case 503: return " Service Unavailable";
      case 504: return " Gateway Timeout";
      default: return "";
    }
  }

  /** The start of an error body, as a short quoted suffix, with secrets redacted. */
  private static String snippet(BodyStream body) {
    try {
      byte[] head = body.readNBytes(300);
      String text = new String(head, StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
      if (text.isEmpty() || text.startsWith("<")) {
        return "";
      }
      return ": \"" + Redactor.redactUri(text) + "\"";
    } catch (IOException e) {
      return "";
    }
  }
}
