package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.sparkrca.core.error.AccessDeniedException;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.gcp.GcpSettings;
import io.sparkrca.gcp.internal.CappedBody;
import io.sparkrca.gcp.internal.Credentials;
import io.sparkrca.gcp.internal.Messages;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;

/**
 * The Dataproc {@code sparkApplications} REST API of a Serverless batch or session (no published
 * Java client has these methods), over {@code java.net.http}: {@code GET
 * {endpoint}/v1/{parent}/sparkApplications:search}, then {@code
 * {parent}/sparkApplications/{appId}:{method}?parent={parent}&...} for every per-application method.
 * Answers are proto3 JSON (int64 as strings, zero fields omitted), returned as they are. Transient
 * statuses (429, 502, 503, 504) and broken connections are retried with exponential backoff and
 * jitter, honouring {@code Retry-After}; a 401 is retried once with a refreshed token; every other
 * failure is an exception naming the exact call, the status, the server's reason and what to do.
 * Each call is bounded: it ends within {@link GcpSettings#timeout()} however slowly the server
 * sends (a stalled answer counts as a broken connection and is retried), and an answer past {@link
 * GcpSettings#maxResponseBytes()} is refused where it passes the cap.
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

  private final String endpoint;
  private final GcpSettings settings;
  private final Credentials credentials;
  private final HttpClient http;
  private final AtomicInteger requests = new AtomicInteger();
  private final java.util.concurrent.Semaphore inFlight;

  private SparkApplicationsClient(GcpSettings settings, String endpoint) {
    this.settings = settings;
    this.endpoint = endpoint;
    this.credentials = Credentials.forEndpoint(settings, endpoint);
    this.inFlight = new java.util.concurrent.Semaphore(settings.parallelism());
    this.http = HttpClient.newBuilder().connectTimeout(settings.timeout()).followRedirects(HttpClient.Redirect.NEVER)
        .executor(DataprocExecutors.http()).build();
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
    return requests.get();
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
    boolean refreshed = false;
    int attempt = 0;
    while (true) {
      attempt++;
      HttpResponse<byte[]> r;
      try {
        HttpRequest.Builder req = HttpRequest.newBuilder(uri).GET().timeout(settings.timeout())
            .header("Accept", "application/json").header("User-Agent", USER_AGENT);
        Optional<String> token = credentials.token(refreshed);
        token.ifPresent(t -> req.header("Authorization", "Bearer " + t));
        inFlight.acquire(); // at most the settings' parallelism in flight, whoever sends them
        try {
          requests.incrementAndGet();
          r = send(req.build());
        } finally {
          inFlight.release();
        }
      } catch (CappedBody.TooLarge e) {
        // Not retried: the same endpoint would send the same answer.
        throw new SparkRcaException(method + ": " + shown + ": " + e.getMessage() + " (GcpSettings.maxResponseBytes); "
            + "the sparkApplications API answers in pages of at most 100 items, so check that " + endpoint
            + " is Dataproc's endpoint (SPARKRCA_DATAPROC_REST_ENDPOINT)", e);
      } catch (SSLHandshakeException e) {
        throw new SparkRcaException(method + ": TLS certificate verification failed for " + endpoint + " ("
            + Messages.oneLine(e.getMessage()) + "); if a proxy inspects TLS, add its CA to the Java trust store", e);
      } catch (java.net.ConnectException e) {
        // Refused: nothing listens there, and asking again will not change that (no retry, as for every remote read).
        throw new SparkRcaException(method + ": " + shown + ": connection refused, nothing listens at " + endpoint
            + "; check the sparkApplications endpoint (SPARKRCA_DATAPROC_REST_ENDPOINT) and that it is up", e);
      } catch (IOException e) {
        if (attempt < settings.maxAttempts()) {
          sleep(backoff(attempt, Optional.empty()));
          continue;
        }
        if (e instanceof HttpTimeoutException) {
          throw new SparkRcaException(Messages.timedOut(method + ": " + shown, "no complete answer", settings.timeout(),
              " on each of " + attempt + " attempts"), e);
        }
        throw new SparkRcaException(method + ": network error on " + shown + " after " + attempt + " attempts: "
            + Messages.oneLine(String.valueOf(e.getMessage())) + " (" + e.getClass().getSimpleName() + ")", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SparkRcaException(method + ": interrupted while calling " + shown, e);
      }
      int status = r.statusCode();
      if (status / 100 == 2) {
        try {
          JsonNode answer = JSON.readTree(r.body());
          // An empty body is an empty answer: proto3 JSON omits every field of an empty message.
          return answer == null || answer.isMissingNode() ? JsonNodeFactory.instance.objectNode() : answer;
        } catch (IOException e) {
          throw new SparkRcaException(method + ": the answer to " + shown + " is not valid JSON ("
              + Messages.oneLine(e.getMessage()) + ")", e);
        }
      }
      if (status == 401 && !refreshed && !credentials.none()) {
        refreshed = true; // a token revoked or expired early: one retry with a new one
        continue;
      }
      if ((status == 429 || status == 502 || status == 503 || status == 504) && attempt < settings.maxAttempts()) {
        sleep(backoff(attempt, r.headers().firstValue("Retry-After")));
        continue;
      }
      throw failure(method, shown, parent, status, new String(r.body(), StandardCharsets.UTF_8));
    }
  }

  /**
   * One exchange within {@link GcpSettings#timeout()}, answer included: the JDK's request timeout
   * ends when the headers arrive, so a server that stalls in the body would hold the call forever.
   */
  private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<byte[]>> f = http.sendAsync(request, CappedBody.handler(settings.maxResponseBytes()));
    try {
      return f.get(settings.timeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true); // aborts the exchange and closes its connection
      throw new HttpTimeoutException("no complete answer within " + Messages.duration(settings.timeout()));
    } catch (InterruptedException e) {
      f.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause);
    }
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

  private Duration backoff(int attempt, Optional<String> retryAfter) {
    if (retryAfter.isPresent()) {
      try {
        long s = Long.parseLong(retryAfter.get().trim());
        return Duration.ofSeconds(Math.min(30, Math.max(0, s)));
      } catch (NumberFormatException ignored) {
        // an HTTP date: fall back to our own backoff
      }
    }
    long base = settings.retryDelay().toMillis() << Math.min(10, attempt - 1);
    return Duration.ofMillis(Math.min(30_000, base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1)));
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SparkRcaException("interrupted while waiting to retry a Dataproc call", e);
    }
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
