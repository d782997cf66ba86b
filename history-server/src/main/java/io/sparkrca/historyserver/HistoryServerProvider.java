package io.sparkrca.historyserver;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.eventlog.replay.ReplayedApplication;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkHistoryProvider;
import io.sparkrca.historyserver.internal.EventLogArchive;
import java.util.Objects;
import java.util.function.Function;

/**
 * Applications from a Spark History Server or a running driver UI, for {@link
 * io.sparkrca.core.source.SparkSources} (registered through {@code META-INF/services}, so any
 * command or {@code EvidenceCollector} that takes an application URI reads these when this module
 * is on the class path). URIs: {@code http(s)://host:port} (the server), {@code
 * .../api/v1/applications/<id>[/<attempt>]} or {@code .../history/<id>[/<attempt>]} (one
 * application; its latest attempt when none is named), and {@code .../api/v1/applications/<id>[/<attempt>]/logs}
 * (the application's event log, downloaded and replayed). Credentials: the HTTP settings' headers,
 * then {@code SPARK_HISTORY_AUTHORIZATION}, {@code SPARK_HISTORY_COOKIE} and {@code
 * SPARK_HISTORY_HEADERS_JSON}.
 *
 * <pre>{@code
 * SparkApplication app = SparkSources.defaults().application("http://localhost:18080/history/app-20240101-0001");
 * RcaReport r = RcaEngine.standard().analyze(EvidenceCollector.builder()
 *     .application("https://shs.example.com/api/v1/applications/application_1700000000000_0042/1").build().collect());
 * }</pre>
 */
public final class HistoryServerProvider implements SparkHistoryProvider {
  private final Function<String, String> env;
  /** The settings of {@link #with}, or null to read the environment's credentials on each open. */
  private final HistoryServerSettings base;

  /** Reads credentials from the process environment (as ServiceLoader creates it). */
  public HistoryServerProvider() {
    this(System::getenv);
  }

  /** Reads credentials from {@code env}. */
  public HistoryServerProvider(Function<String, String> env) {
    this.env = Objects.requireNonNull(env, "env");
    this.base = null;
  }

  private HistoryServerProvider(HistoryServerSettings base) {
    this.env = k -> null;
    this.base = base;
  }

  /**
   * A provider with these History Server settings, except their HTTP settings, which come from
   * the {@link SourceSettings} each open is given. The builder is read once, here: changing it
   * later does not change the provider, and opens on several threads share nothing mutable.
   */
  public static HistoryServerProvider with(HistoryServerSettings.Builder settings) {
    return new HistoryServerProvider(Objects.requireNonNull(settings, "settings").build());
  }

  @Override
  public String name() {
    return "history-server";
  }

  @Override
  public boolean supports(String uri) {
    return HistoryServerUri.parse(uri).isPresent();
  }

  /** The server's applications; the URI's application, if any, is ignored. */
  @Override
  public SparkHistory open(String uri, SourceSettings settings) {
    return HistoryServerHistory.open(uri, settings(settings));
  }

  /**
   * The application the URI names (its latest attempt unless one is named); for the server's
   * root, its only application (a driver UI has one); for a {@code /logs} URI, the downloaded
   * event log, replayed.
   */
  @Override
  public SparkApplication application(String uri, SourceSettings settings) {
    HistoryServerUri u = HistoryServerUri.parse(uri).orElseThrow(() -> new InvalidRequestException(
        "not a History Server URL: " + Redactor.redactUri(uri)));
    HistoryServerSettings s = settings(settings);
    HistoryServerHistory history = HistoryServerHistory.open(u.root(), s);
    if (u.appId().isEmpty()) {
      return SparkHistoryProvider.super.application(uri, settings);
    }
    HistoryServerApplication app = history.application(u);
    if (!u.eventLog()) {
      return app;
    }
    try (EventLogArchive zip = history.downloadEventLog(app.info().id(), app.attemptId())) {
      ReplayedApplication replayed = zip.replay();
      return replayed;
    }
  }

  /** This open's settings, from a builder of its own. */
  private HistoryServerSettings settings(SourceSettings settings) {
    HistoryServerSettings.Builder b = base != null ? base.toBuilder() : HistoryServerSettings.builder().fromEnvironment(env);
    return b.http(settings.http()).build();
  }
}
