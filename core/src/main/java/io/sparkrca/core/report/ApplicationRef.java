package io.sparkrca.core.report;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which application a report is about.
 *
 * <pre>{@code
 * ApplicationRef a = report.application();
 * System.out.println(a.id() + " " + a.name() + " " + a.outcome());
 * }</pre>
 *
 * @param id the application id, or "" when the evidence had none
 * @param name the application name
 * @param attemptId the attempt, when the application has attempts
 * @param sparkVersion the Spark version, or ""
 * @param user who ran it, or ""
 * @param source where the application came from (credentials removed)
 * @param provider the source kind, e.g. {@code event-log}
 * @param master {@code spark.master}, or ""
 * @param startTime when it started
 * @param endTime when it ended
 * @param durationMs how long it ran
 * @param outcome how it ended
 */
public record ApplicationRef(
    String id,
    String name,
    Optional<String> attemptId,
    String sparkVersion,
    String user,
    String source,
    String provider,
    String master,
    Optional<Instant> startTime,
    Optional<Instant> endTime,
    Optional<Long> durationMs,
    Outcome outcome) {
  /** How an application ended. */
  public enum Outcome {
    /** It ended and nothing failed. */
    SUCCEEDED,
    /** A job, SQL execution or the driver failed. */
    FAILED,
    /** Its data ends before it did (still running, or cut off). */
    INCOMPLETE,
    /** Not known (no application data). */
    UNKNOWN
  }

  public ApplicationRef {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(attemptId, "attemptId");
    Objects.requireNonNull(sparkVersion, "sparkVersion");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(master, "master");
    Objects.requireNonNull(startTime, "startTime");
    Objects.requireNonNull(endTime, "endTime");
    Objects.requireNonNull(durationMs, "durationMs");
    Objects.requireNonNull(outcome, "outcome");
  }
}
