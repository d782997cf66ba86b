package io.sparkrca.core.model;

import java.util.List;
import java.util.Optional;

/**
 * One application and its attempts ({@code /applications/[app-id]}).
 *
 * <pre>{@code
 * ApplicationInfo app = history.application("app-20240101-0001", Optional.empty()).orElseThrow().info();
 * boolean done = app.attempts().get(0).completed();
 * }</pre>
 */
public record ApplicationInfo(
    String id,
    String name,
    Optional<Integer> coresGranted,
    Optional<Integer> maxCores,
    Optional<Integer> coresPerExecutor,
    Optional<Integer> memoryPerExecutorMB,
    List<ApplicationAttemptInfo> attempts) {
  public ApplicationInfo {
    attempts = List.copyOf(attempts);
  }

  /** The most recent attempt (the History Server lists attempts newest first). */
  public ApplicationAttemptInfo latestAttempt() {
    return attempts.get(0);
  }
}
