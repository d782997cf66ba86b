package io.sparkrca.core.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One executor, or the driver ({@code id == "driver"}), over the application's life
 * ({@code /applications/[app-id]/allexecutors}).
 *
 * <pre>{@code
 * app.executors(false).stream()
 *     .filter(e -> e.removeReason().isPresent())
 *     .forEach(e -> System.out.println(e.id() + " lost: " + e.removeReason().get()));
 * }</pre>
 */
public record ExecutorSummary(
    String id,
    String hostPort,
    boolean isActive,
    int rddBlocks,
    long memoryUsed,
    long diskUsed,
    int totalCores,
    int maxTasks,
    int activeTasks,
    int failedTasks,
    int completedTasks,
    int totalTasks,
    long totalDuration,
    long totalGCTime,
    long totalInputBytes,
    long totalShuffleRead,
    long totalShuffleWrite,
    boolean isBlacklisted,
    long maxMemory,
    Instant addTime,
    Optional<Instant> removeTime,
    Optional<String> removeReason,
    Map<String, String> executorLogs,
    Optional<MemoryMetrics> memoryMetrics,
    List<Integer> blacklistedInStages,
    Optional<ExecutorMetrics> peakMemoryMetrics,
    Map<String, String> attributes,
    Map<String, ResourceInformation> resources,
    int resourceProfileId,
    boolean isExcluded,
    List<Integer> excludedInStages) {
  public ExecutorSummary {
    executorLogs = Copies.map(executorLogs);
    blacklistedInStages = List.copyOf(blacklistedInStages);
    attributes = Copies.map(attributes);
    resources = Copies.map(resources);
    excludedInStages = List.copyOf(excludedInStages);
  }

  /** Whether this is the driver rather than an executor. */
  @JsonIgnore
  public boolean isDriver() {
    return "driver".equals(id);
  }
}
