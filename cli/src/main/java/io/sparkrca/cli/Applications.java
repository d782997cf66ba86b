package io.sparkrca.cli;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.core.app.SparkHistory;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;

/**
 * Opens applications for the commands that replay event logs themselves (summarize, rules,
 * api): a URI that another source reads (a History Server, a driver UI, ...) goes through {@link
 * SparkSources}; an event log keeps the command's own reading.
 */
final class Applications {
  private Applications() {}

  static SparkSources sources(HttpOptions http, boolean strict) {
    SourceSettings settings = SourceSettings.builder().http(http.settings()).byteSources(http.sources()).strict(strict).build();
    return SparkSources.builder().settings(settings).loadServiceProviders().build();
  }

  /** {@link #sources(HttpOptions, boolean)}, with the progress of the reads shown for {@code command}. */
  static SparkSources sources(HttpOptions http, boolean strict, picocli.CommandLine.Model.CommandSpec command) {
    SourceSettings settings = SourceSettings.builder().http(http.settings()).byteSources(http.sources(command))
        .strict(strict).build();
    return SparkSources.builder().settings(settings).loadServiceProviders().build();
  }

  /** Whether a source other than the event-log reader reads {@code uri}. */
  static boolean fromOtherSource(SparkSources sources, String uri) {
    return uri != null && !sources.providerFor(uri).name().equals("event-log");
  }

  static SparkApplication application(SparkSources sources, String uri) {
    return sources.application(uri);
  }

  static SparkHistory history(SparkSources sources, String uri) {
    return sources.history(uri);
  }
}
