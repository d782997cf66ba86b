package io.sparkrca.core.report;

/**
 * The fixed vocabulary of root causes sparkrca can name. The testkit labels every generated
 * scenario with one of these, and the analyzers answer with one of these, so a test can compare
 * the two directly.
 *
 * <pre>{@code
 * RootCauseKind expected = RootCauseKind.valueOf(label.get("rootCause").asText());
 * assertThat(report.rootCause().kind()).isEqualTo(expected);
 * }</pre>
 */
public enum RootCauseKind {
  /** The same partition fails with the same exception on every attempt: bad data or a code bug. */
  DETERMINISTIC_DATA_FAILURE("A deterministic failure on specific data"),
  /** A task failed once and succeeded on retry: transient infrastructure trouble. */
  FLAKY_INFRASTRUCTURE("A transient failure that a retry fixed"),
  /** One key or partition holds most of the data, so a few tasks take much longer. */
  DATA_SKEW("Data skew"),
  /** Tasks spill to disk under memory pressure. */
  SPILL("Spill to disk under memory pressure"),
  /** Thousands of tiny tasks whose scheduling overhead dominates. */
  TOO_MANY_SMALL_TASKS("Too many small tasks"),
  /** Too few partitions: a few tasks do all the work while cores sit idle. */
  UNDERPARTITIONED("Too few partitions"),
  /** An executor JVM ran out of heap. */
  EXECUTOR_OOM("Executor out of memory"),
  /** An executor was lost and its shuffle output with it, so reducers hit fetch failures. */
  EXECUTOR_LOST_FETCH_FAILURE("Executor lost, then shuffle fetch failures"),
  /** The driver failed before it submitted any job; the cause is only in the driver log. */
  DRIVER_FAILURE_BEFORE_FIRST_ACTION("Driver failed before its first action"),
  /** Garbage collection takes a large share of task time. */
  GC_PRESSURE("Garbage-collection pressure"),
  /** A sort-merge join whose small side should have been broadcast. */
  SORT_MERGE_JOIN_SHOULD_BROADCAST("Sort-merge join where a broadcast join fits"),
  /** Writing or committing the output failed. */
  WRITE_COMMIT_FAILURE("Output write or commit failure"),
  /** A configuration change made a previously healthy job slower. */
  CONFIG_REGRESSION("Regression caused by a configuration change"),
  /** The job got slower only because its input grew; no regression in the job itself. */
  NO_REGRESSION_INPUT_GROWTH("Slower only because the input grew"),
  /** No problem found, on sufficient evidence. */
  HEALTHY("Healthy");

  private final String title;

  RootCauseKind(String title) {
    this.title = title;
  }

  /** A short human title, e.g. {@code "Data skew"}. */
  public String title() {
    return title;
  }
}
