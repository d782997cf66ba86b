package io.sparkrca.inspector;

/**
 * The Spark anti-patterns {@link ClassInspector} recognises in bytecode and in source, each with
 * its usual remediation (a {@link Finding} may give a more specific one).
 *
 * <pre>{@code
 * for (Finding f : ClassInspector.create().inspect("job.py").findings()) {
 *   if (f.pattern() == AntiPattern.ACTION_IN_LOOP) { ... }
 * }
 * }</pre>
 */
public enum AntiPattern {
  /** {@code collect()}, {@code collectAsList()} or {@code toPandas()} on data with no bound. */
  COLLECT_UNBOUNDED(
      "collect-unbounded",
      "collect()/toPandas() pulls a whole dataset into the driver",
      "write the result out distributed (df.write.parquet(...), saveAsTable) instead of "
          + "collecting; to look at rows use take(n) or limit(n); if the driver really needs it, "
          + "raise spark.driver.memory and spark.driver.maxResultSize"),
  /** A Spark action (count, collect, show, write...) run once per iteration of a driver loop. */
  ACTION_IN_LOOP(
      "action-in-loop",
      "a Spark action runs inside a driver loop (one job per iteration)",
      "build one DataFrame for all iterations (union the inputs, or add the loop variable as a "
          + "column and groupBy it) and run a single action; if the loop must stay, cache() what "
          + "every iteration reuses"),
  /** A transformation reassigned to the same variable in a loop: the plan grows per iteration. */
  LINEAGE_IN_LOOP(
      "lineage-in-loop",
      "the query plan (lineage) grows with every loop iteration",
      "build the columns in one select(...)/withColumns(map) call, union a list once with "
          + "unionByName, or cut the lineage every few iterations with checkpoint() or "
          + "localCheckpoint()"),
  /** A row-at-a-time Python UDF (or RDD lambda) where a built-in or a pandas UDF would do. */
  ROW_WISE_PYTHON_UDF(
      "row-wise-python-udf",
      "a row-at-a-time Python UDF ships every row to a Python worker",
      "use built-in functions from pyspark.sql.functions (they run in the JVM and are "
          + "optimised); if Python is needed, use a vectorised @pandas_udf or mapInPandas"),
  /** {@code repartition(n)} used only to reduce the partition count, usually before a write. */
  REPARTITION_WHERE_COALESCE_FITS(
      "repartition-where-coalesce-fits",
      "repartition(n) shuffles everything only to reduce the number of partitions",
      "use coalesce(n), which merges partitions without a full shuffle; keep repartition for "
          + "raising the partition count or for spreading data by a column"),
  /** A driver-side collection (often a collect() result) broadcast to every executor. */
  BROADCAST_DRIVER_COLLECTION(
      "broadcast-driver-collection",
      "a driver-side collection, possibly large, is broadcast to every executor",
      "join against the DataFrame instead (with the functions.broadcast(df) hint when it is "
          + "small); a broadcast variable is held whole in the driver and in every executor"),
  /** {@code cache()}/{@code persist()} on data that is used at most once afterwards. */
  CACHE_WITHOUT_REUSE(
      "cache-without-reuse",
      "data is cached but used at most once afterwards",
      "remove cache()/persist() when the data is read once (caching then only costs memory "
          + "and time); when it is reused, call unpersist() after the last use");

  private final String id;
  private final String title;
  private final String remediation;

  AntiPattern(String id, String title, String remediation) {
    this.id = id;
    this.title = title;
    this.remediation = remediation;
  }

  /** A stable kebab-case identifier, used in JSON. */
  public String id() {
    return id;
  }

  /** One line saying what is wrong. */
  public String title() {
    return title;
  }

  /** The usual fix. */
  public String remediation() {
    return remediation;
  }
}
