package io.sparkrca.core.model;

/**
 * The metrics of one task attempt. Times are milliseconds except the CPU times and the shuffle
 * write time, which are nanoseconds, as in Spark.
 *
 * <pre>{@code
 * long spilled = task.taskMetrics().map(TaskMetrics::diskBytesSpilled).orElse(0L);
 * }</pre>
 */
public record TaskMetrics(
    long executorDeserializeTime,
    long executorDeserializeCpuTime,
    long executorRunTime,
    long executorCpuTime,
    long resultSize,
    long jvmGcTime,
    long resultSerializationTime,
    long memoryBytesSpilled,
    long diskBytesSpilled,
    long peakExecutionMemory,
    InputMetrics inputMetrics,
    OutputMetrics outputMetrics,
    ShuffleReadMetrics shuffleReadMetrics,
    ShuffleWriteMetrics shuffleWriteMetrics) {}
