package io.sparkrca.historyserver;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.redaction.Redactor;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A History Server or driver-UI address, parsed: the server's root ({@code http(s)://host:port},
 * with any path prefix of a reverse proxy), and optionally one application and attempt. Shapes
 * read: {@code http(s)://host:port[/]}, {@code .../api/v1[/applications]}, {@code
 * .../api/v1/applications/<id>[/<attempt>][/logs]} and the web UI's {@code .../history/<id>[/<attempt>]}.
 *
 * <pre>{@code
 * HistoryServerUri u = HistoryServerUri.parse("https://shs:18080/history/app-1/2/jobs/").orElseThrow();
 * u.apiRoot();      // https://shs:18080/api/v1/
 * u.appId();        // Optional[app-1]
 * u.attemptId();    // Optional[2]
 * HistoryServerUri.of("http://localhost:18080", "app-1", Optional.empty()).toString();
 * // http://localhost:18080/api/v1/applications/app-1
 * }</pre>
 *
 * @param root the server's root without a trailing slash, such as {@code https://shs:18080/proxy}
 * @param appId the application, when the URI names one
 * @param attemptId the attempt, when the URI names one
 * @param eventLog whether the URI names the application's event-log download ({@code /logs})
 */
public record HistoryServerUri(String root, Optional<String> appId, Optional<String> attemptId, boolean eventLog) {
  private static final Set<String> APP_RESOURCES =
      Set.of("jobs", "executors", "allexecutors", "allmiscellaneousprocess", "stages", "storage",
          "environment", "sql", "logs", "threads");

  public HistoryServerUri {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(attemptId, "attemptId");
    if (attemptId.isPresent() && appId.isEmpty()) {
      throw new InvalidRequestException("an attempt id needs an application id");
    }
  }

  /**
   * The URI of one application (and attempt) of the History Server at {@code server}.
   *
   * @throws InvalidRequestException when {@code server} is not an http(s) History Server URL
   */
  public static HistoryServerUri of(String server, String appId, Optional<String> attemptId) {
    HistoryServerUri base = parse(server).orElseThrow(() -> new InvalidRequestException(
        "not a History Server URL: " + Redactor.redactUri(server)
            + "; give http(s)://host:port (a History Server, default port 18080, or a driver UI, port 4040)"));
    if (appId.isBlank()) {
      throw new InvalidRequestException("the application id is empty");
    }
    return new HistoryServerUri(base.root(), Optional.of(appId.trim()),
        attemptId.map(String::trim).filter(a -> !a.isEmpty()), false);
  }

  /** The URI's parts, or empty when it is not a History Server or driver-UI address. */
  public static Optional<HistoryServerUri> parse(String uri) {
    if (uri == null) {
      return Optional.empty();
    }
    String u = uri.trim();
    String lower = u.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
      return Optional.empty();
    }
    URI parsed;
    try {
      parsed = URI.create(u);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (parsed.getHost() == null || parsed.getRawUserInfo() != null) {
      return Optional.empty(); // credentials in a URL would be printed; pass them as settings
    }
    String path = parsed.getRawPath() == null ? "" : parsed.getRawPath();
    String origin = parsed.getScheme().toLowerCase(Locale.ROOT) + "://" + parsed.getRawAuthority();
    List<String> seg = new ArrayList<>();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        seg.add(s);
      }
    }
    if (seg.isEmpty()) {
      return Optional.of(new HistoryServerUri(origin, Optional.empty(), Optional.empty(), false));
    }
    for (int i = 0; i < seg.size(); i++) {
      String prefix = origin + join(seg.subList(0, i));
      if (seg.get(i).equals("api") && i + 1 < seg.size() && seg.get(i + 1).equals("v1")) {
        List<String> rest = seg.subList(i + 2, seg.size());
        if (rest.isEmpty()) {
          return Optional.of(new HistoryServerUri(prefix, Optional.empty(), Optional.empty(), false));
        }
        if (!rest.get(0).equals("applications")) {
          return Optional.empty();
        }
        return Optional.of(app(prefix, rest.subList(1, rest.size())));
      }
      if (seg.get(i).equals("history") && i + 1 < seg.size()) {
        return Optional.of(app(prefix, seg.subList(i + 1, seg.size())));
      }
    }
    return Optional.empty();
  }

  private static HistoryServerUri app(String root, List<String> rest) {
    if (rest.isEmpty()) {
      return new HistoryServerUri(root, Optional.empty(), Optional.empty(), false);
    }
    String id = decode(rest.get(0));
    Optional<String> attempt = Optional.empty();
    int next = 1;
    if (rest.size() > 1 && !APP_RESOURCES.contains(rest.get(1))) {
      attempt = Optional.of(decode(rest.get(1)));
      next = 2;
    }
    boolean logs = rest.size() > next && rest.get(next).equals("logs");
    return new HistoryServerUri(root, Optional.of(id), attempt, logs);
  }

  private static String join(List<String> seg) {
    StringBuilder sb = new StringBuilder();
    for (String s : seg) {
      sb.append('/').append(s);
    }
    return sb.toString();
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The REST API's root, ending with a slash: {@code <root>/api/v1/}. */
  public String apiRoot() {
    return root + "/api/v1/";
  }

  /** The application's REST path relative to {@link #apiRoot()}: {@code applications/<id>[/<attempt>]}. */
  public Optional<String> appPath() {
    return appId.map(id -> "applications/" + encode(id) + attemptId.map(a -> "/" + encode(a)).orElse(""));
  }

  /** This URI without its application: the server. */
  public HistoryServerUri server() {
    return new HistoryServerUri(root, Optional.empty(), Optional.empty(), false);
  }

  /** The same application's event-log download. */
  public HistoryServerUri withEventLog() {
    return new HistoryServerUri(root, appId, attemptId, true);
  }

  /** The URI in its REST form, e.g. {@code http://host:18080/api/v1/applications/app-1/1}. */
  @Override
  public String toString() {
    return appPath().map(p -> apiRoot() + p + (eventLog ? "/logs" : "")).orElse(root);
  }
}
