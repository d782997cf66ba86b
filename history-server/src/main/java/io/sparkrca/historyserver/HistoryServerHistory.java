package io.sparkrca.historyserver;

import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.json.SparkJson;
import io.sparkrca.core.model.ApplicationAttemptInfo;
import io.sparkrca.core.model.ApplicationInfo;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.historyserver.internal.EventLogArchive;
import io.sparkrca.historyserver.internal.RestClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The applications of a Spark History Server (default port 18080) or of a running driver's UI
 * (port 4040: one application, no attempt id, not completed), read through its REST API. Listing
 * is one request; each application is read lazily ({@link HistoryServerApplication}).
 *
 * <pre>{@code
 * HistoryServerHistory shs = HistoryServerHistory.open("https://shs:18080", HistoryServerSettings.builder().fromEnvironment().build());
 * for (ApplicationInfo a : shs.applications()) System.out.println(a.id() + " " + a.name());
 * SparkApplication app = shs.application("application_1700000000000_0042", Optional.of("1")).orElseThrow();
 * }</pre>
 */
public final class HistoryServerHistory implements SparkHistory {
  /** Applications listed at most, when listing everything. */
  static final int MAX_LISTED = 10_000;

  /** Applications kept open, so that asking twice costs nothing. */
  static final int CACHED_APPS = 16;

  private final HistoryServerUri server;
  private final RestClient client;
  private final java.util.Map<String, Optional<ApplicationInfo>> infos = new java.util.LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<String, Optional<ApplicationInfo>> e) {
      return size() > CACHED_APPS * 4;
    }
  };
  private final java.util.Map<String, HistoryServerApplication> apps = new java.util.LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(java.util.Map.Entry<String, HistoryServerApplication> e) {
      return size() > CACHED_APPS;
    }
  };

  private HistoryServerHistory(HistoryServerUri server, HistoryServerSettings settings) {
    this.server = server.server();
    this.client = new RestClient(this.server.apiRoot(), settings);
  }

  /**
   * The History Server or driver UI at {@code url} (its root, or any URL of its REST API or web
   * UI). Nothing is fetched yet.
   *
   * @throws InvalidRequestException when {@code url} is not such a URL
   */
  public static HistoryServerHistory open(String url, HistoryServerSettings settings) {
    HistoryServerUri u = HistoryServerUri.parse(url).orElseThrow(() -> new InvalidRequestException(
        "not a History Server URL: " + Redactor.redactUri(url) + "; give http(s)://host:port (a History Server, "
            + "default port 18080, or a running driver's UI, port 4040)"));
    return new HistoryServerHistory(u, settings);
  }

  /** The server's root. */
  public HistoryServerUri server() {
    return server;
  }

  /** Requests sent so far. */
  public long requests() {
    return client.requests();
  }

  /** Every application the server lists (at most 10,000), as the server orders them. */
  @Override
  public List<ApplicationInfo> applications() {
    return list(Optional.empty(), MAX_LISTED);
  }

  /**
   * The applications the server lists, filtered by status ({@code completed} or {@code running})
   * and capped at {@code limit}.
   */
  public List<ApplicationInfo> list(Optional<String> status, int limit) {
    if (limit < 1) {
      throw new InvalidRequestException("the number of applications to list must be at least 1, not " + limit);
    }
    String q = "applications?limit=" + limit + status.map(s -> "&status=" + s.toLowerCase(Locale.ROOT)).orElse("");
    return client.get(q, SparkJson.mapper().getTypeFactory().constructCollectionType(List.class, ApplicationInfo.class));
  }

  /**
   * The application as the server lists it (every attempt), or empty when it knows no such id.
   * Asked once per history: open a new history to see newer data of a running application.
   */
  public Optional<ApplicationInfo> info(String appId) {
    synchronized (infos) {
      Optional<ApplicationInfo> known = infos.get(appId);
      if (known != null) {
        return known;
      }
    }
    Optional<ApplicationInfo> fetched = client.getOptional("applications/" + HistoryServerUri.encode(appId),
        SparkJson.mapper().getTypeFactory().constructType(ApplicationInfo.class));
    synchronized (infos) {
      infos.put(appId, fetched);
    }
    return fetched;
  }

  @Override
  public Optional<HistoryServerApplication> application(String appId, Optional<String> attemptId) {
    String key = appId + "\u0000" + attemptId.orElse("");
    synchronized (apps) {
      HistoryServerApplication known = apps.get(key);
      if (known != null) {
        return Optional.of(known);
      }
    }
    Optional<HistoryServerApplication> made = make(appId, attemptId);
    made.ifPresent(a -> {
      synchronized (apps) {
        apps.putIfAbsent(key, a);
      }
    });
    return made;
  }

  private Optional<HistoryServerApplication> make(String appId, Optional<String> attemptId) {
    Optional<ApplicationInfo> info = info(appId);
    if (info.isEmpty() || info.get().attempts().isEmpty()) {
      return Optional.empty();
    }
    for (ApplicationAttemptInfo a : info.get().attempts()) {
      if (a.attemptId().equals(attemptId)) {
        ApplicationInfo one = new ApplicationInfo(info.get().id(), info.get().name(), info.get().coresGranted(),
            info.get().maxCores(), info.get().coresPerExecutor(), info.get().memoryPerExecutorMB(), List.of(a));
        String path = "applications/" + HistoryServerUri.encode(appId) + attemptId.map(x -> "/" + HistoryServerUri.encode(x)).orElse("");
        return Optional.of(new HistoryServerApplication(client, path, one, attemptId));
      }
    }
    return Optional.empty();
  }

  /**
   * The application named by {@code uri}'s id and attempt (its latest attempt when none is
   * named).
   *
   * @throws InputNotFoundException naming the server's nearest application ids when it has no
   *     such application or attempt
   */
  public HistoryServerApplication application(HistoryServerUri uri) {
    String appId = uri.appId().orElseThrow(() -> new InvalidRequestException(
        "the URL " + uri + " names no application; add /api/v1/applications/<id>"));
    Optional<ApplicationInfo> info = info(appId);
    if (info.isEmpty() || info.get().attempts().isEmpty()) {
      throw unknownApp(appId);
    }
    Optional<String> attempt = uri.attemptId().isPresent() ? uri.attemptId() : info.get().latestAttempt().attemptId();
    return application(appId, attempt).orElseThrow(() -> new InputNotFoundException(
        "attempt " + attempt.orElse("(none)") + " of application " + appId + " at " + server,
        "its attempts are " + attemptIds(info.get()) + "; name one of them"));
  }

  /**
   * Downloads the application's event log ({@code applications/<id>[/<attempt>]/logs}, a zip) up
   * to the size cap, into a temporary file that the archive deletes when closed, to replay it
   * locally.
   */
  public EventLogArchive downloadEventLog(String appId, Optional<String> attemptId) {
    String path = "applications/" + HistoryServerUri.encode(appId) + attemptId.map(a -> "/" + HistoryServerUri.encode(a)).orElse("") + "/logs";
    return EventLogArchive.download(client, path);
  }

  private InputNotFoundException unknownApp(String appId) {
    List<String> ids = new ArrayList<>();
    try {
      for (ApplicationInfo a : list(Optional.empty(), 1000)) {
        ids.add(a.id());
      }
    } catch (RuntimeException e) {
      // The listing itself failed: say so rather than guessing.
      return new InputNotFoundException("application " + appId + " at " + server,
          "the History Server knows no such application, and its listing could not be read (" + e.getMessage() + ")");
    }
    ids.sort(Comparator.comparingInt((String id) -> distance(id, appId)).thenComparing(Comparator.naturalOrder()));
    String nearest = ids.isEmpty() ? "it lists no application at all (is spark.eventLog.enabled true, and spark.history.fs.logDirectory the jobs' spark.eventLog.dir?)"
        : "the nearest ids it lists: " + String.join(", ", ids.subList(0, Math.min(5, ids.size())));
    return new InputNotFoundException("application " + appId + " at " + server,
        "the History Server knows no such application; " + nearest);
  }

  private static String attemptIds(ApplicationInfo info) {
    List<String> ids = new ArrayList<>();
    for (ApplicationAttemptInfo a : info.attempts()) {
      ids.add(a.attemptId().orElse("(none)"));
    }
    return String.join(", ", ids);
  }

  /** Levenshtein distance, bounded work: ids are short. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
