package io.sparkrca.testkit.scenarios;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.HashPartitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The workloads a scenario can run. Each one is a small, ordinary Spark job; where a fault is
 * injected, the Javadoc says how, and everything else (retries, aborts, spills, executor loss,
 * re-runs) is Spark's own reaction.
 */
public enum Workload {
  /** Parses numbers; one record in partition 2 is not a number, so every attempt fails alike. */
  BAD_RECORD {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 4000; i++) {
        lines.add("order-" + i + "," + (i % 97));
      }
      // 4000 lines in 4 slices: index 2500 lands in partition 2.
      lines.set(2500, "order-2500,12x");
      long total =
          jsc(spark).parallelize(lines, 4).map(l -> Long.parseLong(l.split(",")[1])).reduce(Long::sum);
      System.out.println("total=" + total);
    }
  },

  /** Partition 1 throws an IOException on its first attempt only; the retry succeeds. */
  FLAKY_TASK {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      long n =
          jsc(spark)
              .parallelize(range(4000), 4)
              .mapPartitionsWithIndex(
                  (idx, it) -> {
                    Thread.sleep(300);
                    if (idx == 1 && TaskContext.get().attemptNumber() == 0) {
                      throw new IOException(
                          "Injected transient fault: connection reset while reading partition 1"
                              + " (first attempt only)");
                    }
                    return it;
                  },
                  false)
              .count();
      System.out.println("count=" + n);
    }
  },

  /**
   * Joins two tables where key 0 holds half of the left rows and 30 right rows, with broadcast
   * and AQE skew handling off (set by the scenario), so one reduce task does nearly all the work.
   */
  SKEW_JOIN {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      long hotLeft = num(p, "hotLeft", 100_000);
      long hotRight = num(p, "hotRight", 30);
      Dataset<Row> left =
          spark
              .range(0, 2 * hotLeft, 1, 4)
              .selectExpr("CASE WHEN id < " + hotLeft + " THEN 0 ELSE id % 1000 END AS k", "id AS v");
      Dataset<Row> right =
          spark
              .range(0, hotRight + 999, 1, 2)
              .selectExpr(
                  "CASE WHEN id < " + hotRight + " THEN 0 ELSE id - " + (hotRight - 1) + " END AS k",
                  "id AS w");
      Row r =
          left.join(right, "k")
              .selectExpr("sum(hash(sha2(cast(v * w AS string), 256))) AS h", "count(*) AS n")
              .collectAsList()
              .get(0);
      System.out.println("joined rows=" + r.get(1));
    }
  },

  /** Sorts more data than the little execution memory the scenario grants, so the sort spills. */
  SPILL {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, num(p, "rows", 1_500_000), 1, 4)
          .selectExpr("id % 1000 AS k", "sha2(cast(id AS string), 256) AS payload")
          .repartition(2)
          .sortWithinPartitions("payload")
          .write()
          .format("noop")
          .mode("overwrite")
          .save();
    }
  },

  /** Splits a trivial computation into thousands of partitions. */
  TOO_MANY_TASKS {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      int tasks = (int) num(p, "tasks", 3000);
      long n = jsc(spark).parallelize(range(tasks * 5), tasks).map(x -> x * 2).count();
      System.out.println("count=" + n);
    }
  },

  /** Hashes a few million rows in a single partition while the other cores idle. */
  UNDERPARTITIONED {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      Row r =
          spark
              .range(0, num(p, "rows", 3_000_000), 1, 1)
              .selectExpr("sum(hash(sha2(cast(id AS string), 256))) AS h")
              .collectAsList()
              .get(0);
      System.out.println("h=" + r.get(0));
    }
  },

  /**
   * Buffers a whole partition in memory to sort it, in chunks of a million primitive longs (8 MiB
   * each): far more than the executor heap. The allocation that fails is the task's next chunk,
   * while Spark's own threads still find room for their small objects, so the error lands in the
   * task and the task reports it.
   */
  EXECUTOR_OOM {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      waitForExecutors(spark, 1);
      int chunk = (int) num(p, "chunkLongs", 1 << 20);
      List<Long> sizes =
          spark
              .range(0, num(p, "rows", 100_000_000), 1, 1)
              .javaRDD()
              .mapPartitions(
                  it -> {
                    List<long[]> chunks = new ArrayList<>();
                    long[] current = new long[chunk];
                    int used = 0;
                    long n = 0;
                    while (it.hasNext()) {
                      if (used == chunk) {
                        chunks.add(current);
                        current = new long[chunk];
                        used = 0;
                      }
                      current[used++] = it.next();
                      n++;
                    }
                    chunks.add(Arrays.copyOf(current, used));
                    long[] all = new long[(int) n];
                    int at = 0;
                    for (long[] c : chunks) {
                      System.arraycopy(c, 0, all, at, c.length);
                      at += c.length;
                    }
                    Arrays.sort(all);
                    return List.of((long) all.length).iterator();
                  })
              .collect();
      System.out.println("sizes=" + sizes);
    }
  },

  /**
   * A two-stage job on two executors. When the reduce stage starts, the task of partition 1 sends
   * SIGKILL to its own executor JVM (exit status 137, as the kernel's OOM killer would), once;
   * partition 0, on the other executor, is still fetching the killed executor's map output.
   */
  EXECUTOR_KILLED {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws IOException {
      waitForExecutors(spark, 2);
      Path marker = scratch.resolve("executor-killed");
      String markerPath = marker.toString();
      long n =
          jsc(spark)
              .parallelize(range(8 * 400), 8)
              .mapPartitionsToPair(
                  it -> {
                    // Slow map tasks so that both executors get some and hold shuffle output.
                    Thread.sleep(500);
                    List<Tuple2<Integer, String>> out = new ArrayList<>();
                    it.forEachRemaining(x -> out.add(new Tuple2<>(x % 2, "record-" + x + "-" + "x".repeat(150))));
                    return out.iterator();
                  })
              .partitionBy(new HashPartitioner(2))
              .mapPartitionsWithIndex(
                  (idx, it) -> killOrConsume(idx, it, Path.of(markerPath)), false)
              .count();
      System.out.println("count=" + n + " killed=" + Files.exists(marker));
    }
  },

  /**
   * A single-stage job (no shuffle) on two executors. The task of partition 1 sends SIGTERM to its
   * own executor JVM once (the marker file makes its retry normal): the JVM runs its shutdown hooks
   * and exits with 143, the way a node drain, a preemption or an operator's {@code kill} stops
   * it. The lost task is retried on another executor and the job succeeds.
   */
  EXECUTOR_SIGTERM {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      waitForExecutors(spark, 2);
      Path marker = scratch.resolve("executor-terminated");
      String markerPath = marker.toString();
      long n =
          jsc(spark)
              .parallelize(range(4 * 500), 4)
              .mapPartitionsWithIndex(
                  (idx, it) -> terminateOrCount(idx, it, Path.of(markerPath)), false)
              .reduce(Long::sum);
      System.out.println("count=" + n + " terminated=" + Files.exists(marker));
    }
  },

  /**
   * The driver validates its own configuration after creating the SparkSession and gives up
   * before any job: an ordinary IllegalStateException from application code, about a setting the
   * application itself expects ({@code spark.sparkrca.region}, never set).
   */
  DRIVER_CONFIG_VALIDATION {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      String key = p.getOrDefault("setting", "spark.sparkrca.region");
      System.out.println("Validating job configuration (" + key + ")");
      if (spark.conf().getOption(key).isEmpty()) {
        throw new IllegalStateException("config validation failed: expected 'region' to be set");
      }
      System.out.println("region=" + spark.conf().get(key));
    }
  },

  /**
   * A two-stage job in local mode (tasks run inside the driver JVM). When the reduce stage runs,
   * the task of partition 0 sends SIGKILL to the JVM it runs in, the driver itself, as the kernel
   * or a node failure would: no shutdown hook, no application end, and the event log stays
   * {@code .inprogress} with whatever Spark had flushed.
   */
  DRIVER_KILLED {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      long n =
          jsc(spark)
              .parallelize(range(4 * 500), 4)
              .mapPartitionsToPair(
                  it -> {
                    Thread.sleep(300);
                    List<Tuple2<Integer, String>> out = new ArrayList<>();
                    it.forEachRemaining(x -> out.add(new Tuple2<>(x % 4, "event-" + x)));
                    return out.iterator();
                  })
              .partitionBy(new HashPartitioner(4))
              .mapPartitionsWithIndex(Workload::killDriverOrCount, false)
              .reduce(Long::sum);
      System.out.println("count=" + n);
    }
  },

  /** Reads an input path that does not exist, before any job has run. */
  DRIVER_FAILS_EARLY {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      String input = scratch.resolve("warehouse/orders/date=2024-01-01").toString();
      System.out.println("Loading orders from " + input);
      Dataset<Row> orders = spark.read().parquet(input);
      orders.groupBy("store_id").count().show();
    }
  },

  /** Builds a large in-memory index of boxed objects per task in a tight heap. */
  GC_PRESSURE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      List<Long> sizes =
          spark
              .range(0, num(p, "rows", 6_000_000), 1, 4)
              .javaRDD()
              .mapPartitions(
                  it -> {
                    Map<Long, String> index = new HashMap<>();
                    it.forEachRemaining(v -> index.put(v, "value-" + v));
                    return List.of((long) index.size()).iterator();
                  })
              .collect();
      System.out.println("sizes=" + sizes);
    }
  },

  /**
   * Joins two million orders with 50 stores while automatic broadcast is switched off (by the
   * scenario), after two other queries, so the log holds several SQL executions.
   */
  SORT_MERGE_JOIN {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, num(p, "rows", 2_000_000), 1, 4)
          .selectExpr("id AS order_id", "id % 50 AS store_id", "id % 1000 AS amount")
          .createOrReplaceTempView("orders");
      spark
          .range(0, 50, 1, 1)
          .selectExpr("id AS store_id", "concat('store-', id) AS store_name")
          .createOrReplaceTempView("stores");
      System.out.println("orders=" + spark.sql("SELECT count(*) FROM orders").first());
      System.out.println("stores=" + spark.sql("SELECT count(*) FROM stores").first());
      List<Row> revenue =
          spark
              .sql(
                  "SELECT s.store_name, sum(o.amount) AS revenue FROM orders o"
                      + " JOIN stores s ON o.store_id = s.store_id GROUP BY s.store_name")
              .collectAsList();
      System.out.println("stores with revenue=" + revenue.size());
    }
  },

  /** Writes JSON through an output committer whose job commit fails (see FailingJobCommitter). */
  WRITE_COMMIT_FAILURE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, 100_000, 1, 4)
          .selectExpr("id", "id % 7 AS bucket")
          .write()
          .mode("overwrite")
          .json(scratch.resolve("output/daily").toString());
    }
  },

  /**
   * Explodes every row into {@code fan} rows between two shuffles: the middle stage reads the
   * rows of the first shuffle and writes {@code fan} times as many records to the second. Nothing
   * fails; the data grows on purpose, as a join or an explode that multiplies rows does.
   */
  EXPLODE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      Row r =
          spark
              .range(0, num(p, "rows", 200_000), 1, 4)
              .repartition(4)
              .selectExpr("id", "explode(sequence(1, " + num(p, "fan", 10) + ")) AS k")
              .repartition(4)
              .selectExpr("count(*) AS n", "sum(id * k) AS s")
              .collectAsList()
              .get(0);
      System.out.println("exploded rows=" + r.get(0));
    }
  },

  /**
   * Moves small pairs into {@code partitions} reducers with no map-side combine, so each map task
   * writes one file per reducer (Spark's bypass-merge writer, up to 200 reducers); run with {@code
   * spark.shuffle.sync=true}, every one of those files is forced to disk on commit, and the map
   * tasks spend most of their time in shuffle writes, as on slow local disks.
   */
  MANY_FILE_SHUFFLE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      int maps = (int) num(p, "maps", 24);
      int reducers = (int) num(p, "partitions", 200);
      long pairs =
          jsc(spark)
              .parallelize(range((int) num(p, "rows", 48_000)), maps)
              .mapToPair(i -> new Tuple2<>(i, (long) i * 31))
              .partitionBy(new HashPartitioner(reducers))
              .count();
      System.out.println("shuffled pairs=" + pairs);
    }
  },

  /** A plain aggregation; the healthy baseline and its two twins differ only in settings/input. */
  AGGREGATE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, num(p, "rows", 2_000_000), 1, 4)
          // Hashing gives every row real work, so job time tracks the input size.
          .selectExpr("substr(sha2(cast(id AS string), 256), 1, 3) AS customer", "id % 113 AS amount")
          .groupBy("customer")
          .agg(
              org.apache.spark.sql.functions.sum("amount"),
              org.apache.spark.sql.functions.count("*"))
          .write()
          .format("noop")
          .mode("overwrite")
          .save();
    }
  },

  /**
   * Collects rows whose wide text column compresses to almost nothing: the task results are small
   * on the wire, but the driver decodes them into rows of their full size in its main thread
   * (SparkPlan.executeCollect) and runs out of heap there, after the job has succeeded.
   */
  DRIVER_OOM_COLLECT {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      long rows = num(p, "rows", 400);
      long repeats = num(p, "repeats", 140_000);
      List<Row> orders =
          spark
              .range(0, rows, 1, 2)
              .selectExpr(
                  "id AS order_id",
                  // Not a constant, so the optimizer cannot fold a 2 MiB literal into the plan.
                  "concat('order-', id, ': ', repeat(CASE WHEN id % 2 = 0 THEN 'status=SHIPPED;'"
                      + " ELSE 'status=PACKED;;' END, " + repeats + ")) AS history")
              .collectAsList();
      System.out.println("collected rows=" + orders.size());
    }
  },

  /**
   * Reads with a data source whose package is not on the class path (Delta Lake: the application
   * was started without its {@code --packages}); the input directory itself exists.
   */
  MISSING_DEPENDENCY {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws IOException {
      Path table = Files.createDirectories(scratch.resolve("lake/events"));
      System.out.println("Loading events from " + table);
      Dataset<Row> events = spark.read().format(p.getOrDefault("format", "delta")).load(table.toString());
      events.groupBy("type").count().show();
    }
  },

  /**
   * An RDD closure captures a plain driver-side object that is not Serializable (a lookup
   * directory), so Spark refuses the closure before any job runs.
   */
  TASK_NOT_SERIALIZABLE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      StoreDirectory stores = new StoreDirectory(50);
      long n =
          jsc(spark)
              .parallelize(range(10_000), 4)
              .map(i -> stores.nameOf(i % 50))
              .filter(name -> name.endsWith("7"))
              .count();
      System.out.println("orders in stores ending in 7=" + n);
    }
  },

  /**
   * Writes JSON through an output committer whose task commit fails on every attempt (see
   * FailingTaskCommitter): the write tasks fail, the stage and the job abort.
   */
  TASK_WRITE_FAILURE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, 100_000, 1, 4)
          .selectExpr("id", "id % 7 AS bucket")
          .write()
          .mode("overwrite")
          .json(scratch.resolve("output/events").toString());
    }
  },

  /**
   * A task keeps every record in an off-heap buffer cache of 1 MiB direct ByteBuffers, more than
   * the executor's -XX:MaxDirectMemorySize (set by the scenario) allows.
   */
  DIRECT_MEMORY_OOM {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      waitForExecutors(spark, 1);
      int block = (int) num(p, "blockBytes", 1 << 20);
      List<Integer> sizes =
          spark
              .range(0, num(p, "rows", 400_000), 1, 1)
              .javaRDD()
              .mapPartitions(
                  it -> {
                    List<ByteBuffer> blocks = new ArrayList<>();
                    ByteBuffer current = ByteBuffer.allocateDirect(block);
                    while (it.hasNext()) {
                      byte[] rec = ("record-" + it.next() + ";" + "x".repeat(200) + "\n")
                          .getBytes(StandardCharsets.UTF_8);
                      if (current.remaining() < rec.length) {
                        blocks.add(current);
                        current = ByteBuffer.allocateDirect(block);
                      }
                      current.put(rec);
                    }
                    blocks.add(current);
                    return List.of(blocks.size()).iterator();
                  })
              .collect();
      System.out.println("cached blocks=" + sizes);
    }
  },

  /**
   * A task remembers a small object for every record it reads while each record's parsing makes
   * short-lived garbage: the live set creeps up to the whole heap and, with the parallel
   * collector (set by the scenario), the JVM ends in back-to-back full collections that free
   * almost nothing. Gives up after {@code maxSeconds} so it cannot spin forever.
   */
  GC_OVERHEAD {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      waitForExecutors(spark, 1);
      long maxNanos = num(p, "maxSeconds", 150) * 1_000_000_000L;
      int width = (int) num(p, "fields", 128);
      List<Long> seen =
          spark
              .range(0, num(p, "rows", 1_000_000_000L), 1, 1)
              .javaRDD()
              .mapPartitions(
                  it -> {
                    long start = System.nanoTime();
                    Seen head = null;
                    long n = 0;
                    while (it.hasNext()) {
                      long v = it.next();
                      head = new Seen(parse(v, width), head);
                      n++;
                      if ((n & 0xFFF) == 0 && System.nanoTime() - start > maxNanos) {
                        break;
                      }
                    }
                    return List.of(n).iterator();
                  })
              .collect();
      System.out.println("records remembered=" + seen);
    }
  },

  /**
   * Four short jobs, each followed by seconds of single-threaded work on the collected result in
   * the driver's main thread (expanding, sorting and hashing keys for a report), so the cluster
   * idles most of the time.
   */
  DRIVER_BOTTLENECK {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      int rounds = (int) num(p, "rounds", 4);
      long batch = num(p, "batchRows", 50_000);
      int fanOut = (int) num(p, "fanOut", 20);
      long digest = 0;
      for (int r = 0; r < rounds; r++) {
        List<Row> keys =
            spark
                .range(r * batch, (r + 1) * batch, 1, 2)
                .selectExpr("substr(sha2(cast(id AS string), 256), 1, 16) AS key")
                .collectAsList();
        digest ^= postProcessOnDriver(keys, fanOut);
        System.out.println("round " + r + ": " + keys.size() + " keys, digest " + digest);
      }
    }
  },

  /**
   * Collects a result larger than {@code spark.driver.maxResultSize} (set low by the scenario):
   * rows of hex digests, which compress poorly, so the serialized task results add up to several
   * MiB and the driver aborts the job before it has fetched them all.
   */
  RESULT_TOO_LARGE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      List<Row> rows =
          spark
              .range(0, num(p, "rows", 20_000), 1, (int) num(p, "partitions", 8))
              .selectExpr("id", "sha2(cast(id AS string), 512) AS digest")
              .collectAsList();
      System.out.println("collected rows=" + rows.size());
    }
  },

  /**
   * Joins a fact table with a small dimension whose rows come from a slow lookup (a UDF that
   * sleeps), hinted to be broadcast: building the broadcast side takes longer than {@code
   * spark.sql.broadcastTimeout} (set low by the scenario), so the query fails.
   */
  BROADCAST_TIMEOUT {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws Exception {
      long sleepMs = num(p, "lookupSleepMs", 60_000);
      spark.udf().register("slow_lookup", (org.apache.spark.sql.api.java.UDF1<Long, String>) id -> {
        // A remote lookup that hangs; interrupted when Spark cancels the broadcast job.
        Thread.sleep(sleepMs);
        return "region-" + id;
      }, org.apache.spark.sql.types.DataTypes.StringType);
      Dataset<Row> facts = spark.range(0, 100_000, 1, 4).selectExpr("id AS order_id", "id % 8 AS region_id");
      Dataset<Row> regions = spark.range(0, 8, 1, 1).selectExpr("id AS region_id", "slow_lookup(id) AS region");
      try {
        List<Row> perRegion = facts.join(org.apache.spark.sql.functions.broadcast(regions), "region_id")
            .groupBy("region").count().collectAsList();
        System.out.println("regions=" + perRegion.size());
      } catch (Exception e) {
        // (Scala throws the checked SparkException undeclared.) The cancelled lookup task ends
        // once its sleep is interrupted; wait for that end to reach the event log, so no task is
        // left running when the application stops.
        awaitNoRunningTasks(spark, 60_000);
        throw e;
      }
    }
  },

  /**
   * Runs a job over a table, then a SQL query naming a column the table does not have
   * ({@code amount_usd} where the column is {@code amount}): the query fails analysis in the
   * driver, before any job of its own.
   */
  ANALYSIS_ERROR {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      spark
          .range(0, 10_000, 1, 2)
          .selectExpr("id AS order_id", "id % 50 AS store_id", "id % 1000 AS amount")
          .createOrReplaceTempView("orders");
      System.out.println("orders=" + spark.sql("SELECT count(*) FROM orders").first());
      spark.sql("SELECT store_id, sum(amount_usd) AS revenue FROM orders GROUP BY store_id").show();
    }
  },

  /**
   * Casts a text column to INT under ANSI mode (the default on Spark 4): one value in partition 2
   * is {@code abc}, so that task fails with CAST_INVALID_INPUT on every attempt and the job aborts.
   */
  ANSI_CAST_ERROR {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      Row r =
          spark
              .range(0, 4000, 1, 4)
              // Not a literal, so the optimizer cannot fold the bad cast into the plan.
              .selectExpr("CASE WHEN id = 2500 THEN 'abc' ELSE cast(id % 97 AS STRING) END AS qty")
              .selectExpr("sum(CAST(qty AS INT)) AS total")
              .collectAsList()
              .get(0);
      System.out.println("total=" + r.get(0));
    }
  },

  /**
   * Writes one Parquet directory in two batches whose {@code amount} column differs in type
   * (string, then int), then reads it with an explicit schema of INT: the task reading the string
   * file cannot convert its column, on every attempt.
   */
  PARQUET_SCHEMA_MISMATCH {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      String dir = scratch.resolve("warehouse/payments").toString();
      spark.range(0, 1000, 1, 1).selectExpr("id", "cast(id % 100 AS STRING) AS amount")
          .write().mode("overwrite").parquet(dir);
      spark.range(1000, 2000, 1, 1).selectExpr("id", "cast(id % 100 AS INT) AS amount")
          .write().mode("append").parquet(dir);
      Row r =
          spark.read().schema("id BIGINT, amount INT").parquet(dir)
              .selectExpr("sum(amount) AS total")
              .collectAsList()
              .get(0);
      System.out.println("total=" + r.get(0));
    }
  },

  /**
   * A wide shuffle on executors started with a low open-files limit (set by the scenario): every
   * map task writes one file per reducer at once (Spark's bypass-merge writer, whose threshold the
   * scenario raises above the reducer count), more files than the executor may open.
   */
  WIDE_SHUFFLE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) {
      waitForExecutors(spark, 1);
      int reducers = (int) num(p, "partitions", 2000);
      long pairs =
          jsc(spark)
              .parallelize(range((int) num(p, "rows", 40_000)), (int) num(p, "maps", 4))
              .mapToPair(i -> new Tuple2<>(i, (long) i * 31))
              .partitionBy(new HashPartitioner(reducers))
              .count();
      System.out.println("shuffled pairs=" + pairs);
    }
  },

  /**
   * Submits a job on a cluster that can never run it: the scenario asks for executors larger than
   * the only worker. The job waits with no executor while Spark warns that it has not accepted
   * any resources; after {@code waitSeconds} the application gives up, cancels the job and fails.
   */
  EXECUTORS_NOT_GRANTED {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws Exception {
      long waitMs = num(p, "waitSeconds", 35) * 1000;
      org.apache.spark.api.java.JavaFutureAction<Long> job =
          jsc(spark).parallelize(range(4000), 4).map(x -> x * 2).countAsync();
      long deadline = System.currentTimeMillis() + waitMs;
      while (!job.isDone() && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      if (job.isDone()) {
        System.out.println("count=" + job.get());
        return;
      }
      job.cancel(true);
      throw new IllegalStateException("no executor was granted within " + waitMs / 1000
          + " s; gave up waiting for the job to start");
    }
  },

  /**
   * The application's code was built against version 2.0 of a pricing library that has {@code
   * Money.format(long, String)}, but the cluster supplies version 1.0, which only has {@code
   * Money.format(long)}; both jars are added with {@code addJar} (as {@code --jars} does). The
   * task that formats invoice lines fails with {@code NoSuchMethodError} on every attempt. The
   * two library versions and the application class are compiled here with the JDK's compiler.
   */
  DEPENDENCY_CONFLICT {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws Exception {
      Path lib1 = LibraryJars.build(scratch.resolve("build/lib-1.0"), Map.of("com/acme/pricing/Money.java",
          "package com.acme.pricing;\npublic final class Money {\n  private Money() {}\n"
              + "  public static String format(long cents) { return (cents / 100) + \".\" + (cents % 100); }\n}\n"),
          List.of(), scratch.resolve("jars/acme-pricing-1.0.jar"));
      Path lib2 = LibraryJars.build(scratch.resolve("build/lib-2.0"), Map.of("com/acme/pricing/Money.java",
          "package com.acme.pricing;\npublic final class Money {\n  private Money() {}\n"
              + "  public static String format(long cents) { return format(cents, \"USD\"); }\n"
              + "  public static String format(long cents, String currency) {\n"
              + "    return (cents / 100) + \".\" + (cents % 100) + \" \" + currency; }\n}\n"),
          List.of(), scratch.resolve("build/acme-pricing-2.0.jar"));
      Path app = LibraryJars.build(scratch.resolve("build/app"), Map.of("com/acme/billing/InvoiceLine.java",
          "package com.acme.billing;\n"
              + "public final class InvoiceLine implements java.util.function.LongFunction<String> {\n"
              + "  public String apply(long cents) { return \"line \" + com.acme.pricing.Money.format(cents, \"EUR\"); }\n}\n"),
          List.of(lib2), scratch.resolve("jars/billing-app.jar"));
      // The cluster's library first, as a class path with both would resolve it.
      spark.sparkContext().addJar(lib1.toString());
      spark.sparkContext().addJar(app.toString());
      long n =
          jsc(spark)
              .parallelize(range(4000), 4)
              .map(Workload::invoiceLine)
              .filter(s -> s.endsWith("EUR"))
              .count();
      System.out.println("invoice lines=" + n);
    }
  },

  /**
   * A streaming count by key over a JSON directory, checkpointed; then the application is
   * changed to keep a sum as well and restarted on the same checkpoint, whose state has the old
   * schema: the restarted query fails with Spark's state-schema incompatibility error.
   */
  STREAMING_STATE_CHANGE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws Exception {
      Path input = Files.createDirectories(scratch.resolve("events"));
      String checkpoint = scratch.resolve("checkpoints/clicks-by-page").toString();
      org.apache.spark.sql.types.StructType schema =
          org.apache.spark.sql.types.StructType.fromDDL("page STRING, ms BIGINT");
      writeEvents(input.resolve("batch-0.json"), 0);
      Dataset<Row> events = spark.readStream().schema(schema).json(input.toString());
      org.apache.spark.sql.streaming.StreamingQuery v1 =
          events.groupBy("page").count()
              .writeStream().format("noop").outputMode("update")
              .option("checkpointLocation", checkpoint).queryName("clicks_by_page")
              .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow())
              .start();
      v1.awaitTermination();
      System.out.println("version 1 finished: " + v1.lastProgress().batchId());
      // The new version of the application keeps the total time per page as well.
      writeEvents(input.resolve("batch-1.json"), 1);
      org.apache.spark.sql.streaming.StreamingQuery v2 =
          events.groupBy("page")
              .agg(org.apache.spark.sql.functions.count("*").alias("count"),
                  org.apache.spark.sql.functions.sum("ms").alias("total_ms"))
              .writeStream().format("noop").outputMode("update")
              .option("checkpointLocation", checkpoint).queryName("clicks_by_page")
              .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow())
              .start();
      v2.awaitTermination();
      System.out.println("version 2 finished");
    }
  },

  /**
   * A running application for the live driver UI: a SQL aggregation (two stages and a SQL
   * execution), a job whose partition 1 fails its first attempt (a failed task, retried), and a
   * job that fails (one record of partition 2 is not a number, every attempt alike, the stage and
   * job abort; caught, so the application goes on). Then it pauses: it writes its UI's URL into
   * {@code ready} (atomically, once no task runs and every task's end is in the event log) and waits, at most
   * {@code pauseSeconds}, until the file {@code release} exists, so a test can read the UI of a
   * running application and then let it finish.
   */
  LIVE_PAUSE {
    @Override
    void run(SparkSession spark, Path scratch, Map<String, String> p) throws Exception {
      long groups = spark.range(0, 100_000, 1, 4).selectExpr("id % 10 AS k").groupBy("k").count().collectAsList().size();
      System.out.println("groups=" + groups);
      long n =
          jsc(spark)
              .parallelize(range(4000), 4)
              .mapPartitionsWithIndex(
                  (idx, it) -> {
                    if (idx == 1 && TaskContext.get().attemptNumber() == 0) {
                      throw new IOException("Injected transient fault in partition 1 (first attempt only)");
                    }
                    return it;
                  },
                  false)
              .count();
      System.out.println("count=" + n);
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < 4000; i++) {
        lines.add("order-" + i + "," + (i % 97));
      }
      lines.set(2500, "order-2500,12x");
      try {
        jsc(spark).parallelize(lines, 4).map(l -> Long.parseLong(l.split(",")[1])).reduce(Long::sum);
        throw new IllegalStateException("the job over a bad record did not fail");
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Exception expected) {
        // Scala throws the checked SparkException without declaring it: the job aborted, as meant.
        if (!(expected instanceof org.apache.spark.SparkException)) {
          throw expected;
        }
        System.out.println("failed job: " + expected.getMessage().lines().findFirst().orElse(""));
      }
      // Tasks of the aborted stage still running when its job failed end after the job's end, and
      // Spark does not flush the event log on a task's end (it does on a stage's or a job's): wait
      // until no task runs, then run one small job whose end flushes those task ends to the log.
      long idleBy = System.nanoTime() + 60_000_000_000L;
      while (System.nanoTime() < idleBy && running(spark) > 0) {
        Thread.sleep(20);
      }
      System.out.println("flush=" + jsc(spark).parallelize(List.of(1), 1).count());
      // Every event so far handled by every listener: the UI's store has the jobs' ends, and the
      // event log has them written and flushed.
      spark.sparkContext().listenerBus().waitUntilEmpty();
      Path ready = Path.of(p.get("ready"));
      Path release = Path.of(p.get("release"));
      String url = spark.sparkContext().uiWebUrl().get();
      Path tmp = ready.resolveSibling(ready.getFileName() + ".tmp");
      Files.writeString(tmp, url, StandardCharsets.UTF_8);
      Files.move(tmp, ready, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      System.out.println("PAUSED ui=" + url);
      long deadline = System.nanoTime() + num(p, "pauseSeconds", 120) * 1_000_000_000L;
      while (!Files.exists(release)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("not released within " + num(p, "pauseSeconds", 120) + " s");
        }
        Thread.sleep(100);
      }
      System.out.println("RELEASED");
    }
  };

  abstract void run(SparkSession spark, Path scratch, Map<String, String> params)
      throws Exception;

  /** Waits, at most {@code maxMs}, until no stage is active and no task runs. */
  static void awaitNoRunningTasks(SparkSession spark, long maxMs) throws Exception {
    long deadline = System.nanoTime() + maxMs * 1_000_000L;
    while (System.nanoTime() < deadline && running(spark) > 0) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    spark.sparkContext().listenerBus().waitUntilEmpty();
  }

  /** Active stages plus the tasks the executors say they are running. */
  private static int running(SparkSession spark) {
    int n = spark.sparkContext().statusTracker().getActiveStageIds().length;
    for (org.apache.spark.SparkExecutorInfo e : spark.sparkContext().statusTracker().getExecutorInfos()) {
      n += e.numRunningTasks();
    }
    return n;
  }

  /** The workload named like {@code bad-record} or {@code BAD_RECORD}. */
  static Workload byName(String name) {
    return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  static JavaSparkContext jsc(SparkSession spark) {
    return JavaSparkContext.fromSparkContext(spark.sparkContext());
  }

  static long num(Map<String, String> params, String key, long fallback) {
    String v = params.get(key);
    return v == null ? fallback : Long.parseLong(v);
  }

  static List<Integer> range(int n) {
    List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  /**
   * Waits until {@code n} executors have registered, so that tasks spread over real executor JVMs
   * instead of all landing on the first one to come up.
   */
  static void waitForExecutors(SparkSession spark, int n) {
    long deadline = System.nanoTime() + 120_000_000_000L;
    // getExecutorMemoryStatus also counts the driver's block manager.
    while (spark.sparkContext().getExecutorMemoryStatus().size() < n + 1) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("executors did not register in time");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /** A plain driver-side lookup object: deliberately not Serializable. */
  static final class StoreDirectory {
    private final Map<Integer, String> names = new HashMap<>();

    StoreDirectory(int stores) {
      for (int i = 0; i < stores; i++) {
        names.put(i, "store-" + i);
      }
    }

    String nameOf(int id) {
      return names.get(id);
    }
  }

  /** What {@link #GC_OVERHEAD} remembers of each record: a few parsed fields. */
  static final class Seen {
    final long[] fields;
    final Seen previous;

    Seen(long[] fields, Seen previous) {
      this.fields = fields;
      this.previous = previous;
    }
  }

  /**
   * Parses one record of {@link #GC_OVERHEAD} into {@code width} fields; the two intermediate
   * arrays are garbage at once.
   */
  static long[] parse(long v, int width) {
    long[] scratch1 = new long[width];
    long[] scratch2 = new long[width];
    for (int i = 0; i < width; i++) {
      scratch1[i] = v * 31 + i;
      scratch2[i] = scratch1[i] ^ (v >>> (i & 63));
    }
    long[] fields = new long[width];
    System.arraycopy(scratch2, 0, fields, 0, width);
    return fields;
  }

  /**
   * The driver-side step of {@link #DRIVER_BOTTLENECK}: derives {@code fanOut} report keys per
   * collected key, sorts and de-duplicates them and hashes the result, all in the calling thread.
   */
  static long postProcessOnDriver(List<Row> keys, int fanOut) {
    List<String> report = new ArrayList<>(keys.size() * fanOut);
    for (Row k : keys) {
      String key = k.getString(0);
      for (int i = 0; i < fanOut; i++) {
        report.add(key.substring(i % 8) + "/" + i + "/" + key.substring(0, i % 8));
      }
    }
    Collections.sort(report);
    long h = 0;
    String previous = null;
    for (String s : report) {
      if (!s.equals(previous)) {
        h = h * 1_000_003 + s.hashCode();
      }
      previous = s;
    }
    return h;
  }

  /**
   * Task of {@link #EXECUTOR_SIGTERM}. Every task works a second, so both executors get some;
   * partition 1's first attempt then SIGTERMs its own JVM once and waits for the end without
   * reporting anything, even when a shutdown hook interrupts it.
   */
  static Iterator<Long> terminateOrCount(int idx, Iterator<Integer> it, Path marker) throws Exception {
    Thread.sleep(1000);
    if (idx == 1 && !Files.exists(marker)) {
      Files.createFile(marker);
      String pid = Long.toString(ProcessHandle.current().pid());
      new ProcessBuilder("kill", "-TERM", pid).inheritIO().start().waitFor();
      waitUninterruptibly(60_000);
    }
    long c = 0;
    while (it.hasNext()) {
      it.next();
      c++;
    }
    return List.of(c).iterator();
  }

  /**
   * Reduce task of {@link #DRIVER_KILLED}: partition 0 waits two seconds (so the map stage's
   * completion has reached the event log), then SIGKILLs the JVM it runs in, the driver.
   */
  static Iterator<Long> killDriverOrCount(int idx, Iterator<Tuple2<Integer, String>> it) throws Exception {
    if (idx == 0) {
      Thread.sleep(2000);
      String pid = Long.toString(ProcessHandle.current().pid());
      new ProcessBuilder("kill", "-9", pid).inheritIO().start().waitFor();
      waitUninterruptibly(60_000);
    }
    Thread.sleep(1000);
    long c = 0;
    while (it.hasNext()) {
      it.next();
      c++;
    }
    return List.of(c).iterator();
  }

  /** Task of {@link #DEPENDENCY_CONFLICT}: formats one invoice line with the added jars' class. */
  @SuppressWarnings("unchecked")
  static String invoiceLine(Integer cents) throws Exception {
    java.util.function.LongFunction<String> line = (java.util.function.LongFunction<String>)
        Class.forName("com.acme.billing.InvoiceLine", true, Thread.currentThread().getContextClassLoader())
            .getDeclaredConstructor().newInstance();
    return line.apply(cents);
  }

  /** Writes 200 click events of batch {@code batch} of {@link #STREAMING_STATE_CHANGE}. */
  static void writeEvents(Path file, int batch) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      sb.append("{\"page\":\"/page-").append(i % 10).append("\",\"ms\":").append(batch * 1000 + i).append("}\n");
    }
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.writeString(tmp, sb.toString(), StandardCharsets.UTF_8);
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Sleeps {@code ms}, whatever interrupts come, so a dying task never returns on its own. */
  static void waitUninterruptibly(long ms) {
    long deadline = System.nanoTime() + ms * 1_000_000L;
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      try {
        Thread.sleep(Math.max(1, left / 1_000_000L));
      } catch (InterruptedException ignored) {
        // Keep waiting: the JVM is going away.
      }
    }
  }

  /**
   * Reduce side of {@link #EXECUTOR_KILLED}. Partition 1 kills its executor once (the marker file
   * makes later attempts normal). Partition 0 consumes slowly, so its fetches from the killed
   * executor are still pending when it dies; the scenario limits fetches to one block at a time.
   */
  static Iterator<Long> killOrConsume(int idx, Iterator<Tuple2<Integer, String>> it, Path marker)
      throws Exception {
    TaskContext ctx = TaskContext.get();
    boolean firstRun = ctx.stageAttemptNumber() == 0;
    if (idx == 1 && firstRun && !Files.exists(marker)) {
      Thread.sleep(2000);
      Files.createFile(marker);
      String pid = Long.toString(ProcessHandle.current().pid());
      new ProcessBuilder("kill", "-9", pid).inheritIO().start().waitFor();
      Thread.sleep(60_000);
    }
    long c = 0;
    while (it.hasNext()) {
      it.next();
      c++;
      if (idx == 0 && firstRun) {
        Thread.sleep(5);
      }
    }
    return List.of(c).iterator();
  }
}
