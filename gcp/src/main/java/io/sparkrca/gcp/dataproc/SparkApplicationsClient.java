package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.HttpSettings;
import io.sparkrca.core.io.HttpTransport;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.Credentials;
import io.sparkrca.gcp.internal.Messages;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;

/**
 * The Dataproc {@code sparkApplications} REST API of a Serverless batch or session (no published
 * Java client has these methods), through core's {@link HttpTransport}: {@code GET
 * {endpoint}/v1/{parent}/sparkApplications:search}, then {@code
 * {parent}/sparkApplications/{appId}:{method}?parent={parent}&...} for every per-application method.
 * Answers are proto3 JSON (int64 as strings, zero fields omitted), returned as they are. Transient
 * statuses (429, 502, 503, 504) and broken connections are retried with exponential backoff and
 * jitter, honouring {@code Retry-After}; a 401 is retried once with a refreshed token; every other
 * failure is an exception naming the exact call, the status, the server's reason and what to do.
 * Each call is bounded: each attempt ends within {@link GcpSettings#timeout()} however slowly the
 * server sends (a stalled answer counts as a broken connection and is retried), and an answer past
 * {@link GcpSettings#maxResponseBytes()} is refused where it passes the cap.
 *
 * <pre>{@code
 * SparkApplicationsClient api = SparkApplicationsClient.create(GcpSettings.defaults(), "us-central1");
 * String parent = "projects/p/locations/us-central1/batches/b-1";
 * JsonNode apps = api.call(parent, Optional.empty(), "search", Map.of("pageSize", "10"));
 * List<JsonNode> stages = api.paginate(parent, Optional.of("app-1"), "searchStages", "sparkApplicationStages",
 *     Map.of("summaryMetricsMask", "task_quantile_metrics"), 5000);
 * }</pre>
 *
 * <p>Thread-safe: calls may run concurrently, at most {@link GcpSettings#parallelism()} requests in
 * flight at once (a retry's wait holds no place).
 */
public final class SparkApplicationsClient {
  /** The largest page the API serves. */
  public static final int MAX_PAGE_SIZE = 100;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BACKEND_CAUSE = Pattern.compile("(?:Exception|Error): ([^;]+)");
  private static final String USER_AGENT = "sparkrca (gcp sparkApplications client)";
  /** The statuses retried: Dataproc's 500s are final ("not supported yet", "not found"). */
  private static final Set<Integer> TRANSIENT = Set.of(429, 502, 503, 504);
  /** The longest wait between retries. */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  /** The most a Java array, and so one answer, holds. */
  private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final String endpoint;
  private final GcpSettings settings;
  private final HttpTransport http;

  private SparkApplicationsClient(GcpSettings settings, String endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
    this.http = HttpTransport.of(http(settings, Credentials.forEndpoint(settings, endpoint)));
  }

  /**
   * How the calls go over HTTP: each attempt bounded by the timeout, the settings' attempts and
   * first delay, the parallelism as the requests in flight, and the endpoint's credentials.
   */
  private static HttpSettings http(GcpSettings settings, Credentials credentials) {
    Duration timeout = settings.timeout();
    Duration firstDelay = settings.retryDelay().isZero() ? Duration.ofMillis(1) : settings.retryDelay();
    return HttpSettings.builder().auth(credentials.httpAuth())
        .connectTimeout(timeout).requestTimeout(timeout).readTimeout(timeout).exchangeTimeout(timeout)
        .maxRetries(settings.maxAttempts() - 1).backoff(firstDelay, MAX_BACKOFF).retryStatuses(TRANSIENT)
        .maxInFlight(settings.parallelism())
        // The endpoint is the user's choice (SPARKRCA_DATAPROC_REST_ENDPOINT), plain http included.
        .allowCredentialsOverPlainHttp(true)
        .build();
  }

  /** A client of the endpoint {@link GcpSettings#sparkApplicationsEndpoint(String)} gives for {@code region}. */
  public static SparkApplicationsClient create(GcpSettings settings, String region) {
    Objects.requireNonNull(settings, "settings");
    return new SparkApplicationsClient(settings, settings.sparkApplicationsEndpoint(Objects.requireNonNull(region, "region")));
  }

  /** The base URL calls go to. */
  public String endpoint() {
    return endpoint;
  }

  /** How many HTTP requests this client has sent (retries included). */
  public int requests() {
    return (int) http.requests();
  }

  /** The settings the client was made with. */
  public GcpSettings settings() {
    return settings;
  }

  /**
   * One call. {@code method} {@code "search"} lists the workload's applications (no app id); every
   * other method needs {@code appId} and gets {@code parent=} as the API requires.
   */
  public JsonNode call(String parent, Optional<String> appId, String method, Map<String, String> params) {
    return call(parent, appId, method, params, Map.of());
  }

  /** One call with repeated query parameters too ({@code stageIds=1&stageIds=2}, as the API takes a repeated field). */
  JsonNode call(String parent, Optional<String> appId, String method, Map<String, String> params,
      Map<String, List<String>> repeated) {
    URI uri = uri(parent, appId, method, params, repeated);
    String shown = "GET " + uri;
    Answer r = send(method, shown, uri);
    if (r.status() / 100 == 2) {
      try {
        JsonNode answer = JSON.readTree(r.body());
        // An empty body is an empty answer: proto3 JSON omits every field of an empty message.
        return answer == null || answer.isMissingNode() ? JsonNodeFactory.instance.objectNode() : answer;
      } catch (IOException e) {
        throw new SparkRcaException(method + ": the answer to " + shown + " is not valid JSON ("
            + Messages.oneLine(e.getMessage()) + ")", e);
      }
    }
    throw failure(method, shown, parent, r.status(), new String(r.body(), StandardCharsets.UTF_8));
  }

  /** A final answer: its status and its whole body. */
  private record Answer(int status, byte[] body) {}

  /** One call's exchange, retries and token refresh included; its failures worded for this API. */
  private Answer send(String method, String shown, URI uri) {
    HttpTransport.Request request = HttpTransport.Request.get(uri.toString()).header("Accept", "application/json")
        .header("User-Agent", USER_AGENT).errorsAsAnswers().build();
    long cap = Math.min(settings.maxResponseBytes(), MAX_ARRAY);
    try {
      return http.send(request, a -> new Answer(a.status(),
          a.readAll(cap).orElseThrow(() -> tooLarge(method, shown, a.contentLength(), cap))));
    } catch (SSLHandshakeException e) {
      throw new SparkRcaException(method + ": TLS certificate verification failed for " + endpoint + " ("
          + Messages.oneLine(e.getMessage()) + "); if a proxy inspects TLS, add its CA to the Java trust store", e);
    } catch (java.net.ConnectException e) {
      // Refused: nothing listens there, and asking again will not change that (no retry, as for every remote read).
      throw new SparkRcaException(method + ": " + shown + ": connection refused, nothing listens at " + endpoint
          + "; check the sparkApplications endpoint (SPARKRCA_DATAPROC_REST_ENDPOINT) and that it is up", e);
    } catch (HttpTimeoutException e) {
      throw new SparkRcaException(Messages.timedOut(method + ": " + shown, "no complete answer", settings.timeout(),
          " on each of " + settings.maxAttempts() + " attempts"), e);
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException(method + ": interrupted while calling " + shown, e);
    } catch (IOException e) {
      int attempts = HttpTransport.isRetryable(e) ? settings.maxAttempts() : 1;
      throw new SparkRcaException(method + ": network error on " + shown + " after " + attempts + " attempts: "
          + Messages.oneLine(String.valueOf(e.getMessage())) + " (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  /** An answer past the cap: not retried, since the same endpoint would send the same answer. */
  private SparkRcaException tooLarge(String method, String shown, OptionalLong declared, long cap) {
    String size = declared.isPresent()
        ? "the answer declares " + declared.getAsLong() + " bytes, more than the " + cap + " allowed"
        : "the answer runs past the " + cap + " bytes allowed";
    return new SparkRcaException(method + ": " + shown + ": " + size + " (GcpSettings.maxResponseBytes); "
        + "the sparkApplications API answers in pages of at most 100 items, so check that " + endpoint
        + " is Dataproc's endpoint (SPARKRCA_DATAPROC_REST_ENDPOINT)");
  }

  /**
   * Every item of {@code itemsKey} over the pages of a search method ({@code pageSize} 100,
   * following {@code nextPageToken}), at most {@code maxItems}; a page may be asked for but never
   * kept past the cap.
   */
  public List<JsonNode> paginate(String parent, Optional<String> appId, String method, String itemsKey,
      Map<String, String> params, int maxItems) {
    return page(parent, appId, method, itemsKey, params, maxItems).items();
  }

  /** Items and whether more were left on the server past {@code maxItems}. */
  record Paged(List<JsonNode> items, boolean truncated, int pages) {}

  Paged page(String parent, Optional<String> appId, String method, String itemsKey, Map<String, String> params,
      int maxItems) {
    return page(parent, appId, method, itemsKey, params, Map.of(), maxItems);
  }

  Paged page(String parent, Optional<String> appId, String method, String itemsKey, Map<String, String> params,
      Map<String, List<String>> repeated, int maxItems) {
    if (maxItems < 1) {
      throw new InvalidRequestException("at most " + maxItems + " items: the cap must be positive");
    }
    List<JsonNode> out = new ArrayList<>();
    Map<String, String> p = new LinkedHashMap<>(params);
    p.putIfAbsent("pageSize", Integer.toString(Math.min(MAX_PAGE_SIZE, maxItems)));
    int pages = 0;
    while (true) {
      JsonNode page = call(parent, appId, method, p, repeated);
      pages++;
      JsonNode items = page.path(itemsKey);
      if (items instanceof ArrayNode a) {
        for (JsonNode n : a) {
          if (out.size() >= maxItems) {
            return new Paged(out, true, pages);
          }
          out.add(n);
        }
      }
      String next = page.path("nextPageToken").asText("");
      if (next.isEmpty()) {
        return new Paged(out, false, pages);
      }
      if (out.size() >= maxItems) {
        return new Paged(out, true, pages);
      }
      p.put("pageToken", next);
    }
  }

  URI uri(String parent, Optional<String> appId, String method, Map<String, String> params) {
    return uri(parent, appId, method, params, Map.of());
  }

  private URI uri(String parent, Optional<String> appId, String method, Map<String, String> params,
      Map<String, List<String>> repeated) {
    StringBuilder path = new StringBuilder(endpoint).append("/v1/").append(parent).append("/sparkApplications");
    Map<String, String> q = new LinkedHashMap<>();
    if (method.equals("search")) {
      path.append(":search");
    } else {
      String app = appId.orElseThrow(() -> new InvalidRequestException(method + " needs a Spark application ID"));
      path.append('/').append(encodePath(app)).append(':').append(method);
      q.put("parent", parent);
    }
    params.forEach((k, v) -> {
      if (v != null && !v.isEmpty()) {
        q.put(k, v);
      }
    });
    StringBuilder query = new StringBuilder();
    q.forEach((k, v) -> query.append(query.length() == 0 ? "?" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
        .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    repeated.forEach((k, vs) -> vs.forEach(v -> query.append(query.length() == 0 ? "?" : "&")
        .append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8))));
    return URI.create(path + query.toString());
  }

  private static String encodePath(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The exception for a failed call: its status, the server's reason and cause, and what to do. */
  static SparkRcaException failure(String method, String call, String parent, int status, String body) {
    String message = "HTTP " + status;
    String reason = "";
    try {
      JsonNode err = JSON.readTree(body == null ? "" : body).path("error");
      if (err.isObject()) {
        message = err.path("message").asText(message);
        for (JsonNode d : err.path("details")) {
          if (reason.isEmpty() && d.hasNonNull("reason")) {
            reason = d.path("reason").asText();
          }
          String detail = d.path("detail").asText("");
          if (detail.contains("Exception:") || detail.contains("Error:")) {
            String cause = backendCause(detail);
            if (!cause.isEmpty() && !message.contains(cause)) {
              message = message + " (" + cause + ")";
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      message = Messages.oneLine(body);
    }
    message = Messages.oneLine(message);
    if (message.endsWith(".")) {
      message = message.substring(0, message.length() - 1);
    }
    String what = method + " failed with HTTP " + status + (reason.isEmpty() ? "" : " [" + reason + "]") + ": " + message;
    String project = parent.startsWith("projects/") ? parent.split("/")[1] : "the project";
    switch (status) {
      case 400:
        return new InvalidRequestException(call + ": " + what);
      case 401:
        return new AccessDeniedException(call, what, "ACCESS_TOKEN_TYPE_UNSUPPORTED".equals(reason)
            ? "the token is bound to a client certificate (context-aware access); run 'gcloud auth application-default "
                + "login' and try again"
            : "the credentials were rejected; run 'gcloud auth application-default login' (or fix "
                + "GOOGLE_APPLICATION_CREDENTIALS) and try again");
      case 403:
        return new AccessDeniedException(call, what, "grant the caller roles/dataproc.viewer on " + project
            + " (it holds dataproc.batches.get and dataproc.batches.sparkApplicationRead, and the sessions' "
            + "equivalents), and check that the Dataproc API is enabled there");
      case 404:
        return new InputNotFoundException(call + " (" + what + ")", "check the project, region and batch or session "
            + "ID; Spark UI data exists only once the Spark driver has started");
      default:
        if (status == 500 && message.toLowerCase(Locale.ROOT).contains("not found")) {
          return new InputNotFoundException(call + " (" + what + ")",
              "the stage, attempt or task does not exist; list them first (searchStages)");
        }
        return new SparkRcaException(call + ": " + what);
    }
  }

  /** The backend's own cause in a DebugInfo detail: its last "...Exception: text", without status suffixes. */
  static String backendCause(String detail) {
    String first = detail.lines().findFirst().orElse("");
    Matcher m = BACKEND_CAUSE.matcher(first);
    String last = "";
    while (m.find()) {
      last = m.group(1);
    }
    int cut = last.indexOf(" [google.rpc");
    if (cut >= 0) {
      last = last.substring(0, cut);
    }
    return last.replaceAll("(\\s*\\([A-Z_]+\\))+\\s*$", "").trim();
  }
}
