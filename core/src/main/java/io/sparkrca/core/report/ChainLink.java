package io.sparkrca.core.report;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of the failure chain: the root cause, what followed from it (retries, lost executors,
 * fetch failures, aborted stages and jobs), and the outcome, in time order.
 *
 * <pre>{@code
 * report.failureChain().forEach(l -> System.out.println(l.step() + ". [" + l.role() + "] " + l.event()));
 * }</pre>
 *
 * @param step 1-based position
 * @param time when, when known
 * @param role the step's place in the chain
 * @param event what happened
 * @param evidence where it is recorded
 */
public record ChainLink(int step, Optional<Instant> time, Role role, String event, Optional<EvidenceRef> evidence) {
  /** A step's place in the chain. */
  public enum Role {
    /** The cause. */
    ROOT_CAUSE,
    /** Fallout of the cause. */
    CONSEQUENCE,
    /** How it ended for the application. */
    OUTCOME
  }

  public ChainLink {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(evidence, "evidence");
  }
}
