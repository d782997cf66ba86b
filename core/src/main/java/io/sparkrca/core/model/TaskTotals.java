package io.sparkrca.core.model;

/**
 * Sums over the successful task attempts of one stage attempt that reported metrics: the {@code
 * sum} and {@code count} that Dataproc's task quantile messages carry next to the quantiles, and
 * the totals an analysis compares runs by. Negative values (a metric a task did not report) count
 * as 0.
 *
 * <pre>{@code
 * TaskTotals t = app.taskTotals(2, 0).orElseThrow();
 * double meanRunMillis = (double) t.metrics().executorRunTime() / t.count();
 * }</pre>
 *
 * @param count the successful tasks with metrics
 * @param duration their durations, milliseconds
 * @param gettingResultTime the time the driver spent fetching their results, milliseconds
 * @param schedulerDelay their scheduler delays, milliseconds
 * @param metrics every task metric, summed (the shuffle read totals are local plus remote)
 */
public record TaskTotals(
    long count, long duration, long gettingResultTime, long schedulerDelay, TaskMetrics metrics) {

  /** The totals of the tasks given that succeeded and reported metrics. */
  public static TaskTotals of(Iterable<TaskData> tasks) {
    Adder a = new Adder();
    for (TaskData t : tasks) {
      if ("SUCCESS".equals(t.status()) && t.taskMetrics().isPresent()) {
        a.add(t);
      }
    }
    return a.totals();
  }

  /** Running sums; the slow path for sources that hold tasks as records (the replay sums columns). */
  private static final class Adder {
    private long count;
    private long duration;
    private long gettingResult;
    private long schedulerDelay;
    private final long[] m = new long[34];

    void add(TaskData t) {
      count++;
      duration = plus(duration, t.duration().orElse(0L));
      gettingResult = plus(gettingResult, t.gettingResultTime());
      schedulerDelay = plus(schedulerDelay, t.schedulerDelay());
      TaskMetrics x = t.taskMetrics().orElseThrow();
      ShuffleReadMetrics r = x.shuffleReadMetrics();
      ShufflePushReadMetrics p = r.shufflePushReadMetrics();
      long[] v = {
        x.executorDeserializeTime(), x.executorDeserializeCpuTime(), x.executorRunTime(),
        x.executorCpuTime(), x.resultSize(), x.jvmGcTime(), x.resultSerializationTime(),
        x.memoryBytesSpilled(), x.diskBytesSpilled(), x.peakExecutionMemory(),
        x.inputMetrics().bytesRead(), x.inputMetrics().recordsRead(),
        x.outputMetrics().bytesWritten(), x.outputMetrics().recordsWritten(),
        r.remoteBlocksFetched(), r.localBlocksFetched(), r.fetchWaitTime(), r.remoteBytesRead(),
        r.remoteBytesReadToDisk(), r.localBytesRead(), r.recordsRead(), r.remoteReqsDuration(),
        p.corruptMergedBlockChunks(), p.mergedFetchFallbackCount(), p.remoteMergedBlocksFetched(),
        p.localMergedBlocksFetched(), p.remoteMergedChunksFetched(), p.localMergedChunksFetched(),
        p.remoteMergedBytesRead(), p.localMergedBytesRead(), p.remoteMergedReqsDuration(),
        x.shuffleWriteMetrics().bytesWritten(), x.shuffleWriteMetrics().writeTime(),
        x.shuffleWriteMetrics().recordsWritten()
      };
      for (int i = 0; i < v.length; i++) {
        m[i] = plus(m[i], v[i]);
      }
    }

    TaskTotals totals() {
      TaskMetrics sums =
          new TaskMetrics(
              m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9],
              new InputMetrics(m[10], m[11]),
              new OutputMetrics(m[12], m[13]),
              new ShuffleReadMetrics(
                  m[14], m[15], m[16], m[17], m[18], m[19], m[20], m[21],
                  new ShufflePushReadMetrics(m[22], m[23], m[24], m[25], m[26], m[27], m[28], m[29], m[30])),
              new ShuffleWriteMetrics(m[31], m[32], m[33]));
      return new TaskTotals(count, duration, gettingResult, schedulerDelay, sums);
    }
  }

  private static long plus(long sum, long value) {
    return value > 0 ? sum + value : sum;
  }
}
