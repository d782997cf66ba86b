package io.sparkrca.rules;

import java.util.Optional;

/**
 * The key metrics of one violating stage attempt (the agent's {@code ViolatingStageInfo}, per
 * attempt).
 *
 * <pre>{@code
 * for (ViolatingStage s : diagnostics.stageMetrics()) {
 *   System.out.println(s.stageId() + " spilled " + s.stageMetrics().diskBytesSpilled() + " bytes");
 * }
 * }</pre>
 *
 * @param taskQuantiles empty when the attempt has no task quantiles
 */
public record ViolatingStage(
    long stageId,
    int stageAttemptId,
    int numTasks,
    int numKilledTasks,
    Metrics stageMetrics,
    Optional<TaskQuantiles> taskQuantiles) {

  /** Stage totals. */
  public record Metrics(
      long executorRunTimeMillis,
      long jvmGcTimeMillis,
      long memoryBytesSpilled,
      long diskBytesSpilled,
      long shuffleWriteTimeNanos,
      long inputBytesRead,
      long shuffleReadBytesRead,
      long outputBytesWritten,
      long shuffleWriteBytesWritten) {}

  /** Task quantiles; each is empty when the source had no such quantile object. */
  public record TaskQuantiles(
      Optional<Quantile> durationMillis,
      Optional<Quantile> inputBytes,
      Optional<Quantile> outputBytes,
      Optional<Quantile> shuffleWriteBytes) {}

  /** Minimum, median, maximum and sum of one task metric. */
  public record Quantile(long minimum, long percentile50, long maximum, long sum) {}
}
