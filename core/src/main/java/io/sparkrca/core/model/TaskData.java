package io.sparkrca.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One task attempt ({@code .../stages/[id]/[attempt]/taskList}).
 *
 * <pre>{@code
 * app.tasks(3, 0, TaskQuery.all().withStatuses(Set.of(TaskStatus.FAILED)))
 *     .forEach(t -> System.out.println(t.errorMessage().orElse("")));
 * }</pre>
 *
 * @param status one of RUNNING, GET RESULT, FAILED, KILLED, SUCCESS, UNKNOWN
 * @param duration absent while the task runs or when it took no measurable time
 */
public record TaskData(
    long taskId,
    int index,
    int attempt,
    int partitionId,
    Instant launchTime,
    Optional<Instant> resultFetchStart,
    Optional<Long> duration,
    String executorId,
    String host,
    String status,
    String taskLocality,
    boolean speculative,
    List<AccumulableInfo> accumulatorUpdates,
    Optional<String> errorMessage,
    Optional<TaskMetrics> taskMetrics,
    Map<String, String> executorLogs,
    long schedulerDelay,
    long gettingResultTime) {
  public TaskData {
    accumulatorUpdates = List.copyOf(accumulatorUpdates);
    executorLogs = Copies.map(executorLogs);
  }
}
