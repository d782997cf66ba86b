package io.sparkrca.core.io;

import io.sparkrca.core.error.InvalidRequestException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How every remote source reaches its server, and so how {@link HttpTransport} sends: extra
 * headers (credentials among them), a bearer token from an environment variable, an {@link
 * HttpAuth} hook for credentials that expire, extra CA certificates added to the system trust,
 * timeouts, retries with backoff, redirects. One immutable value, built once and passed to each
 * remote source (HTTP byte sources, a History Server, a Dataproc endpoint), in the style of
 * google-cloud-java's settings classes. TLS verification is never disabled, and credentials are
 * not sent over plain {@code http://} to a host other than the loopback unless allowed here.
 *
 * <pre>{@code
 * HttpSettings http = HttpSettings.builder()
 *     .bearerTokenFromEnv("SPARK_HISTORY_TOKEN")
 *     .caCertificates(Path.of("/etc/corp/proxy-ca.pem"))
 *     .readTimeout(Duration.ofSeconds(30))
 *     .build();
 * ByteSources sources = ByteSources.builder().loadServiceProviders().add(HttpByteSourceProvider.of(http)).build();
 * }</pre>
 *
 * <p>{@link #toString()} never shows header values.
 */
public final class HttpSettings {
  /** The statuses retried by default: the server asks to wait, or failed for now. */
  static final Set<Integer> DEFAULT_RETRY_STATUSES = Set.of(408, 429, 500, 502, 503, 504);
  /** After the constant above: building reads it. */
  private static final HttpSettings DEFAULTS = builder().build();

  private final Map<String, String> headers;
  private final HttpAuth auth;
  private final List<Path> caFiles;
  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration readTimeout;
  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration maxRetryAfter;
  private final int maxRedirects;
  private final boolean credentialsOverPlainHttp;
  private final Optional<Duration> exchangeTimeout;
  private final Set<Integer> retryStatuses;
  private final OptionalInt maxInFlight;
  private final HttpTransport.Sleeper sleeper;

  private HttpSettings(Builder b) {
    this.headers = Map.copyOf(b.headers);
    this.auth = b.auth;
    this.caFiles = List.copyOf(b.caFiles);
    this.connectTimeout = b.connectTimeout;
    this.requestTimeout = b.requestTimeout;
    this.readTimeout = b.readTimeout;
    this.maxRetries = b.maxRetries;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.maxRetryAfter = b.maxRetryAfter;
    this.maxRedirects = b.maxRedirects;
    this.credentialsOverPlainHttp = b.credentialsOverPlainHttp;
    this.exchangeTimeout = b.exchangeTimeout;
    this.retryStatuses = Set.copyOf(b.retryStatuses);
    this.maxInFlight = b.maxInFlight;
    this.sleeper = b.sleeper;
  }

  /** Default settings: no credentials, system trust, 10 s to connect, 60 s per request, 4 retries. */
  public static HttpSettings defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.headers.putAll(headers);
    b.auth = auth;
    b.caFiles.addAll(caFiles);
    b.connectTimeout = connectTimeout;
    b.requestTimeout = requestTimeout;
    b.readTimeout = readTimeout;
    b.maxRetries = maxRetries;
    b.initialBackoff = initialBackoff;
    b.maxBackoff = maxBackoff;
    b.maxRetryAfter = maxRetryAfter;
    b.maxRedirects = maxRedirects;
    b.credentialsOverPlainHttp = credentialsOverPlainHttp;
    b.exchangeTimeout = exchangeTimeout;
    b.retryStatuses = new TreeSet<>(retryStatuses);
    b.maxInFlight = maxInFlight;
    b.sleeper = sleeper;
    return b;
  }

  /** Fixed headers sent to the origin of each URL (never to another host after a redirect). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The hook that adds credentials computed per request (after the fixed headers); {@link HttpAuth#NONE} by default. */
  public HttpAuth auth() {
    return auth;
  }

  /** PEM files whose CA certificates are trusted besides the system's. */
  public List<Path> caFiles() {
    return caFiles;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration readTimeout() {
    return readTimeout;
  }

  public int maxRetries() {
    return maxRetries;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  public Duration maxRetryAfter() {
    return maxRetryAfter;
  }

  public int maxRedirects() {
    return maxRedirects;
  }

  /** Whether credentials may go over plain http to a host other than the loopback (default no). */
  public boolean credentialsOverPlainHttp() {
    return credentialsOverPlainHttp;
  }

  /** The longest one attempt may take, answer included, when set (default: no such bound). */
  public Optional<Duration> exchangeTimeout() {
    return exchangeTimeout;
  }

  /** The answer statuses retried with backoff (default 408, 429, 500, 502, 503 and 504). */
  public Set<Integer> retryStatuses() {
    return retryStatuses;
  }

  /** The most requests one transport has in flight at once, when limited (default: no limit). */
  public OptionalInt maxInFlight() {
    return maxInFlight;
  }

  HttpTransport.Sleeper sleeper() {
    return sleeper;
  }

  /** Whether any credential-bearing header or an {@link HttpAuth} hook is configured. */
  public boolean hasCredentials() {
    return !headers.isEmpty() || auth != HttpAuth.NONE;
  }

  @Override
  public String toString() {
    return "HttpSettings{headers=" + headers.keySet() + ", caFiles=" + caFiles
        + ", connectTimeout=" + connectTimeout + ", requestTimeout=" + requestTimeout
        + ", readTimeout=" + readTimeout + ", maxRetries=" + maxRetries + ", maxRedirects="
        + maxRedirects + ", credentialsOverPlainHttp=" + credentialsOverPlainHttp + "}";
  }

  /**
   * Checks a header as a request will carry it: a name of HTTP token characters, and a value of
   * tabs and printable Latin-1 characters only (no line breaks or other control characters, no
   * character above U+00FF). The error names the header, never its value, since values are often
   * tokens or cookies; the JDK's own error would quote the value.
   *
   * <pre>{@code
   * HttpSettings.requireValidHeader("Authorization", "Bearer " + token);
   * }</pre>
   *
   * @throws InvalidRequestException when the header cannot be sent as it is
   */
  public static void requireValidHeader(String name, String value) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    String n = name.trim();
    if (n.isEmpty() || !n.chars().allMatch(HttpSettings::isTokenChar)) {
      throw new InvalidRequestException("invalid HTTP header name '" + n.replaceAll("[\\r\\n]", " ")
          + "': use letters, digits and !#$%&'*+-.^_`|~ only");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c > 0xFF || c == 0x7F || (c < 0x20 && c != '\t')) {
        throw new InvalidRequestException("the value of HTTP header " + n + " has a character HTTP cannot carry ("
            + (c == '\n' || c == '\r' ? "a line break" : c < 0x20 || c == 0x7F ? "a control character"
                : "one outside Latin-1") + ", at position " + (i + 1) + " of " + value.length()
            + "; the value is not shown): retype it, or copy it again without stray characters");
      }
    }
  }

  private static boolean isTokenChar(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }

  /** Builder for {@link HttpSettings}; every setting has a sensible default. */
  public static final class Builder {
    private final Map<String, String> headers = new LinkedHashMap<>();
    private HttpAuth auth = HttpAuth.NONE;
    private final List<Path> caFiles = new ArrayList<>();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration readTimeout = Duration.ofSeconds(60);
    private int maxRetries = 4;
    private Duration initialBackoff = Duration.ofMillis(250);
    private Duration maxBackoff = Duration.ofSeconds(20);
    private Duration maxRetryAfter = Duration.ofMinutes(2);
    private int maxRedirects = 5;
    private boolean credentialsOverPlainHttp;
    private Optional<Duration> exchangeTimeout = Optional.empty();
    private Set<Integer> retryStatuses = new TreeSet<>(DEFAULT_RETRY_STATUSES);
    private OptionalInt maxInFlight = OptionalInt.empty();
    private HttpTransport.Sleeper sleeper = HttpTransport.Sleeper.REAL;

    private Builder() {}

    /**
     * Sends this header with every request to the URL's origin (dropped if a redirect leaves it).
     * Its value never appears in messages.
     */
    public Builder header(String name, String value) {
      requireValidHeader(name, value);
      headers.put(name.trim(), value);
      return this;
    }

    /** Sends {@code Authorization: Bearer <token>}. */
    public Builder bearerToken(String token) {
      Objects.requireNonNull(token, "token");
      if (token.isBlank()) {
        throw new InvalidRequestException("the bearer token is empty");
      }
      return header("Authorization", "Bearer " + token.trim());
    }

    /**
     * Sends {@code Authorization: Bearer <value of the environment variable>}, so that the token
     * never appears on a command line or in code. Fails at once if the variable is unset or empty.
     */
    public Builder bearerTokenFromEnv(String variable) {
      return bearerTokenFromEnv(variable, System::getenv);
    }

    /** As {@link #bearerTokenFromEnv(String)}, reading the environment through {@code env}. */
    public Builder bearerTokenFromEnv(String variable, Function<String, String> env) {
      Objects.requireNonNull(variable, "variable");
      String token = env.apply(variable);
      if (token == null || token.isBlank()) {
        throw new InvalidRequestException(
            "the environment variable " + variable + " that should hold the bearer token is not set or empty");
      }
      return bearerToken(token);
    }

    /**
     * The hook that supplies credentials computed for each request (an OAuth token source) and
     * renews them after a 401. Its headers are added after the fixed {@link #header headers}.
     */
    public Builder auth(HttpAuth auth) {
      this.auth = Objects.requireNonNull(auth, "auth");
      return this;
    }

    /**
     * Headers computed for each request, for credentials that expire: a hook ({@link #auth}) that
     * asks {@code supplier} for every request and does not renew anything after a 401.
     */
    public Builder headers(Supplier<Map<String, String>> supplier) {
      Objects.requireNonNull(supplier, "supplier");
      return auth(uri -> {
        Map<String, String> h = supplier.get();
        return h == null ? Map.of() : h;
      });
    }

    /** Trusts the CA certificates in this PEM file in addition to the system trust store. */
    public Builder caCertificates(Path pemFile) {
      caFiles.add(Objects.requireNonNull(pemFile, "pemFile"));
      return this;
    }

    /** How long to wait for a TCP/TLS connection (default 10 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connect timeout");
      return this;
    }

    /** How long to wait for the response headers of one request (default 60 s). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "request timeout");
      return this;
    }

    /** The longest pause allowed between two chunks of a response body (default 60 s). */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = positive(timeout, "read timeout");
      return this;
    }

    /**
     * Retries after the first attempt (default 4), for 408/429/5xx answers, timeouts and reset
     * connections; never for other 4xx answers, a refused connection, an unknown host or a TLS
     * failure.
     */
    public Builder maxRetries(int retries) {
      if (retries < 0 || retries > 20) {
        throw new InvalidRequestException("the number of HTTP retries must be between 0 and 20, not " + retries);
      }
      this.maxRetries = retries;
      return this;
    }

    /**
     * Exponential backoff: the first wait is about {@code initial}, doubling up to {@code max},
     * each randomised (between half and all of it) so that clients do not retry in lockstep.
     */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = positive(initial, "initial backoff");
      this.maxBackoff = positive(max, "maximum backoff");
      return this;
    }

    /** The longest {@code Retry-After} honoured (default 2 min); a longer one fails at once. */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = positive(max, "maximum Retry-After");
      return this;
    }

    /** Redirects followed per request (default 5). */
    public Builder maxRedirects(int redirects) {
      if (redirects < 0 || redirects > 20) {
        throw new InvalidRequestException("the number of HTTP redirects must be between 0 and 20, not " + redirects);
      }
      this.maxRedirects = redirects;
      return this;
    }

    /**
     * Allows sending credentials over plain {@code http://} to hosts other than the loopback
     * (default: refused, since anyone on the path can read them).
     */
    public Builder allowCredentialsOverPlainHttp(boolean allow) {
      this.credentialsOverPlainHttp = allow;
      return this;
    }

    /**
     * Bounds each attempt as a whole, from sending the request to the last byte of its answer
     * (default: no such bound; a long download is bounded by the {@link #readTimeout} instead). An
     * attempt past it fails as a timeout, which is retried like a broken connection.
     */
    public Builder exchangeTimeout(Duration timeout) {
      this.exchangeTimeout = Optional.of(positive(timeout, "exchange timeout"));
      return this;
    }

    /**
     * The answer statuses retried with backoff (default 408, 429, 500, 502, 503 and 504), for an
     * API whose other errors are final: Dataproc's sparkApplications answers 500 to a request it
     * will never serve.
     */
    public Builder retryStatuses(Set<Integer> statuses) {
      for (int s : statuses) {
        if (s < 400 || s > 599) {
          throw new InvalidRequestException("a retried HTTP status must be an error status (400-599), not " + s);
        }
      }
      this.retryStatuses = new TreeSet<>(statuses);
      return this;
    }

    /**
     * At most this many requests of one transport in flight at once (default: no limit). A request
     * holds its place until its answer is closed; a retry's wait holds none.
     */
    public Builder maxInFlight(int requests) {
      if (requests < 1 || requests > 1024) {
        throw new InvalidRequestException("the requests in flight must be between 1 and 1024, not " + requests);
      }
      this.maxInFlight = OptionalInt.of(requests);
      return this;
    }

    /** For tests: how to wait between retries. */
    Builder sleeper(HttpTransport.Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public HttpSettings build() {
      return new HttpSettings(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new InvalidRequestException("the " + what + " must be positive, not " + d);
      }
      return d;
    }
  }
}
