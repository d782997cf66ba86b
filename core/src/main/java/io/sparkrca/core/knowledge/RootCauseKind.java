package io.sparkrca.core.knowledge;

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
  DETERMINISTIC_DATA_FAILURE("A deterministic failure on specific data", Category.FAILURE),
  /** A task failed once and succeeded on retry: transient infrastructure trouble. */
  FLAKY_INFRASTRUCTURE("A transient failure that a retry fixed", Category.FAILURE),
  /** One key or partition holds most of the data, so a few tasks take much longer. */
  DATA_SKEW("Data skew", Category.PERFORMANCE),
  /** Tasks spill to disk under memory pressure. */
  SPILL("Spill to disk under memory pressure", Category.PERFORMANCE),
  /** Thousands of tiny tasks whose scheduling overhead dominates. */
  TOO_MANY_SMALL_TASKS("Too many small tasks", Category.PERFORMANCE),
  /** Too few partitions: a few tasks do all the work while cores sit idle. */
  UNDERPARTITIONED("Too few partitions", Category.PERFORMANCE),
  /** An executor JVM ran out of heap ({@code java.lang.OutOfMemoryError: Java heap space}). */
  EXECUTOR_OOM_HEAP("Executor out of heap memory", Category.FAILURE),
  /** An executor JVM spent nearly all its time in GC ({@code GC overhead limit exceeded}). */
  EXECUTOR_OOM_GC_OVERHEAD("Executor GC overhead limit exceeded", Category.FAILURE),
  /** An executor ran out of direct (off-heap) memory: {@code Direct buffer memory}, Netty. */
  EXECUTOR_OOM_DIRECT_MEMORY("Executor out of direct (off-heap) memory", Category.FAILURE),
  /**
   * The cluster manager killed an executor's container for exceeding its memory limit (exit 137,
   * {@code OOMKilled}, "Container killed by YARN for exceeding memory limits").
   */
  EXECUTOR_OOM_CONTAINER_KILLED("Executor container killed for exceeding its memory limit", Category.FAILURE),
  /** A GPU ran out of its memory (RAPIDS {@code GpuSplitAndRetryOOM}, {@code CUDA out of memory}). */
  ACCELERATOR_OOM("Accelerator (GPU) out of memory", Category.FAILURE),
  /** The driver JVM ran out of memory: a large collect, toPandas, broadcast or result. */
  DRIVER_OOM("Driver out of memory", Category.FAILURE),
  /**
   * The tasks' results were larger than {@code spark.driver.maxResultSize} ("Total size of
   * serialized results of N tasks ... is bigger than spark.driver.maxResultSize").
   */
  RESULT_TOO_LARGE("Result larger than spark.driver.maxResultSize", Category.FAILURE),
  /** A broadcast join's table was not built in {@code spark.sql.broadcastTimeout}. */
  BROADCAST_TIMEOUT("Broadcast timed out", Category.FAILURE),
  /** A table to broadcast was too large: over 8 GB, too many rows, or the driver ran out of memory building it. */
  BROADCAST_TOO_LARGE("Broadcast table too large", Category.FAILURE),
  /** An executor was lost and its shuffle output with it, so reducers hit fetch failures. */
  EXECUTOR_LOST_FETCH_FAILURE("Executor lost, then shuffle fetch failures", Category.FAILURE),
  /** Executors were lost (killed, preempted, their node gone) for a reason no log explains. */
  EXECUTOR_LOST("Executors lost", Category.FAILURE),
  /** Executors (or the driver) stopped answering heartbeats and were declared lost. */
  HEARTBEAT_TIMEOUT("Executor heartbeat timed out", Category.FAILURE),
  /** Executors were taken away: YARN preemption, graceful decommission, a spot or preemptible node reclaimed. */
  EXECUTOR_PREEMPTED("Executors preempted or decommissioned", Category.FAILURE),
  /** The application never got executors: no resources accepted, pods unschedulable, a full queue. */
  EXECUTORS_NOT_GRANTED("Executors never granted", Category.FAILURE),
  /** The cloud refused the resources for a quota (CPUs, addresses, disk) or capacity. */
  CLOUD_QUOTA_EXCEEDED("Cloud quota exceeded", Category.FAILURE),
  /** Executors failed as they started: bad JVM options, an image that does not pull, a crash at launch. */
  EXECUTOR_STARTUP_FAILURE("Executors failed to start", Category.FAILURE),
  /** A local disk filled up ({@code No space left on device}): shuffle, spill or {@code spark.local.dir}. */
  DISK_FULL("Local disk full", Category.FAILURE),
  /** A process hit its limit of open files ({@code Too many open files}). */
  TOO_MANY_OPEN_FILES("Too many open files", Category.FAILURE),
  /** The object store throttled requests (S3 {@code 503 SlowDown}, GCS {@code 429}, ADLS {@code ServerBusy}). */
  OBJECT_STORE_THROTTLED("Object store throttling", Category.FAILURE),
  /** An input path or table does not exist ({@code [PATH_NOT_FOUND]}, FileNotFoundException). */
  INPUT_NOT_FOUND("Input path does not exist", Category.FAILURE),
  /** Storage or a service refused access (403, permission denied, missing IAM role). */
  ACCESS_DENIED("Access denied", Category.FAILURE),
  /** A query failed analysis: an unknown column, table or function, a type mismatch (Spark's error classes). */
  QUERY_ANALYSIS_ERROR("The query failed analysis", Category.FAILURE),
  /** Data read did not fit the schema expected ({@code Parquet column cannot be converted}, schemas that do not merge). */
  SCHEMA_MISMATCH("Schema mismatch on read", Category.FAILURE),
  /** The Hive metastore or catalog could not be reached or is misconfigured. */
  METASTORE_UNAVAILABLE("Metastore or catalog unavailable", Category.FAILURE),
  /**
   * Code the job needs is not on its class path or Python path (ClassNotFoundException,
   * NoClassDefFoundError, a data source not found, ModuleNotFoundError).
   */
  MISSING_DEPENDENCY("A class, data source or module is missing", Category.FAILURE),
  /**
   * Two versions of a library meet on the class path ({@code NoSuchMethodError}, {@code
   * NoSuchFieldError}, {@code IncompatibleClassChangeError}, {@code AbstractMethodError}).
   */
  DEPENDENCY_CONFLICT("Dependency version conflict", Category.FAILURE),
  /** A closure or object could not be serialized (Task not serializable, PicklingError). */
  SERIALIZATION_FAILURE("A task or object could not be serialized", Category.FAILURE),
  /** A Python UDF raised an exception in the Python worker ({@code PythonException}). */
  PYTHON_UDF_FAILURE("A Python UDF raised an exception", Category.FAILURE),
  /** A Python worker died without a Python exception (a segfault, killed, out of memory). */
  PYTHON_WORKER_CRASHED("Python worker crashed", Category.FAILURE),
  /** Planning overflowed the stack: a plan or lineage too deep ({@code StackOverflowError}). */
  PLAN_TOO_DEEP("Query plan too deep", Category.FAILURE),
  /** The driver failed outside any job for a reason that matches no more specific kind. */
  DRIVER_FAILURE("The driver failed outside any job", Category.FAILURE),
  /** Garbage collection takes a large share of task time. */
  GC_PRESSURE("Garbage-collection pressure", Category.PERFORMANCE),
  /** A sort-merge join whose small side should have been broadcast. */
  SORT_MERGE_JOIN_SHOULD_BROADCAST("Sort-merge join where a broadcast join fits", Category.PERFORMANCE),
  /** The driver kept the cluster idle between jobs: driver-side work, not the cluster, took the time. */
  DRIVER_BOTTLENECK("Time spent on the driver between jobs", Category.PERFORMANCE),
  /**
   * An interactive session (a shell, a notebook, a Dataproc session) kept executors on a cluster
   * through the time between its commands, when no job ran: a cost, not driver work.
   */
  IDLE_SESSION("An interactive session held executors while idle", Category.PERFORMANCE),
  /**
   * Stages waited for executors or free cores before their first task launched (resource
   * starvation, scheduler delay): the time went to waiting, not to work; more partitions would not
   * have helped.
   */
  RESOURCE_STARVATION("Tasks waited for executors or free cores", Category.PERFORMANCE),
  /**
   * The cluster or resource manager stopped the application underneath a running driver (a YARN
   * application killed or its client-mode monitor seeing it end), so its jobs were cancelled and its
   * executors lost at once.
   */
  APPLICATION_STOPPED_BY_CLUSTER_MANAGER("The cluster manager stopped the application", Category.FAILURE),
  /** Writing or committing the output failed. */
  WRITE_COMMIT_FAILURE("Output write or commit failure", Category.FAILURE),
  /** Another writer changed the table or path first (Delta {@code ConcurrentAppendException}, {@code FileAlreadyExistsException}). */
  CONCURRENT_WRITE_CONFLICT("Concurrent write conflict", Category.FAILURE),
  /** A streaming query's checkpoint or offsets no longer fit the query or the source (offsets out of range, state schema changed). */
  STREAMING_CHECKPOINT_INCOMPATIBLE("Streaming checkpoint or offsets incompatible", Category.FAILURE),
  /**
   * A workload metric crossed the threshold Dataproc's console flags (its metric insights: GC time
   * / run time per executor, disk spill, bytes or records written vs read, shuffle write time / run
   * time, stage progression, executors required vs running). An observation with no time cost:
   * never a root cause on its own.
   */
  METRIC_INSIGHT("A workload metric crossed its threshold", Category.PERFORMANCE),
  /** A configuration change made a previously healthy job slower. */
  CONFIG_REGRESSION("Regression caused by a configuration change", Category.COMPARISON),
  /** The job got slower only because its input grew; no regression in the job itself. */
  NO_REGRESSION_INPUT_GROWTH("Slower only because the input grew", Category.COMPARISON),
  /**
   * The same job on data distributed differently: a key or partition became hot (skew appeared),
   * so a few tasks of a stage now take most of its time.
   */
  DATA_DISTRIBUTION_CHANGE("The data's distribution changed: skew appeared", Category.COMPARISON),
  /** The job's code changed (classes, queries or constants) and its stages with it. */
  CODE_CHANGE("The job's code changed", Category.COMPARISON),
  /**
   * The same job had less of the cluster than its baseline: fewer executors or cores granted, or
   * more executors lost.
   */
  INFRASTRUCTURE_CHANGE("Fewer resources than the baseline, or more executors lost", Category.COMPARISON),
  /**
   * The evidence collected does not establish a root cause: the application failed and nothing
   * explains it, or too little was collected to judge. Never reported as healthy.
   */
  UNDETERMINED("No root cause could be determined from the evidence", Category.UNDETERMINED),
  /** No problem found, on sufficient evidence. */
  HEALTHY("Healthy", Category.HEALTHY);

  /** What sort of answer a kind is. */
  public enum Category {
    /** Something failed: a task, a stage, a job, the driver. */
    FAILURE,
    /** Nothing failed, but the run was slower or costlier than it needed to be. */
    PERFORMANCE,
    /** An answer that needs a baseline run to compare with. */
    COMPARISON,
    /** Not enough evidence to name a cause. */
    UNDETERMINED,
    /** Nothing wrong. */
    HEALTHY
  }

  private final String title;
  private final Category category;

  RootCauseKind(String title, Category category) {
    this.title = title;
    this.category = category;
  }

  /** A short human title, e.g. {@code "Data skew"}. */
  public String title() {
    return title;
  }

  /** Whether this kind is a failure, a performance problem, a comparison, undetermined or healthy. */
  public Category category() {
    return category;
  }

  /** Whether this kind names an out-of-memory condition of an executor or the driver. */
  public boolean isOutOfMemory() {
    return this == EXECUTOR_OOM_HEAP || this == EXECUTOR_OOM_GC_OVERHEAD
        || this == EXECUTOR_OOM_DIRECT_MEMORY || this == EXECUTOR_OOM_CONTAINER_KILLED
        || this == ACCELERATOR_OOM || this == DRIVER_OOM;
  }
}
