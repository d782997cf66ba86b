package io.sparkrca.core.summary;

import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.eventlog.EventLogReader;
import io.sparkrca.core.eventlog.EventLogRef;
import io.sparkrca.core.eventlog.EventLogs;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.source.SourceSettings;
import io.sparkrca.core.source.SparkSources;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs summaries: one application from a source that serves applications (a History Server), or
 * the event logs at a location, each replayed and summarized, one unreadable log a skipped entry
 * rather than the end of the run. Every front door summarizes through one. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * Summaries s = SummaryRunner.builder().settings(SourceSettings.defaults()).build()
 *     .run(SummaryRequest.of("gs://bucket/spark-events/"));
 * }</pre>
 */
public final class SummaryRunner {
  private final SourceSettings settings;
  private final SparkSources sources;

  private SummaryRunner(SourceSettings settings) {
    this.settings = settings;
    this.sources = SparkSources.builder().settings(settings).loadServiceProviders().build();
  }

  /** A runner with the default settings. */
  public static SummaryRunner standard() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Summarizes what the request names.
   *
   * @throws SparkRcaException when the location holds no log, its only log cannot be read, or none of its logs can
   */
  public Summaries run(SummaryRequest request) {
    Objects.requireNonNull(request, "request");
    String location = request.location();
    if (!sources.providerFor(location).fallback()) {
      // A History Server or driver UI application (or any other source's URI): one application.
      return new Summaries(location, 1, List.of(ApplicationSummary.of(sources.application(location), location)), List.of(), 0);
    }
    EventLogReader reader = EventLogs.reader().sources(settings.byteSources()).strict(settings.strict()).build();
    List<EventLogRef> found = reader.find(location);
    List<ApplicationSummary> summaries = new ArrayList<>();
    List<Summaries.Skipped> skipped = new ArrayList<>();
    for (EventLogRef log : found.subList(0, Math.min(request.maxApps(), found.size()))) {
      try {
        summaries.add(ApplicationSummary.of(reader.replay(log), found.size() == 1 ? location : log.uri()));
      } catch (SparkRcaException e) {
        if (found.size() == 1) {
          throw e; // the one log: its failure is the request's
        }
        skipped.add(new Summaries.Skipped(log.uri(), e));
      }
    }
    if (summaries.isEmpty()) {
      throw new SparkRcaException("none of the " + found.size() + " logs in " + Redactor.redactUri(location) + " could be read");
    }
    return new Summaries(location, found.size(), summaries, skipped, Math.max(0, found.size() - request.maxApps()));
  }

  /** Builder for a {@link SummaryRunner}. */
  public static final class Builder {
    private SourceSettings settings = SourceSettings.defaults();

    private Builder() {}

    /** How logs are read (credentials, byte sources, strictness). */
    public Builder settings(SourceSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    public SummaryRunner build() {
      return new SummaryRunner(settings);
    }
  }
}
