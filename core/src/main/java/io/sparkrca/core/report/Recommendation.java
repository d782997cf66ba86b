package io.sparkrca.core.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What to do: an immediate fix for the root cause, or a tuning change, with exact property values
 * where a property is the lever, and why (the preconditions checked against the configuration).
 *
 * <pre>{@code
 * report.recommendations().stream().filter(r -> r.priority() == Recommendation.Priority.IMMEDIATE_FIX)
 *     .forEach(r -> System.out.println(r.action()));
 * }</pre>
 *
 * @param priority immediate fix, tuning, or follow-up investigation
 * @param action what to do, in one or two sentences
 * @param properties properties to set, with their current effective values
 * @param rationale why this helps here, citing the configuration and the measurements
 * @param findingId the finding it addresses
 */
public record Recommendation(
    Priority priority, String action, List<PropertyChange> properties, String rationale, Optional<String> findingId) {
  /** How urgent. */
  public enum Priority {
    /** Fixes the root cause. */
    IMMEDIATE_FIX,
    /** Makes the job faster or sturdier. */
    TUNING,
    /** Something to find out before acting. */
    INVESTIGATE
  }

  public Recommendation {
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(action, "action");
    properties = List.copyOf(properties);
    Objects.requireNonNull(rationale, "rationale");
    Objects.requireNonNull(findingId, "findingId");
  }
}
