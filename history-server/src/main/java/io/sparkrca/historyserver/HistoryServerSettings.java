package io.sparkrca.historyserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.json.SparkJson;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How to reach a Spark History Server or a live driver UI: everything of {@link HttpSettings}
 * (CA files added to the system trust, timeouts, retries with backoff and {@code Retry-After},
 * redirects that never carry credentials to another host, no credentials over plain http to a
 * host other than the loopback unless allowed), plus the History Server's own credentials, the
 * size cap of one answer, the number of requests in flight, and the size cap of an event-log
 * download. One builder, as google-cloud-java's settings.
 *
 * <p>Credentials come from explicit values or from the environment variables the Python
 * troubleshooting tools use: {@code SPARK_HISTORY_AUTHORIZATION} (an {@code Authorization} value
 * such as {@code Bearer
 * <token>}), {@code SPARK_HISTORY_COOKIE} (a {@code Cookie} value, e.g. an SSO session) and
 * {@code SPARK_HISTORY_HEADERS_JSON} (a JSON object of extra headers, which may override the
 * other two). Headers already in the {@link #http} settings win over the environment.
 *
 * <pre>{@code
 * HistoryServerSettings s = HistoryServerSettings.builder()
 *     .fromEnvironment()                         // SPARK_HISTORY_AUTHORIZATION, _COOKIE, _HEADERS_JSON
 *     .http(HttpSettings.builder().caCertificates(Path.of("corp-ca.pem")).build())
 *     .concurrency(8)
 *     .build();
 * SparkHistory shs = HistoryServerHistory.open("https://shs.example.com:18080", s);
 * }</pre>
 *
 * <p>{@link #toString()} never shows header values.
 */
public final class HistoryServerSettings {
  /** The History Server's URL, read by discovery. */
  public static final String ENV_URL = "SPARK_HISTORY_URL";
  /** An {@code Authorization} header value. */
  public static final String ENV_AUTHORIZATION = "SPARK_HISTORY_AUTHORIZATION";
  /** A {@code Cookie} header value. */
  public static final String ENV_COOKIE = "SPARK_HISTORY_COOKIE";
  /** A JSON object of extra headers. */
  public static final String ENV_HEADERS_JSON = "SPARK_HISTORY_HEADERS_JSON";

  /** The default cap of one answer: 25 MiB, as spark_history_api.py. */
  public static final long DEFAULT_MAX_RESPONSE_BYTES = 25L * 1024 * 1024;

  private static final HistoryServerSettings DEFAULTS = builder().build();

  private final HttpSettings http;
  /** The builder's HTTP settings, before the headers are merged in (for {@link #toBuilder}). */
  private final HttpSettings baseHttp;
  private final Map<String, String> headers;
  private final boolean plainHttp;
  private final long maxResponseBytes;
  /**
   * Requests in flight by default. A History Server computes each stage's task summary when it is
   * asked (about 50 ms of its CPU for a 16-task stage on the benchmark machine), so more requests in
   * flight shorten an analysis beyond hiding the network's delay: against Spark 4.0.4's History
   * Server behind 20 ms of delay, a 2,000-stage rca took 73.6 s one at a time, 17.6 s with 8 and
   * 11.4 s with 16 (benchmarks/RESULTS.md). Its Jetty serves 200 requests at once by default.
   */
  public static final int DEFAULT_CONCURRENCY = 16;

  private final int concurrency;
  private final long maxEventLogBytes;
  private final long maxCacheBytes;
  private final boolean eventLogFallback;

  private HistoryServerSettings(Builder b) {
    this.eventLogFallback = b.eventLogFallback;
    this.baseHttp = b.http;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(b.headers));
    this.plainHttp = b.plainHttp;
    HttpSettings.Builder merged = b.http.toBuilder();
    for (Map.Entry<String, String> h : b.headers.entrySet()) {
      if (!hasHeader(b.http, h.getKey())) {
        merged.header(h.getKey(), h.getValue());
      }
    }
    merged.allowCredentialsOverPlainHttp(b.http.credentialsOverPlainHttp() || b.plainHttp);
    this.http = merged.build();
    this.maxResponseBytes = b.maxResponseBytes;
    this.concurrency = b.concurrency;
    this.maxEventLogBytes = b.maxEventLogBytes;
    this.maxCacheBytes = b.maxCacheBytes;
  }

  /** No credentials, default HTTP settings, a 25 MiB cap per answer, 8 requests in flight. */
  public static HistoryServerSettings defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A new builder holding these settings, as they were given: changing it leaves this value as it
   * is, e.g. to build the same settings with other HTTP settings.
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.http = baseHttp;
    b.headers.putAll(headers);
    b.maxResponseBytes = maxResponseBytes;
    b.concurrency = concurrency;
    b.maxEventLogBytes = maxEventLogBytes;
    b.maxCacheBytes = maxCacheBytes;
    b.plainHttp = plainHttp;
    b.eventLogFallback = eventLogFallback;
    return b;
  }

  /** The HTTP settings every request goes with, the History Server's headers included. */
  public HttpSettings http() {
    return http;
  }

  /** The most bytes one answer may have; a larger one is an error naming the cap. */
  public long maxResponseBytes() {
    return maxResponseBytes;
  }

  /** The most requests in flight at once when fetching per-stage data. */
  public int concurrency() {
    return concurrency;
  }

  /** The most bytes of an event-log download ({@code applications/<id>/logs}). */
  public long maxEventLogBytes() {
    return maxEventLogBytes;
  }

  /** The most answer bytes kept in one application's cache. */
  public long maxCacheBytes() {
    return maxCacheBytes;
  }

  /**
   * Whether analysis may download an application's event log for what the REST API lacks (the
   * text of a failed SQL execution, the driver's exit code); default true.
   */
  public boolean eventLogFallback() {
    return eventLogFallback;
  }

  /** Whether credentials are configured (a header from the environment or given explicitly). */
  public boolean hasCredentials() {
    return http.hasCredentials();
  }

  @Override
  public String toString() {
    return "HistoryServerSettings{headers=" + headers.keySet() + ", http=" + http + ", maxResponseBytes="
        + maxResponseBytes + ", concurrency=" + concurrency + ", maxEventLogBytes=" + maxEventLogBytes + "}";
  }

  private static boolean hasHeader(HttpSettings http, String name) {
    for (String h : http.headers().keySet()) {
      if (h.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  /** Builder for {@link HistoryServerSettings}. */
  public static final class Builder {
    private HttpSettings http = HttpSettings.defaults();
    private final Map<String, String> headers = new LinkedHashMap<>();
    private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
    private int concurrency = DEFAULT_CONCURRENCY;
    private long maxEventLogBytes = 2L * 1024 * 1024 * 1024;
    private long maxCacheBytes = 256L * 1024 * 1024;
    private boolean plainHttp;
    private boolean eventLogFallback = true;

    private Builder() {}

    /** Whether analysis may download the event log for what the REST API lacks (default true). */
    public Builder eventLogFallback(boolean allow) {
      this.eventLogFallback = allow;
      return this;
    }

    /** The base HTTP settings (CAs, timeouts, retries, redirects, headers that win). */
    public Builder http(HttpSettings settings) {
      this.http = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Sends {@code Authorization: value} (for example {@code Bearer <token>}). */
    public Builder authorization(String value) {
      return header("Authorization", value);
    }

    /** Sends {@code Cookie: value} (for example an SSO proxy's session cookie). */
    public Builder cookie(String value) {
      return header("Cookie", value);
    }

    /** Sends this header with every request to the History Server's origin. */
    public Builder header(String name, String value) {
      HttpSettings.requireValidHeader(name, value.trim());
      headers.keySet().removeIf(k -> k.equalsIgnoreCase(name.trim()));
      headers.put(name.trim(), value.trim());
      return this;
    }

    /**
     * Adds the headers of a JSON object such as {@code {"X-Auth": "abc"}}.
     *
     * @throws InvalidRequestException when the text is not a JSON object of single-line strings
     */
    public Builder headersJson(String json) {
      return headersJson(json, "the headers JSON");
    }

    private Builder headersJson(String json, String what) {
      JsonNode tree;
      try {
        tree = SparkJson.mapper().readTree(json);
      } catch (IOException e) {
        throw new InvalidRequestException(what + " is not valid JSON (" + firstLine(e.getMessage())
            + "); write a JSON object such as {\"X-Auth-Token\": \"...\"}");
      }
      if (tree == null || !tree.isObject()) {
        throw new InvalidRequestException(what + " must be a JSON object such as {\"X-Auth-Token\": \"...\"}, not "
            + (tree == null ? "nothing" : tree.getNodeType().name().toLowerCase(Locale.ROOT)));
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isTextual()) {
          throw new InvalidRequestException(what + ": the value of header '" + e.getKey()
              + "' must be a string, not " + e.getValue().getNodeType().name().toLowerCase(Locale.ROOT));
        }
        header(e.getKey(), e.getValue().asText());
      }
      return this;
    }

    /** Reads the credentials of the process environment (see the class comment). */
    public Builder fromEnvironment() {
      return fromEnvironment(System::getenv);
    }

    /** Reads the credentials from {@code env} ({@code SPARK_HISTORY_AUTHORIZATION}, ...). */
    public Builder fromEnvironment(Function<String, String> env) {
      String auth = env.apply(ENV_AUTHORIZATION);
      if (auth != null && !auth.isBlank()) {
        authorization(auth);
      }
      String cookie = env.apply(ENV_COOKIE);
      if (cookie != null && !cookie.isBlank()) {
        cookie(cookie);
      }
      String json = env.apply(ENV_HEADERS_JSON);
      if (json != null && !json.isBlank()) {
        headersJson(json, ENV_HEADERS_JSON);
      }
      return this;
    }

    /** Trusts the CA certificates of this PEM file besides the system's. */
    public Builder caFile(Path pem) {
      this.http = http.toBuilder().caCertificates(pem).build();
      return this;
    }

    /** How long to wait for a connection (default 10 s). */
    public Builder connectTimeout(Duration d) {
      this.http = http.toBuilder().connectTimeout(d).build();
      return this;
    }

    /** How long to wait for an answer's headers, and between two chunks of its body. */
    public Builder readTimeout(Duration d) {
      this.http = http.toBuilder().requestTimeout(d).readTimeout(d).build();
      return this;
    }

    /** Retries after the first attempt (default 4). */
    public Builder maxRetries(int retries) {
      this.http = http.toBuilder().maxRetries(retries).build();
      return this;
    }

    /** Allows credentials over plain http to a host other than the loopback (default no). */
    public Builder allowCredentialsOverPlainHttp(boolean allow) {
      this.plainHttp = allow;
      return this;
    }

    /** The cap of one answer (default 25 MiB; 1 KiB to 2 GiB). */
    public Builder maxResponseBytes(long bytes) {
      if (bytes < 1024 || bytes > Integer.MAX_VALUE - 16) {
        throw new InvalidRequestException("the cap of one History Server answer must be between 1 KiB and 2 GiB, not " + bytes);
      }
      this.maxResponseBytes = bytes;
      return this;
    }

    /** Requests in flight at once for per-stage data (default {@value #DEFAULT_CONCURRENCY}; 1 fetches one at a time). */
    public Builder concurrency(int n) {
      if (n < 1 || n > 64) {
        throw new InvalidRequestException("the number of History Server requests in flight must be between 1 and 64, not " + n);
      }
      this.concurrency = n;
      return this;
    }

    /** The cap of an event-log download (default 2 GiB). */
    public Builder maxEventLogBytes(long bytes) {
      if (bytes < 1024) {
        throw new InvalidRequestException("the cap of an event-log download must be at least 1 KiB, not " + bytes);
      }
      this.maxEventLogBytes = bytes;
      return this;
    }

    /** The answer bytes one application keeps cached (default 256 MiB). */
    public Builder maxCacheBytes(long bytes) {
      if (bytes < 0) {
        throw new InvalidRequestException("the cache size must be 0 or more, not " + bytes);
      }
      this.maxCacheBytes = bytes;
      return this;
    }

    public HistoryServerSettings build() {
      return new HistoryServerSettings(this);
    }

    private static String firstLine(String s) {
      if (s == null) {
        return "unreadable";
      }
      int nl = s.indexOf('\n');
      return nl < 0 ? s : s.substring(0, nl);
    }
  }

  /** Optional helper for messages: the credential variables that are set, never their values. */
  static Optional<String> credentialVariablesSet(Function<String, String> env) {
    StringBuilder sb = new StringBuilder();
    for (String v : new String[] {ENV_AUTHORIZATION, ENV_COOKIE, ENV_HEADERS_JSON}) {
      String x = env.apply(v);
      if (x != null && !x.isBlank()) {
        sb.append(sb.length() == 0 ? "" : ", ").append(v);
      }
    }
    return sb.length() == 0 ? Optional.empty() : Optional.of(sb.toString());
  }
}
