package io.sparkrca.core.eventlog;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkHistoryProvider;

/**
 * Event logs as a source of applications: a log file, a rolling {@code eventlog_v2_*} directory or
 * a directory of logs, in every codec, wherever the settings' byte sources reach (local files,
 * http(s), Cloud Storage with the gcp module). It is a {@linkplain #fallback() fallback}, listed in
 * sparkrca-core's {@code META-INF/services}: {@link io.sparkrca.core.source.SparkSources} always
 * has it and asks it last, so providers with more specific URIs come first.
 *
 * <pre>{@code
 * SparkApplication app = new EventLogHistoryProvider().application("/tmp/spark-events/app-1", SourceSettings.defaults());
 * }</pre>
 */
public final class EventLogHistoryProvider implements SparkHistoryProvider {

  @Override
  public String name() {
    return "event-log";
  }

  /** Asked last: it reads any URI, which other providers claim first when it is theirs. */
  @Override
  public boolean fallback() {
    return true;
  }

  /** Any URI a byte source opens: a path, {@code file:}, http(s), or a registered scheme. */
  @Override
  public boolean supports(String uri) {
    return uri != null && !uri.isBlank();
  }

  @Override
  public SparkHistory open(String uri, SourceSettings settings) {
    return reader(settings).history(uri);
  }

  /** Replays the one log at {@code uri} directly, without listing. */
  @Override
  public SparkApplication application(String uri, SourceSettings settings) {
    return reader(settings).replay(uri);
  }

  private static EventLogReader reader(SourceSettings settings) {
    return EventLogs.reader()
        .sources(settings.byteSources())
        .strict(settings.strict())
        .threads(settings.readThreads())
        .build();
  }
}
