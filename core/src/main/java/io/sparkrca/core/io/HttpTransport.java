package io.sparkrca.core.io;

import io.sparkrca.core.error.InvalidRequestException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one HTTP client of every remote source (HTTP byte sources, a History Server's REST API,
 * Dataproc's sparkApplications API), sending with one {@link HttpSettings}: credentials (fixed
 * headers, the URL's {@code user:password@}, an {@link HttpAuth} hook renewed after a 401) sent
 * only to the URL's origin and never over plain http to another host unless allowed; redirects
 * followed but never from https down to http; the settings' retry statuses (by default 408, 429
 * and 5xx), timeouts and broken connections retried with exponential backoff and jitter, honouring
 * {@code Retry-After} up to a cap on all the waits of one request; each attempt optionally bounded as a whole; bodies whose
 * reads fail rather than hang when the server stalls or trickles; extra CA certificates added to
 * the system trust, TLS verification never disabled. Failures are exceptions that name the call
 * without credentials and say what to do. Thread-safe; make one per settings and share it.
 *
 * <pre>{@code
 * HttpTransport http = HttpTransport.of(HttpSettings.builder().bearerTokenFromEnv("API_TOKEN").build());
 * byte[] json = http.send(HttpTransport.Request.get("https://api.example.com/v1/items").build(),
 *     answer -> answer.readAll(1 << 20).orElseThrow(() -> new UnsupportedInputException("over 1 MiB")));
 * }</pre>
 *
 * <p>A request whose answer is read by a {@link BodyReader} is retried as a whole when the body
 * breaks off or stalls (the reader's {@link IOException}s), so a partial answer is never taken as
 * complete; the attempts of one request, whatever failed, are at most one plus the settings'
 * retries.
 */
public final class HttpTransport {
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

  /**
   * Reads an answer of {@link #send(Request, BodyReader)}. An {@link IOException} it throws (the
   * body broke off, stalled, or is cut short) makes the transport send the request again, until the
   * retries are used; then it is thrown as it is. Any other exception ends the request at once.
   */
  @FunctionalInterface
  public interface BodyReader<T> {
    T read(HttpAnswer answer) throws IOException;
  }

  private final HttpSettings settings;
  private final RetryPolicy retries;
  private final Optional<Semaphore> inFlight;
  private final AtomicLong requests = new AtomicLong();
  private volatile HttpClient client;

  private HttpTransport(HttpSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.retries = new RetryPolicy(settings);
    this.inFlight = settings.maxInFlight().isPresent()
        ? Optional.of(new Semaphore(settings.maxInFlight().getAsInt())) : Optional.empty();
  }

  /** A transport that sends with these settings; its HTTP client is made on the first request. */
  public static HttpTransport of(HttpSettings settings) {
    return new HttpTransport(settings);
  }

  /** The settings this transport sends with. */
  public HttpSettings settings() {
    return settings;
  }

  /** How many HTTP requests this transport has sent (each retry and redirect counts). */
  public long requests() {
    return requests.get();
  }

  RetryPolicy retries() {
    return retries;
  }

  /**
   * Whether the transport tries again after this failure without an answer: yes for timeouts and
   * broken or reset connections; no for a refused connection, an unknown host, a TLS failure or an
   * interrupt, which asking again cannot change.
   */
  public static boolean isRetryable(IOException failure) {
    return RetryPolicy.isRetryable(failure);
  }

  /**
   * Sends {@code request} and returns the first answer that is neither a redirect nor worth
   * retrying, its body open; the caller closes it. Unless the request takes {@linkplain
   * Request.Builder#errorsAsAnswers() error answers}: 401 and 403 are {@link
   * io.sparkrca.core.error.AccessDeniedException}s, 404 and 410 {@link
   * io.sparkrca.core.error.InputNotFoundException}s (quoting the start of a plain-text body), other
   * errors and failures without an answer {@link io.sparkrca.core.error.SparkRcaException}s; a 416
   * to a ranged read is an answer.
   *
   * @throws InterruptedIOException when the thread is interrupted
   * @throws IOException only for error answers taken: the failure without an answer, after retries
   */
  public HttpAnswer send(Request request) throws IOException {
    return exchange(request, Optional.empty());
  }

  /**
   * As {@link #send(Request)}, handing the answer to {@code reader} and closing it after; returns
   * what the reader returns. A reader's {@link IOException} retries the request as a whole.
   */
  public <T> T send(Request request, BodyReader<T> reader) throws IOException {
    Objects.requireNonNull(reader, "reader");
    return exchange(request, Optional.of(reader));
  }

  @SuppressWarnings("unchecked")
  private <T> T exchange(Request request, Optional<BodyReader<T>> reader) throws IOException {
    Exchange x = new Exchange(request);
    while (true) {
      HttpAnswer answer;
      try {
        answer = attempt(x);
      } catch (IOException e) {
        retryOrThrow(x, e, true);
        continue;
      }
      boolean taken;
      try {
        taken = isFinal(x, answer);
      } catch (IOException | RuntimeException e) {
        answer.close(); // a hook or a redirect that failed, an interrupted wait: release the connection
        throw e;
      }
      if (!taken) {
        continue;
      }
      if (reader.isEmpty()) {
        return (T) answer;
      }
      try (answer) {
        return reader.get().read(answer);
      } catch (IOException e) {
        retryOrThrow(x, e, false);
      }
    }
  }

  /**
   * Waits to retry after a failure, or throws it: as it is for error answers and a reader's
   * failure, else as a message that says what to do.
   */
  private void retryOrThrow(Exchange x, IOException e, boolean beforeAnswer) throws IOException {
    if (!RetryPolicy.isRetryable(e) || x.attempt >= settings.maxRetries()) {
      if (!beforeAnswer || x.request.errorsAsAnswers || RetryPolicy.isInterrupt(e)) {
        throw e;
      }
      throw HttpErrors.failure(x.request.call(), e, x.attempt + 1);
    }
    Duration wait = retries.backoff(x.attempt);
    Log.LOG.debug("{} failed ({}); retry {} in {} ms", x.request.call(), e, x.attempt + 1, wait.toMillis());
    retries.pause(wait, x.request.name);
    x.attempt++;
  }

  /**
   * Whether {@code answer} is the one to return; when not, it is closed and the exchange is ready
   * for the next attempt (a redirect followed, credentials renewed, a retry's wait over).
   */
  private boolean isFinal(Exchange x, HttpAnswer answer) throws IOException {
    int status = answer.status();
    if (Redirects.isRedirect(status)) {
      answer.close();
      x.follow(status, answer);
      return false;
    }
    if (status == 401 && !x.renewed && x.sameOrigin && settings.auth().onUnauthorized(x.uri)) {
      answer.close();
      x.renewed = true; // once per request: a second 401 is the answer
      return false;
    }
    if (settings.retryStatuses().contains(status)) {
      return !retryStatus(x, answer);
    }
    if (status >= 400 && status != 416 && !x.request.errorsAsAnswers) {
      String detail = HttpErrors.snippet(answer.body());
      answer.close();
      throw HttpErrors.status(x.request.call(), x.request.name, status, detail, x.sentCredentials());
    }
    return true;
  }

  /** Waits to retry a retryable status and returns true, or returns false to take the answer. */
  private boolean retryStatus(Exchange x, HttpAnswer answer) throws IOException {
    int status = answer.status();
    Optional<Duration> retryAfter = RetryPolicy.retryAfter(answer.headers());
    Duration wait = retryAfter.orElseGet(() -> retries.backoff(x.attempt));
    Duration cap = settings.maxRetryAfter();
    Optional<HttpErrors.RetriesOver> over = retriesOver(x, retryAfter, wait);
    if (over.isPresent() && x.request.errorsAsAnswers) {
      return false;
    }
    String detail = HttpErrors.snippet(answer.body());
    answer.close();
    if (over.isPresent()) {
      throw HttpErrors.retriesOver(x.request.call(), status, over.get(), x.attempt + 1, x.waited, wait, cap, detail);
    }
    String call = x.request.call();
    if (wait.compareTo(Duration.ofSeconds(5)) >= 0) {
      Log.LOG.warn("{}: HTTP {}{}; waiting {} s before retry {} of {}", call, status, HttpErrors.reason(status),
          wait.toSeconds(), x.attempt + 1, settings.maxRetries());
    } else {
      Log.LOG.debug("{}: HTTP {}; retry {} in {} ms", call, status, x.attempt + 1, wait.toMillis());
    }
    retries.pause(wait, x.request.name);
    x.waited = x.waited.plus(wait);
    x.attempt++;
    return true;
  }

  /** Why no retry follows, if none does: attempts used up, or a wait too long. */
  private Optional<HttpErrors.RetriesOver> retriesOver(Exchange x, Optional<Duration> retryAfter, Duration wait) {
    Duration cap = settings.maxRetryAfter();
    if (x.attempt >= settings.maxRetries()) {
      return Optional.of(HttpErrors.RetriesOver.ATTEMPTS);
    }
    if (retryAfter.isPresent() && retryAfter.get().compareTo(cap) > 0) {
      return Optional.of(HttpErrors.RetriesOver.RETRY_AFTER);
    }
    // The waits of one request together stay within what one Retry-After may ask for.
    return x.waited.plus(wait).compareTo(cap) > 0 ? Optional.of(HttpErrors.RetriesOver.WAITED) : Optional.empty();
  }

  /** One request on the wire, holding a place in flight until its answer is closed. */
  private HttpAnswer attempt(Exchange x) throws IOException {
    HttpRequest request = x.build();
    Runnable release = acquire(x.request.name);
    long start = System.nanoTime();
    requests.incrementAndGet();
    HttpResponse<java.io.InputStream> response;
    try {
      response = client().send(request,
          info -> new BodyStream(settings.readTimeout(), settings.exchangeTimeout(), start, release));
    } catch (InterruptedException e) {
      release.run();
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted during " + x.request.call());
    } catch (IOException | RuntimeException e) {
      release.run();
      throw e;
    }
    return new HttpAnswer(response.statusCode(), response.headers(), (BodyStream) response.body(), x.uri);
  }

  /** Takes a place in flight, when places are limited; returns what gives it back (once). */
  private Runnable acquire(String name) throws InterruptedIOException {
    if (inFlight.isEmpty()) {
      return () -> { };
    }
    Semaphore places = inFlight.get();
    try {
      places.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting to send " + name);
    }
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        places.release();
      }
    };
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

  /** Where one request stands: the URL it is at after redirects, its attempts and waits. */
  private final class Exchange {
    final Request request;
    URI uri;
    String method;
    Optional<byte[]> body;
    boolean sameOrigin = true;
    int redirects;
    int attempt;
    Duration waited = Duration.ZERO;
    boolean renewed;
    /** The hook's headers on the last attempt sent to the origin. */
    Map<String, String> authHeaders = Map.of();

    Exchange(Request request) {
      this.request = request;
      this.uri = request.uri;
      this.method = request.method;
      this.body = request.body;
    }

    /** Moves to the redirect's target; a 303, or a 301/302 to a POST, becomes a GET. */
    void follow(int status, HttpAnswer answer) {
      URI next = Redirects.next(uri, answer.headers(), request.call(), ++redirects, settings.maxRedirects());
      sameOrigin &= Redirects.sameOrigin(request.uri, next);
      uri = next;
      if (status == 303 || (status == 301 || status == 302) && method.equals("POST")) {
        method = "GET";
        body = Optional.empty();
      }
    }

    /** Whether the request carried credentials, for the advice of a 401 or 403. */
    boolean sentCredentials() {
      if (!request.credentials.isEmpty() || !authHeaders.isEmpty()) {
        return true;
      }
      for (String h : settings.headers().keySet()) {
        if (h.equalsIgnoreCase("Authorization") || h.equalsIgnoreCase("Cookie")) {
          return true;
        }
      }
      return false;
    }

    HttpRequest build() {
      Map<String, String> credentials = sameOrigin ? credentials() : Map.of();
      if (!credentials.isEmpty() && "http".equalsIgnoreCase(uri.getScheme())
          && !settings.credentialsOverPlainHttp() && !Redirects.isLoopback(uri.getHost())) {
        throw HttpErrors.plainHttpCredentials(uri.getHost());
      }
      Duration timeout = settings.exchangeTimeout().filter(t -> t.compareTo(settings.requestTimeout()) < 0)
          .orElse(settings.requestTimeout());
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
      if (body.isPresent()) {
        b.method(method, HttpRequest.BodyPublishers.ofByteArray(body.get()));
      } else if (method.equals("GET")) {
        b.GET(); // not method("GET", noBody()): older JDKs then send Content-Length: 0
      } else {
        b.method(method, HttpRequest.BodyPublishers.noBody());
      }
      if ("http".equalsIgnoreCase(uri.getScheme())) {
        b.version(HttpClient.Version.HTTP_1_1); // no h2c upgrade dance on plain http
      }
      b.header("Accept-Encoding", "identity"); // byte offsets must be offsets into the object
      b.header("User-Agent", "sparkrca");
      credentials.forEach(b::setHeader);
      request.headers.forEach((k, v) -> {
        if (body.isPresent() || !k.equalsIgnoreCase("Content-Type")) {
          b.setHeader(k, v);
        }
      });
      return b.build();
    }

    /** The fixed headers, the hook's (checked: computed per request) and the URL's, in that order. */
    private Map<String, String> credentials() {
      Map<String, String> all = new LinkedHashMap<>(settings.headers());
      authHeaders = Objects.requireNonNull(settings.auth().headers(uri), "auth headers");
      authHeaders.forEach((k, v) -> {
        HttpSettings.requireValidHeader(k, v);
        all.put(k, v);
      });
      all.putAll(request.credentials);
      return all;
    }
  }

  /**
   * One request: the method, the URL (its {@code user:password@} taken out and sent as Basic
   * credentials instead), headers, a body for a POST, and the name messages give it (the URL
   * without credentials or secret query parameters).
   *
   * <pre>{@code
   * Request r = Request.get("https://shs:18080/api/v1/applications").header("Accept", "application/json").build();
   * Request q = Request.post("https://api.example.com/v1/query", json, "application/json").build();
   * }</pre>
   */
  public static final class Request {
    final String method;
    final URI uri;
    final String name;
    final Map<String, String> credentials;
    final Map<String, String> headers;
    final Optional<byte[]> body;
    final boolean errorsAsAnswers;

    private Request(Builder b) {
      this.method = b.method;
      this.uri = b.target.uri();
      this.name = b.target.name();
      this.credentials = b.target.credentials();
      this.headers = Map.copyOf(b.headers);
      this.body = b.body;
      this.errorsAsAnswers = b.errorsAsAnswers;
    }

    /**
     * A GET of {@code url}.
     *
     * @throws InvalidRequestException when {@code url} is not a valid http(s) URL with a host
     */
    public static Builder get(String url) {
      return new Builder("GET", url, Optional.empty());
    }

    /**
     * A POST of {@code body} to {@code url}. It is retried like a GET, so use it for requests that
     * may be sent twice (queries, searches); a 303, 301 or 302 answer turns it into a GET.
     */
    public static Builder post(String url, byte[] body, String contentType) {
      Objects.requireNonNull(body, "body");
      return new Builder("POST", url, Optional.of(body.clone())).header("Content-Type", contentType);
    }

    public String method() {
      return method;
    }

    /** The URL without its user information. */
    public URI uri() {
      return uri;
    }

    /** The URL for messages: without credentials or secret query parameters. */
    public String name() {
      return name;
    }

    /** The call for messages, such as {@code GET https://host/x}. */
    String call() {
      return method + " " + name;
    }

    /** This request with one more header (a {@code Range}). */
    Request with(String header, String value) {
      Builder b = new Builder(method, this);
      b.headers.putAll(headers);
      b.header(header, value);
      return b.build();
    }

    /** Builder for a {@link Request}. */
    public static final class Builder {
      private final String method;
      private final HttpTarget target;
      private final Map<String, String> headers = new LinkedHashMap<>();
      private Optional<byte[]> body;
      private boolean errorsAsAnswers;

      private Builder(String method, String url, Optional<byte[]> body) {
        this.method = method;
        this.target = HttpTarget.parse(Objects.requireNonNull(url, "url"));
        this.body = body;
      }

      private Builder(String method, Request of) {
        this.method = method;
        this.target = new HttpTarget(of.uri, of.credentials, of.name);
        this.body = of.body;
        this.errorsAsAnswers = of.errorsAsAnswers;
      }

      /**
       * Sends this header with the request, also to another host a redirect leads to: not for
       * credentials, which go in the settings or the {@link HttpAuth} hook.
       */
      public Builder header(String name, String value) {
        HttpSettings.requireValidHeader(name, value);
        headers.keySet().removeIf(k -> k.equalsIgnoreCase(name.trim()));
        headers.put(name.trim(), value);
        return this;
      }

      /**
       * Takes every final answer, whatever its status, for the caller to word: an error status
       * ends in an answer (after the retries of a retryable one, or at once when the server asks
       * to wait too long), and a failure without an answer in the last {@link IOException}, not in
       * an exception worded for a file-like read.
       */
      public Builder errorsAsAnswers() {
        this.errorsAsAnswers = true;
        return this;
      }

      public Request build() {
        if (method.equals("GET") && body.isPresent()) {
          throw new InvalidRequestException("a GET has no body: " + target.name());
        }
        return new Request(this);
      }
    }

    @Override
    public String toString() {
      return call();
    }
  }
}
