package io.sparkrca.core.source;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InputNotFoundException;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.model.ApplicationInfo;
import java.util.List;

/**
 * A source of Spark applications: event logs, a History Server, a Dataproc region, a Kubernetes
 * namespace. Every provider yields the same model ({@link SparkApplication}), so every analysis
 * works on all of them. Providers are found with {@link java.util.ServiceLoader} (list the class
 * in {@code META-INF/services/io.sparkrca.core.source.SparkHistoryProvider}) or passed to {@link
 * SparkSources.Builder#add} explicitly; the event-log provider, a {@link #fallback()}, is always
 * there, asked last.
 *
 * <pre>{@code
 * public final class MyHistoryProvider implements SparkHistoryProvider {
 *   public String name() { return "my-history"; }
 *   public boolean supports(String uri) { return uri.startsWith("myhist://"); }
 *   public SparkHistory open(String uri, SourceSettings settings) { return new MyHistory(uri, settings.http()); }
 * }
 * }</pre>
 */
public interface SparkHistoryProvider {

  /** A short name for messages and provenance, such as {@code "event-log"} or {@code "history-server"}. */
  String name();

  /** Whether this provider reads {@code uri}; cheap, from its shape alone (no I/O). */
  boolean supports(String uri);

  /**
   * Whether this provider reads what no other does (any path or URL, as the event-log provider
   * does), so that it is asked after all the others. The fallbacks that sparkrca-core lists in its
   * own {@code META-INF/services} are in every {@link SparkSources}, whether or not it loads the
   * class path's providers. Default false.
   */
  default boolean fallback() {
    return false;
  }

  /** The applications at {@code uri}; fetched lazily, as they are asked for. */
  SparkHistory open(String uri, SourceSettings settings);

  /**
   * The one application at {@code uri}. By default: the history's only application (its latest
   * attempt); an error naming the applications when there are several, and when there is none.
   */
  default SparkApplication application(String uri, SourceSettings settings) {
    SparkHistory history = open(uri, settings);
    List<ApplicationInfo> apps = history.applications();
    if (apps.isEmpty()) {
      throw new InputNotFoundException("a Spark application at " + uri,
          "the source lists no application there; check the URI");
    }
    if (apps.size() > 1) {
      StringBuilder ids = new StringBuilder();
      for (int i = 0; i < Math.min(5, apps.size()); i++) {
        ids.append(i == 0 ? "" : ", ").append(apps.get(i).id());
      }
      throw new InvalidRequestException(uri + " holds " + apps.size() + " applications (" + ids
          + (apps.size() > 5 ? ", ..." : "") + "); name one of them");
    }
    ApplicationInfo only = apps.get(0);
    return history.application(only.id(), only.latestAttempt().attemptId())
        .orElseThrow(() -> new InputNotFoundException("application " + only.id() + " at " + uri,
            "it is listed but could not be read; try again, or read it by its own URI"));
  }
}
