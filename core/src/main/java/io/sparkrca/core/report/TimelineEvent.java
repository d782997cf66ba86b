package io.sparkrca.core.report;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An event on the application's timeline, merged from the event log and the logs.
 *
 * <pre>{@code
 * report.timeline().forEach(t -> System.out.println(t.time() + (t.approximate() ? " (~)" : "") + " " + t.event()));
 * }</pre>
 *
 * @param time when
 * @param source where it comes from: {@code event log}, {@code driver log}, {@code executor 3 log}
 * @param event what happened
 * @param approximate whether the time was placed by assuming a zone (a log line without one)
 * @param evidence the record
 */
public record TimelineEvent(Instant time, String source, String event, boolean approximate, Optional<EvidenceRef> evidence) {
  public TimelineEvent {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(evidence, "evidence");
  }
}
