package io.sparkrca.testkit;

import static io.sparkrca.testkit.EventLogFormat.GZIP_AFTERWARDS;
import static io.sparkrca.testkit.EventLogFormat.LZ4;
import static io.sparkrca.testkit.EventLogFormat.LZF;
import static io.sparkrca.testkit.EventLogFormat.PLAIN;
import static io.sparkrca.testkit.EventLogFormat.ROLLING_LZ4;
import static io.sparkrca.testkit.EventLogFormat.ROLLING_ZSTD;
import static io.sparkrca.testkit.EventLogFormat.SNAPPY;
import static io.sparkrca.testkit.EventLogFormat.ZSTD;

import io.sparkrca.core.knowledge.RootCauseKind;
import java.time.Duration;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Every scenario the testkit generates, in generation order (a baseline before its twins). The
 * settings are the smallest that still make each fault unmistakable on a 2-core machine.
 */
public final class ScenarioCatalog {
  private ScenarioCatalog() {}

  /** Name of the scenario the default test run regenerates on Spark 3.x. */
  public static final String QUICK_ON_3 = "flaky-task";

  /** Name of the scenario the default test run regenerates on Spark 4.x. */
  public static final String QUICK_ON_4 = "bad-record";

  /** The log of this scenario on Spark 3.x is also committed cut off mid-line as .inprogress. */
  public static final String TRUNCATED_SOURCE = "bad-record";

  /** Name of the derived scenario holding the truncated .inprogress log. */
  public static final String TRUNCATED_NAME = "bad-record-inprogress";

  private static final List<Scenario> ALL = List.of(
      Scenario.builder("bad-record", RootCauseKind.DETERMINISTIC_DATA_FAILURE, "bad-record")
          .description("One unparsable record in partition 2 fails all 4 attempts with the same"
              + " NumberFormatException; the job aborts.")
          .master("local[2,4]")
          .formats(PLAIN, ROLLING_ZSTD)
          .check(FaultChecks.deterministicFailure(4, true))
          .build(),
      Scenario.builder("flaky-task", RootCauseKind.FLAKY_INFRASTRUCTURE, "flaky-task")
          .description("Partition 1 fails its first attempt with an IOException; the retry"
              + " succeeds and so does the job.")
          .master("local[2,4]")
          .formats(ZSTD, ROLLING_ZSTD)
          .check(FaultChecks.flakyTask())
          .build(),
      Scenario.builder("skew-join", RootCauseKind.DATA_SKEW, "skew-join")
          .description("A join where key 0 holds half the rows; AQE skew handling and broadcast"
              + " are off, so one reduce task runs for seconds while the others take"
              + " milliseconds.")
          .param("hotLeft", 100_000)
          .param("hotRight", 150)
          .conf("spark.sql.adaptive.skewJoin.enabled", false)
          .conf("spark.sql.adaptive.coalescePartitions.enabled", false)
          .conf("spark.sql.autoBroadcastJoinThreshold", -1)
          .conf("spark.sql.shuffle.partitions", 8)
          .formats(LZ4, LZ4)
          .check(FaultChecks.skew(5.0, 2000))
          .build(),
      Scenario.builder("spill", RootCauseKind.SPILL, "spill")
          .description("Sorting 1.5 million rows with spark.memory.fraction=0.1 in a 1 GiB"
              + " driver: the sorts spill to disk.")
          .param("rows", 1_500_000)
          .conf("spark.memory.fraction", 0.1)
          .formats(SNAPPY, ROLLING_ZSTD)
          .check(FaultChecks.spill())
          .build(),
      Scenario.builder("too-many-small-tasks", RootCauseKind.TOO_MANY_SMALL_TASKS, "too-many-tasks")
          .description("A trivial map over 4000 partitions: thousands of tasks of a few"
              + " milliseconds each.")
          .param("tasks", 4000)
          // The smallest roll size Spark accepts (the default is 128m): on Spark 4 the ~11 MiB of
          // events of this run then fill two rolling files. Ignored where rolling is off.
          .conf("spark.eventLog.rolling.maxFileSize", "10m")
          .formats(ZSTD, ROLLING_ZSTD)
          .check(FaultChecks.tooManySmallTasks(1000, 100))
          .build(),
      Scenario.builder("underpartitioned", RootCauseKind.UNDERPARTITIONED, "underpartitioned")
          .description("Hashing 20 million rows in a single partition on 2 cores: one task does"
              + " all the work while the other core idles.")
          .param("rows", 20_000_000)
          .formats(LZF, LZF)
          .check(FaultChecks.underpartitioned(2000))
          .build(),
      Scenario.builder("executor-oom", RootCauseKind.EXECUTOR_OOM_HEAP, "executor-oom")
          .description("A task buffers a 100-million-row partition (800 MB of longs) in memory"
              + " to sort it inside a 512 MiB executor JVM (local-cluster):"
              + " java.lang.OutOfMemoryError: Java heap space, the executor exits with 52, twice,"
              + " and the job aborts.")
          .param("rows", 100_000_000)
          .master("local-cluster[1,1,1024]")
          .conf("spark.executor.memory", "512m")
          .conf("spark.task.maxFailures", 2)
          .formats(PLAIN, PLAIN)
          .timeout(Duration.ofMinutes(6))
          .check(FaultChecks.executorOom("Java heap space"))
          .build(),
      Scenario.builder("executor-oom-exit-on-oom", RootCauseKind.EXECUTOR_OOM_HEAP, "executor-oom")
          .description("The executor-oom task in an executor started with"
              + " -XX:+ExitOnOutOfMemoryError: the JVM exits with code 3 the moment the heap runs"
              + " out, twice, so the event log has only ExecutorLostFailure and the exit code;"
              + " the OutOfMemoryError is only in the executor's own output.")
          .param("rows", 100_000_000)
          .master("local-cluster[1,1,1024]")
          .conf("spark.executor.memory", "512m")
          .conf("spark.executor.extraJavaOptions", "-XX:+ExitOnOutOfMemoryError")
          .conf("spark.task.maxFailures", 2)
          .formats(PLAIN, ROLLING_ZSTD)
          .timeout(Duration.ofMinutes(6))
          .check(FaultChecks.executorExitOnOom(3))
          .build(),
      Scenario.builder("executor-direct-memory-oom", RootCauseKind.EXECUTOR_OOM_DIRECT_MEMORY,
              "direct-memory-oom")
          .description("A task caches its records in 1 MiB direct ByteBuffers in an executor"
              + " with -XX:MaxDirectMemorySize=32m (local-cluster): java.lang.OutOfMemoryError"
              + " for direct buffer memory, the executor exits with 52, and the job aborts.")
          .param("rows", 400_000)
          .master("local-cluster[1,1,1024]")
          .conf("spark.executor.memory", "512m")
          .conf("spark.executor.extraJavaOptions", "-XX:MaxDirectMemorySize=32m")
          // An executor refuses to start when Netty's direct memory is below this (200m default).
          .conf("spark.network.maxRemoteBlockSizeFetchToMem", "16m")
          .conf("spark.task.maxFailures", 2)
          .formats(LZF, ROLLING_ZSTD)
          .timeout(Duration.ofMinutes(4))
          .check(FaultChecks.executorOom("direct buffer memory"))
          .build(),
      Scenario.builder("executor-gc-overhead", RootCauseKind.EXECUTOR_OOM_GC_OVERHEAD, "gc-overhead")
          // 1 KiB kept per record and 2 KiB of garbage: in tries of other sizes and ratios, a
          // much larger share of garbage or of kept data ended in "Java heap space" instead.
          .param("fields", 128)
          .description("A task remembers a small object per record while parsing makes garbage,"
              + " in a 512 MiB executor on the parallel collector (local-cluster): the heap fills,"
              + " full collections free almost nothing, and the JVM throws"
              + " java.lang.OutOfMemoryError: GC overhead limit exceeded; the executor exits"
              + " with 52, twice, and the job aborts.")
          .master("local-cluster[1,1,1024]")
          .conf("spark.executor.memory", "512m")
          .conf("spark.executor.extraJavaOptions", "-XX:+UseParallelGC")
          // A second attempt keeps the job alive until the first executor's exit is logged.
          .conf("spark.task.maxFailures", 2)
          .formats(PLAIN, ZSTD)
          .timeout(Duration.ofMinutes(7))
          .check(FaultChecks.executorOom("GC overhead limit exceeded"))
          .build(),
      Scenario.builder("executor-lost-fetch-failure", RootCauseKind.EXECUTOR_LOST_FETCH_FAILURE,
              "executor-killed")
          .description("Two executors (local-cluster) write shuffle output; a reduce task then"
              + " SIGKILLs its own executor (exit 137) while the other reducer still fetches from"
              + " it: FetchFailed, the map stage re-runs, the job succeeds.")
          .master("local-cluster[2,1,1024]")
          .conf("spark.executor.memory", "512m")
          // All executors share one host here; force network fetches as between real hosts.
          .conf("spark.shuffle.readHostLocalDisk", false)
          // One block per request, one request at a time, no retries: the reducer is still
          // fetching from the killed executor when it dies, and fails fast.
          .conf("spark.reducer.maxReqsInFlight", 1)
          .conf("spark.reducer.maxBlocksInFlightPerAddress", 1)
          .conf("spark.reducer.maxSizeInFlight", "32k")
          .conf("spark.shuffle.io.maxRetries", 0)
          .formats(PLAIN, ROLLING_ZSTD)
          .check(FaultChecks.executorLostFetchFailure(137))
          .build(),
      Scenario.builder("executor-lost-sigterm", RootCauseKind.EXECUTOR_LOST, "executor-sigterm")
          .description("Two executors (local-cluster) run a single-stage job with no shuffle; a"
              + " task sends SIGTERM to its own executor JVM once, which exits with 143: the task"
              + " is lost (ExecutorLostFailure), retried on the other executor, and the job"
              + " succeeds.")
          .master("local-cluster[2,1,1024]")
          .conf("spark.executor.memory", "512m")
          .formats(LZ4, LZF)
          .timeout(Duration.ofMinutes(4))
          .check(FaultChecks.executorLostSigterm(143))
          .build(),
      Scenario.builder("driver-failure-before-job", RootCauseKind.DRIVER_FAILURE,
              "driver-config-validation")
          .description("The driver's own configuration check throws an IllegalStateException"
              + " (\"config validation failed: expected 'region' to be set\") right after the"
              + " SparkSession starts: no job runs, and the exception is only in the driver log.")
          .formats(ZSTD, ROLLING_ZSTD)
          .check(FaultChecks.driverFailure())
          .build(),
      Scenario.builder("driver-killed-mid-job", RootCauseKind.UNDETERMINED, "driver-killed")
          .description("The driver JVM (local mode) is SIGKILLed by one of its own reduce tasks"
              + " while the first job runs: exit 137, no application end, the event log left"
              + " in progress with whatever Spark had flushed, and no log line that says why.")
          .driverKilled()
          .formats(PLAIN, ROLLING_ZSTD)
          .timeout(Duration.ofMinutes(3))
          .check(FaultChecks.driverKilledMidJob(Scenario.KILLED_EXIT_CODE))
          .build(),
      Scenario.builder("driver-fails-before-first-action",
              RootCauseKind.INPUT_NOT_FOUND, "driver-fails-early")
          .description("The driver reads an input path that does not exist: AnalysisException"
              + " before any job; the event log has no job and the cause is only in the driver"
              + " log.")
          .formats(PLAIN, PLAIN)
          .check(FaultChecks.inputNotFound())
          .build(),
      Scenario.builder("missing-dependency", RootCauseKind.MISSING_DEPENDENCY, "missing-dependency")
          .description("The driver reads a Delta table without the Delta Lake package on its"
              + " class path (no --packages): Spark fails to find the data source before any"
              + " job; the cause is only in the driver log.")
          .formats(PLAIN, LZ4)
          .check(FaultChecks.missingDependency())
          .build(),
      Scenario.builder("task-not-serializable", RootCauseKind.SERIALIZATION_FAILURE,
              "task-not-serializable")
          .description("An RDD map captures a driver-side lookup object that is not"
              + " Serializable: SparkException: Task not serializable, caused by"
              + " java.io.NotSerializableException, on the driver before any job.")
          .formats(SNAPPY, ROLLING_ZSTD)
          .check(FaultChecks.taskNotSerializable())
          .build(),
      Scenario.builder("driver-oom-collect", RootCauseKind.DRIVER_OOM, "driver-oom-collect")
          .description("collectAsList() of 400 rows with a 2 MiB text column that compresses"
              + " to almost nothing, in a 512 MiB driver with spark.driver.maxResultSize=0: the"
              + " job succeeds and its results are a few MiB, then decoding them into rows in the"
              + " driver's main thread runs out of heap.")
          // Few large rows: the allocation that fails is a whole row's buffer in the main
          // thread, while the small allocations of Spark's own threads still fit.
          .param("rows", 400)
          .param("repeats", 140_000)
          .heapMb(512)
          .conf("spark.driver.memory", "512m")
          .conf("spark.driver.maxResultSize", 0)
          .formats(ZSTD, ROLLING_ZSTD)
          .timeout(Duration.ofMinutes(4))
          .check(FaultChecks.driverOom())
          .build(),
      Scenario.builder("driver-bottleneck", RootCauseKind.DRIVER_BOTTLENECK, "driver-bottleneck")
          .description("Four short jobs, each followed by seconds of single-threaded"
              + " post-processing of the collected keys in the driver's main thread: the cluster"
              + " idles for most of the application.")
          .param("rounds", 4)
          .param("batchRows", 50_000)
          .param("fanOut", 20)
          .formats(ROLLING_LZ4, ROLLING_ZSTD)
          .check(FaultChecks.driverBottleneck(3, 0.6))
          .build(),
      Scenario.builder("gc-pressure", RootCauseKind.GC_PRESSURE, "gc-pressure")
          .description("Tasks build large maps of boxed objects in a 1 GiB driver (local mode):"
              + " garbage collection takes a large share of task time.")
          .param("rows", 8_000_000)
          .formats(GZIP_AFTERWARDS, ROLLING_ZSTD)
          .check(FaultChecks.gcPressure(0.3))
          .build(),
      Scenario.builder("smj-should-broadcast", RootCauseKind.SORT_MERGE_JOIN_SHOULD_BROADCAST,
              "sort-merge-join")
          .description("Three SQL queries; the last joins 2 million orders with 50 stores as a"
              + " SortMergeJoin because spark.sql.autoBroadcastJoinThreshold=-1.")
          .conf("spark.sql.autoBroadcastJoinThreshold", -1)
          .formats(ROLLING_LZ4, ROLLING_ZSTD)
          .check(FaultChecks.sortMergeJoinShouldBroadcast(3, 1000))
          .build(),
      Scenario.builder("write-commit-failure", RootCauseKind.WRITE_COMMIT_FAILURE,
              "write-commit-failure")
          .description("A JSON write whose tasks all succeed, then the job commit throws"
              + " (injected by an output committer): the query and the driver fail.")
          .conf("spark.sql.sources.outputCommitterClass",
              "io.sparkrca.testkit.scenarios.FailingJobCommitter")
          .formats(PLAIN, SNAPPY)
          .check(FaultChecks.writeCommitFailure())
          .build(),
      Scenario.builder("task-write-failure", RootCauseKind.WRITE_COMMIT_FAILURE, "task-write-failure")
          .description("A JSON write through an output committer whose task commit throws on"
              + " every attempt (local[1,2]): partition 0 fails twice with Spark's task write"
              + " error, and the stage, the job and the query abort.")
          // One core: no other write task is still running when the stage aborts. A task left
          // running at the application's end gets its History Server duration from the log
          // file's modification time, which a committed fixture cannot keep.
          .master("local[1,2]")
          .conf("spark.sql.sources.outputCommitterClass",
              "io.sparkrca.testkit.scenarios.FailingTaskCommitter")
          .formats(PLAIN, ROLLING_ZSTD)
          .check(FaultChecks.taskWriteFailure(2))
          .build(),
      Scenario.builder("data-amplification", RootCauseKind.HEALTHY, "explode")
          .description("200,000 rows, each exploded into 10 between two shuffles: a stage writes"
              + " 10x the records it read. Healthy; the growth is a metric insight.")
          .param("rows", 200_000)
          .param("fan", 10)
          .formats(ZSTD, PLAIN)
          .check(FaultChecks.amplification(5.0, 1_000_000))
          .build(),
      Scenario.builder("slow-shuffle-write", RootCauseKind.HEALTHY, "many-file-shuffle")
          .description("Two executors (local-cluster) shuffle 48,000 small pairs from 24 map tasks"
              + " into 200 reducers with spark.shuffle.sync=true: every map task forces 200 files"
              + " to disk, and the map stage spends most of its run time writing shuffle files."
              + " Healthy; the write time is a metric insight.")
          .master("local-cluster[2,1,1024]")
          .conf("spark.executor.memory", "512m")
          .conf("spark.shuffle.sync", true)
          .formats(ROLLING_ZSTD, ZSTD)
          .check(FaultChecks.shuffleWriteShare(0.3, 1_000))
          .build(),
      Scenario.builder("healthy", RootCauseKind.HEALTHY, "aggregate")
          .description("A 2-million-row aggregation with 8 shuffle partitions and AQE: the"
              + " baseline of the two twins below.")
          .param("rows", 2_000_000)
          .conf("spark.sql.shuffle.partitions", 8)
          .formats(PLAIN, ROLLING_ZSTD)
          .check(FaultChecks.healthy())
          .build(),
      Scenario.builder("config-regression", RootCauseKind.CONFIG_REGRESSION, "aggregate")
          .description("The healthy job on the same input with spark.sql.shuffle.partitions=1000"
              + " and AQE off: many more tasks, slower.")
          .param("rows", 2_000_000)
          .conf("spark.sql.shuffle.partitions", 1000)
          .conf("spark.sql.adaptive.enabled", false)
          .formats(ZSTD, ROLLING_ZSTD)
          .baseline("healthy")
          .check(FaultChecks.configRegression(1.2))
          .build(),
      Scenario.builder("input-growth", RootCauseKind.NO_REGRESSION_INPUT_GROWTH, "aggregate")
          .description("The healthy job with the same settings on four times the input: slower"
              + " only because there is more data.")
          .param("rows", 8_000_000)
          .conf("spark.sql.shuffle.partitions", 8)
          .formats(PLAIN, ROLLING_ZSTD)
          .baseline("healthy")
          .check(FaultChecks.inputGrowth(2.0))
          .build());

  /** All scenarios in generation order. */
  public static List<Scenario> all() {
    return ALL;
  }

  /** The scenario with this name. */
  public static Scenario byName(String name) {
    return ALL.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new NoSuchElementException("no scenario " + name));
  }
}
