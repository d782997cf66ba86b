package io.sparkrca.core.io;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Reads {@code http://} and {@code https://} URLs with ranged GET requests. {@link
 * ByteSources#defaults()} includes one with default settings (after every other provider, so a
 * cloud module can claim its own hosts); build your own to send credentials or trust a private CA.
 *
 * <p>Behaviour: range answers are validated ({@code 206} with a matching {@code Content-Range}; a
 * {@code 200} with the whole body in answer to a range is detected and refused rather than read);
 * 429 and 5xx answers, connection failures and resets are retried with exponential backoff and
 * jitter, honouring {@code Retry-After}; a body interrupted mid-stream is resumed from the byte
 * where it stopped; redirects are followed, dropping credentials when they leave the origin and
 * refusing https-to-http downgrades; extra CA certificates are added to the system trust, and TLS
 * verification is never disabled. Messages never contain credentials.
 *
 * <pre>{@code
 * HttpByteSourceProvider http = HttpByteSourceProvider.builder()
 *     .header("Authorization", "Bearer " + token)
 *     .caCertificates(Path.of("/etc/corp/proxy-ca.pem"))
 *     .build();
 * ByteSources sources = ByteSources.builder().add(http).build();
 * ByteSource log = sources.open("https://logs.example.com/spark/driver.log");
 * }</pre>
 */
public final class HttpByteSourceProvider implements ByteSourceProvider {
  private static final HttpByteSourceProvider DEFAULTS = builder().build();

  private final HttpTransport transport;

  private HttpByteSourceProvider(HttpTransport transport) {
    this.transport = transport;
  }

  /** A provider with default settings and no credentials. */
  public static HttpByteSourceProvider defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public boolean supports(String uri) {
    String u = uri.toLowerCase(Locale.ROOT);
    return u.startsWith("http://") || u.startsWith("https://");
  }

  @Override
  public HttpByteSource open(String uri) {
    return new HttpByteSource(uri, transport);
  }

  /** HTTP has no listing: always empty. */
  @Override
  public List<SourceEntry> list(String uri) {
    return List.of();
  }

  /** HTTP URLs always name one object. */
  @Override
  public boolean isDirectory(String uri) {
    return false;
  }

  /** HTTP has no listing: always empty. */
  @Override
  public List<SourceEntry> listPrefix(String uriPrefix) {
    return List.of();
  }

  /**
   * Settings for an {@link HttpByteSourceProvider}; every one has a sensible default.
   *
   * <pre>{@code
   * HttpByteSourceProvider http = HttpByteSourceProvider.builder()
   *     .headers(() -> Map.of("Authorization", "Bearer " + tokens.current()))
   *     .maxRetries(6)
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Supplier<Map<String, String>> dynamicHeaders = Map::of;
    private final List<Path> caFiles = new ArrayList<>();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration requestTimeout = Duration.ofSeconds(60);
    private Duration readTimeout = Duration.ofSeconds(60);
    private int maxRetries = 4;
    private Duration initialBackoff = Duration.ofMillis(250);
    private Duration maxBackoff = Duration.ofSeconds(20);
    private Duration maxRetryAfter = Duration.ofMinutes(2);
    private int maxRedirects = 5;
    private HttpTransport.Sleeper sleeper = HttpTransport.Sleeper.REAL;

    private Builder() {}

    /**
     * Sends this header with every request to the URL's origin (dropped if a redirect leaves it).
     * Its value never appears in messages.
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      if (name.isBlank() || name.indexOf(':') >= 0) {
        throw new IllegalArgumentException("invalid header name '" + name + "'");
      }
      headers.put(name.trim(), value);
      return this;
    }

    /**
     * Headers computed for each request, for credentials that expire (an OAuth token source).
     * They are added after the fixed {@link #header headers}.
     */
    public Builder headers(Supplier<Map<String, String>> supplier) {
      this.dynamicHeaders = Objects.requireNonNull(supplier, "supplier");
      return this;
    }

    /** Trusts the CA certificates in this PEM file in addition to the system trust store. */
    public Builder caCertificates(Path pemFile) {
      caFiles.add(Objects.requireNonNull(pemFile, "pemFile"));
      return this;
    }

    /** How long to wait for a TCP/TLS connection (default 10 s). */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /** How long to wait for the response headers of one request (default 60 s). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "requestTimeout");
      return this;
    }

    /** The longest pause allowed between two chunks of a response body (default 60 s). */
    public Builder readTimeout(Duration timeout) {
      this.readTimeout = positive(timeout, "readTimeout");
      return this;
    }

    /** Retries after the first attempt, for 429/5xx answers and connection failures (default 4). */
    public Builder maxRetries(int retries) {
      if (retries < 0 || retries > 20) {
        throw new IllegalArgumentException("maxRetries must be between 0 and 20");
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
      this.maxBackoff = positive(max, "max backoff");
      return this;
    }

    /** The longest {@code Retry-After} honoured (default 2 min); a longer one fails at once. */
    public Builder maxRetryAfter(Duration max) {
      this.maxRetryAfter = positive(max, "maxRetryAfter");
      return this;
    }

    /** Redirects followed per request (default 5). */
    public Builder maxRedirects(int redirects) {
      if (redirects < 0 || redirects > 20) {
        throw new IllegalArgumentException("maxRedirects must be between 0 and 20");
      }
      this.maxRedirects = redirects;
      return this;
    }

    /** For tests: how to wait between retries. */
    Builder sleeper(HttpTransport.Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public HttpByteSourceProvider build() {
      return new HttpByteSourceProvider(
          new HttpTransport(
              new HttpTransport.Settings(
                  Map.copyOf(headers),
                  dynamicHeaders,
                  List.copyOf(caFiles),
                  connectTimeout,
                  requestTimeout,
                  readTimeout,
                  maxRetries,
                  initialBackoff,
                  maxBackoff,
                  maxRetryAfter,
                  maxRedirects,
                  sleeper)));
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive");
      }
      return d;
    }
  }
}
