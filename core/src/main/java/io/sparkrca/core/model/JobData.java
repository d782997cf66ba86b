package io.sparkrca.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A job ({@code /applications/[app-id]/jobs}).
 *
 * <pre>{@code
 * app.jobs(Set.of(JobExecutionStatus.FAILED)).forEach(j -> System.out.println(j.jobId()));
 * }</pre>
 */
public record JobData(
    int jobId,
    String name,
    Optional<String> description,
    Optional<Instant> submissionTime,
    Optional<Instant> completionTime,
    List<Integer> stageIds,
    Optional<String> jobGroup,
    List<String> jobTags,
    JobExecutionStatus status,
    int numTasks,
    int numActiveTasks,
    int numCompletedTasks,
    int numSkippedTasks,
    int numFailedTasks,
    int numKilledTasks,
    int numCompletedIndices,
    int numActiveStages,
    int numCompletedStages,
    int numSkippedStages,
    int numFailedStages,
    Map<String, Integer> killedTasksSummary) {
  public JobData {
    stageIds = List.copyOf(stageIds);
    jobTags = List.copyOf(jobTags);
    killedTasksSummary = Copies.map(killedTasksSummary);
  }
}
