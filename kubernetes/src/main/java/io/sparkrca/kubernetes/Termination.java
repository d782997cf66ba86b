package io.sparkrca.kubernetes;

import io.sparkrca.core.evidence.ClusterEventReasons;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How a container ended, as the kubelet recorded it ({@code containerStatuses[].state.terminated}
 * or {@code lastState.terminated}): the reason ({@code OOMKilled}, {@code Error}, {@code
 * Completed}, {@code ContainerStatusUnknown}), the exit code, the signal, and when.
 *
 * <pre>{@code
 * pod.sparkContainer().flatMap(ContainerInfo::terminated)
 *     .filter(Termination::oomKilled)
 *     .ifPresent(t -> System.out.println("OOM-killed at " + t.finishedAt().orElseThrow()));
 * }</pre>
 *
 * @param reason the kubelet's reason
 * @param exitCode the exit code (128 + n for signal n)
 * @param signal the signal, when the runtime reports one
 * @param startedAt when the container started
 * @param finishedAt when it ended
 * @param message the termination message (the container's {@code /dev/termination-log}), redacted
 */
public record Termination(String reason, int exitCode, Optional<Integer> signal, Optional<Instant> startedAt,
    Optional<Instant> finishedAt, String message) {
  public Termination {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(message, "message");
  }

  /** Whether the kernel's OOM killer ended it for exceeding its memory limit. */
  public boolean oomKilled() {
    return reason.equals(ClusterEventReasons.OOM_KILLED);
  }

  /** Whether it ended in failure (a non-zero exit code). */
  public boolean failed() {
    return exitCode != 0;
  }
}
