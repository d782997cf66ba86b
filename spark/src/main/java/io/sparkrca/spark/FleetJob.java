package io.sparkrca.spark;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.core.io.ByteSources;
import io.sparkrca.core.redaction.Redactor;
import io.sparkrca.core.report.Report;
import io.sparkrca.fleet.FleetAnalysis;
import io.sparkrca.fleet.FleetLog;
import io.sparkrca.fleet.FleetLogs;
import io.sparkrca.fleet.FleetOptions;
import io.sparkrca.fleet.FleetRow;
import io.sparkrca.fleet.FleetSummary;
import io.sparkrca.spark.internal.HadoopConf;
import io.sparkrca.spark.internal.RowSchema;
import io.sparkrca.spark.internal.TaskPlan;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * Fleet analysis as a Spark job: lists the event logs under a Hadoop file-system URI ({@code gs://},
 * {@code s3a://}, {@code hdfs://}, {@code abfs://}, {@code file:} or a plain path), analyses each
 * on the executors exactly as {@code sparkrca scan} does ({@link FleetAnalysis}: one row per
 * application, an error row for a bad log), and writes under the output URI:
 *
 * <ul>
 *   <li>{@code rows/}: the rows as Parquet, partitioned by {@code date} (columns {@link
 *       RowSchema#ROWS}, the same as {@code scan}'s CSV);
 *   <li>{@code index/v=<millis>/}: the incremental index as a table (path, size, modification time,
 *       the row): the next run re-analyses only logs that are new or changed;
 *   <li>{@code summary.json} and {@code summary.md}: the fleet summary (kinds, worst offenders,
 *       regressions), computed on the executors and merged.
 * </ul>
 *
 * <p>The driver holds the listing and the summary, never an application's model: each task reads
 * its own logs (one large log, or a group of small ones; see {@link TaskPlan}) and returns rows.
 *
 * <pre>{@code
 * FleetJob.Result r = FleetJob.builder()
 *     .root("gs://bucket/spark-events/")
 *     .output("gs://bucket/sparkrca/fleet")
 *     .build()
 *     .run(spark);
 * System.out.println(r.rows() + " applications, " + r.errors() + " unreadable");
 * }</pre>
 *
 * <p>From the command line: {@code spark-submit --class io.sparkrca.spark.FleetJob sparkrca-spark.jar
 * ROOT OUTPUT [--reanalyze] [--skip-in-progress] [--max-depth N] [--task-bytes N] [--timeout-seconds N]}.
 */
public final class FleetJob {
  /** Default work per task: logs are grouped up to about this many bytes. */
  public static final long DEFAULT_TASK_BYTES = 64L << 20;

  /** About how many rows go into one Parquet file of the rows table (per date). */
  static final long ROWS_PER_FILE = 200_000;

  private final String root;
  private final String output;
  private final FleetOptions.Chosen options;
  private final long taskBytes;
  private final Duration timeout;

  private FleetJob(Builder b, FleetOptions.Chosen options) {
    this.root = b.root;
    this.output = b.output;
    this.options = options;
    this.taskBytes = b.taskBytes;
    this.timeout = b.timeout;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * What a run did.
   *
   * @param summary the fleet summary
   * @param rows rows written (one per log)
   * @param analysed logs analysed in this run
   * @param reused rows taken from the index (logs unchanged since the last run)
   * @param skippedInProgress logs of running applications left out
   * @param errors error rows
   * @param tasks Spark tasks the analysis ran as
   * @param rowsTable where the rows are
   * @param indexTable where the index is
   */
  public record Result(FleetSummary summary, long rows, long analysed, long reused, long skippedInProgress,
      long errors, int tasks, String rowsTable, String indexTable) implements Report {
    public Result {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(rowsTable, "rowsTable");
      Objects.requireNonNull(indexTable, "indexTable");
    }

    /** One line for the driver log. */
    public String oneLine() {
      return rows + " applications (" + analysed + " analysed in " + tasks + " tasks, " + reused
          + " unchanged since the last run, " + errors + " unreadable" + (skippedInProgress > 0
              ? ", " + skippedInProgress + " running and skipped" : "") + "); rows in " + rowsTable;
    }

    @Override
    public String toMarkdown() {
      return summary.toMarkdown();
    }

    @Override
    public String toJson() {
      return summary.toJson();
    }
  }

  /**
   * Runs the analysis on {@code spark}.
   *
   * @throws SparkRcaException when the root cannot be listed or holds no event log, or the output
   *     cannot be written
   */
  public Result run(SparkSession spark) {
    Objects.requireNonNull(spark, "spark");
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    HadoopConf conf = new HadoopConf(hadoop);
    ByteSources sources = sources(hadoop);
    FleetLogs.Listing listing = FleetLogs.discover(sources, root, options.maxDepth());
    List<FleetLog> logs = new ArrayList<>();
    long skipped = 0;
    for (FleetLog l : listing.logs()) {
      if (options.leavesOut(l)) {
        skipped++;
      } else {
        logs.add(l);
      }
    }
    String out = output.endsWith("/") ? output.substring(0, output.length() - 1) : output;
    String rowsTable = out + "/rows";
    String indexDir = out + "/index";
    Optional<String> previous = options.reanalyze() ? Optional.empty() : latestIndex(hadoop, indexDir);

    // Rows still current in the index: joined on the executors; only their paths reach the driver.
    JavaRDD<FleetRow> reusedRows = jsc.emptyRDD();
    Set<String> reusedPaths = new HashSet<>();
    if (previous.isPresent()) {
      List<Row> keys = new ArrayList<>(logs.size());
      for (FleetLog l : logs) {
        keys.add(org.apache.spark.sql.RowFactory.create(Redactor.redactUri(l.uri()), l.sizeBytes(),
            l.modifiedTime().map(java.time.Instant::toEpochMilli).orElse(null), l.inProgress()));
      }
      Dataset<Row> listed = spark.createDataFrame(keys, new org.apache.spark.sql.types.StructType()
          .add("path", "string").add("sizeBytes", "long").add("modifiedMillis", "long").add("inProgress", "boolean"));
      Dataset<Row> index = spark.read().schema(RowSchema.INDEX).parquet(previous.get());
      Dataset<Row> current = index.join(listed, scala.jdk.javaapi.CollectionConverters.asScala(
          List.of("path", "sizeBytes", "modifiedMillis", "inProgress")).toSeq(), "left_semi");
      current = current.persist(StorageLevel.MEMORY_AND_DISK());
      for (Row r : current.select("path").collectAsList()) {
        reusedPaths.add(r.getString(0));
      }
      reusedRows = current.select("row").toJavaRDD().map(r -> FleetRow.fromJson(r.getString(0)));
    }
    List<FleetLog> todo = new ArrayList<>();
    for (FleetLog l : logs) {
      if (!reusedPaths.contains(Redactor.redactUri(l.uri()))) {
        todo.add(l);
      }
    }
    List<List<FleetLog>> groups = TaskPlan.groups(todo, taskBytes, 2 * jsc.defaultParallelism());
    List<List<String>> tasks = new ArrayList<>(groups.size());
    for (List<FleetLog> g : groups) {
      List<String> t = new ArrayList<>(g.size());
      g.forEach(l -> t.add(l.toJson()));
      tasks.add(t);
    }
    Broadcast<HadoopConf> bconf = jsc.broadcast(conf);
    long perLogMillis = timeout.toMillis();
    jsc.setJobGroup("sparkrca-fleet", "sparkrca: analyse " + todo.size() + " event logs under "
        + Redactor.redactUri(root), false);
    JavaRDD<FleetRow> analysed = tasks.isEmpty() ? jsc.emptyRDD()
        : jsc.parallelize(tasks, tasks.size()).flatMap(t -> analyse(t, bconf.value(), perLogMillis));
    // Kept as rows (a row spills as its JSON line), so the tables and the summary below read each
    // row as it is, not parsed again for each of them.
    JavaRDD<FleetRow> all = analysed.union(reusedRows).persist(StorageLevel.MEMORY_AND_DISK());
    try {
      // The analysis first, on every task; then the rows from the cache in a few partitions, so the
      // table has a file or a few per date rather than one per task and date.
      long rowCount = all.count();
      int files = (int) Math.max(1, Math.min(all.getNumPartitions(), (rowCount + ROWS_PER_FILE - 1) / ROWS_PER_FILE));
      Dataset<Row> table = spark.createDataFrame(all.coalesce(files).map(RowSchema::toRow), RowSchema.ROWS);
      table.write().mode(SaveMode.Overwrite).partitionBy("date").parquet(rowsTable);

      FleetSummary.Totals totals = all.aggregate(new FleetSummary.Totals(), FleetSummary.Totals::add,
          FleetSummary.Totals::merge);
      JavaRDD<FleetSummary.Regression> regressions = all
          .flatMap(r -> FleetSummary.Run.of(r).stream().iterator())
          .mapToPair(r -> new Tuple2<>(r.name(), r))
          .groupByKey()
          .flatMap(e -> {
            List<FleetSummary.Run> runs = new ArrayList<>();
            e._2().forEach(runs::add);
            return FleetSummary.Regression.among(runs).iterator();
          })
          .persist(StorageLevel.MEMORY_AND_DISK());
      long regressionCount = regressions.count();
      List<FleetSummary.Regression> worst = regressions.takeOrdered(FleetSummary.MAX_REGRESSIONS, new WorstFirst());
      regressions.unpersist(false);
      List<String> notes = new ArrayList<>(listing.notes());
      if (listing.skippedFiles() > 0) {
        notes.add(listing.skippedFiles() + " files under the root are not event logs by their names and were skipped");
      }
      if (skipped > 0) {
        notes.add(skipped + " logs of applications still running were skipped");
      }
      FleetSummary summary = FleetSummary.of(Redactor.redactUri(root), totals, worst, regressionCount, notes);

      String version = indexDir + "/v=" + System.currentTimeMillis();
      spark.createDataFrame(all.coalesce(files).map(RowSchema::toIndexRow), RowSchema.INDEX)
          .write().mode(SaveMode.ErrorIfExists).parquet(version);
      writeText(hadoop, out + "/summary.json", summary.toJson());
      writeText(hadoop, out + "/summary.md", summary.toMarkdown());
      dropOlderIndexes(hadoop, indexDir, version);
      return new Result(summary, totals.applications(), todo.size(), reusedPaths.size(), skipped, totals.errors(),
          tasks.size(), Redactor.redactUri(rowsTable), Redactor.redactUri(version));
    } finally {
      all.unpersist(false);
    }
  }

  /** Failures first, then the largest slowdown ({@link FleetSummary.Regression#WORST_FIRST}), shippable. */
  private static final class WorstFirst implements Comparator<FleetSummary.Regression>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(FleetSummary.Regression a, FleetSummary.Regression b) {
      return FleetSummary.Regression.WORST_FIRST.compare(a, b);
    }
  }

  /** The byte sources of a driver or executor: Hadoop's file systems first, then core's own readers. */
  static ByteSources sources(Configuration conf) {
    return ByteSources.builder().add(new HadoopByteSourceProvider(conf)).loadServiceProviders().build();
  }

  /** One task: its logs' rows (the analysis runs on the executor). */
  private static Iterator<FleetRow> analyse(List<String> logs, HadoopConf conf, long perLogMillis) {
    FleetAnalysis analysis = FleetAnalysis.builder().sources(sources(conf.get()))
        .timeout(Duration.ofMillis(perLogMillis)).build();
    List<FleetRow> rows = new ArrayList<>(logs.size());
    for (String json : logs) {
      rows.add(analysis.analyze(FleetLog.fromJson(json)));
    }
    return rows.iterator();
  }

  /** The newest complete version of the index under {@code dir} (one whose write finished). */
  static Optional<String> latestIndex(Configuration conf, String dir) {
    try {
      Path p = new Path(URI.create(dir));
      FileSystem fs = p.getFileSystem(conf);
      if (!fs.exists(p)) {
        return Optional.empty();
      }
      long best = -1;
      for (FileStatus s : fs.listStatus(p)) {
        String n = s.getPath().getName();
        if (s.isDirectory() && n.startsWith("v=") && fs.exists(new Path(s.getPath(), "_SUCCESS"))) {
          try {
            best = Math.max(best, Long.parseLong(n.substring(2)));
          } catch (NumberFormatException e) {
            // not one of ours
          }
        }
      }
      return best < 0 ? Optional.empty() : Optional.of(dir + "/v=" + best);
    } catch (IOException e) {
      throw new SparkRcaException("could not list the fleet index " + Redactor.redactUri(dir) + ": " + e.getMessage()
          + "; check that the output location is readable, or run with --reanalyze", e);
    }
  }

  private static void dropOlderIndexes(Configuration conf, String dir, String keep) {
    try {
      Path p = new Path(URI.create(dir));
      FileSystem fs = p.getFileSystem(conf);
      String keepName = new Path(URI.create(keep)).getName();
      for (FileStatus s : fs.listStatus(p)) {
        if (s.isDirectory() && s.getPath().getName().startsWith("v=") && !s.getPath().getName().equals(keepName)) {
          fs.delete(s.getPath(), true);
        }
      }
    } catch (IOException e) {
      // Old versions only cost space: the newest complete one is what the next run reads.
      org.slf4j.LoggerFactory.getLogger(FleetJob.class).warn("could not remove old index versions under {}: {}",
          Redactor.redactUri(dir), e.toString());
    }
  }

  static void writeText(Configuration conf, String uri, String text) {
    try {
      Path p = new Path(URI.create(uri));
      FileSystem fs = p.getFileSystem(conf);
      try (OutputStream o = fs.create(p, true)) {
        o.write(text.getBytes(StandardCharsets.UTF_8));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw new SparkRcaException("could not write " + Redactor.redactUri(uri) + ": " + e.getMessage()
          + "; check that the output location is writable", e);
    }
  }

  /**
   * The {@code spark-submit} entry point: {@code ROOT OUTPUT [--reanalyze] [--skip-in-progress]
   * [--max-depth N] [--task-bytes N] [--timeout-seconds N]}. Prints one line on success; on bad
   * input, one line on stderr and exit code 2.
   */
  public static void main(String[] args) {
    Builder b;
    try {
      b = parse(args);
    } catch (SparkRcaException e) {
      System.err.println("sparkrca fleet job: " + e.getMessage());
      System.exit(2);
      return;
    }
    SparkSession spark = SparkSession.builder().appName("sparkrca fleet analysis").getOrCreate();
    int code = 0;
    try {
      Result r = b.build().run(spark);
      System.out.println("sparkrca: " + r.oneLine());
    } catch (SparkRcaException e) {
      System.err.println("sparkrca fleet job: " + e.getMessage());
      code = 2;
    } finally {
      spark.stop();
    }
    if (code != 0) {
      System.exit(code);
    }
  }

  /** The builder of the command line {@code args}. */
  static Builder parse(String[] args) {
    Builder b = builder();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--reanalyze" -> b.reanalyze(true);
        case "--skip-in-progress" -> b.skipInProgress(true);
        case "--max-depth" -> b.maxDepth((int) number(args, ++i, a));
        case "--task-bytes" -> b.taskBytes(number(args, ++i, a));
        case "--timeout-seconds" -> b.timeout(Duration.ofSeconds(number(args, ++i, a)));
        default -> {
          if (a.startsWith("--")) {
            throw new InvalidRequestException("unknown option " + a + "; usage: ROOT OUTPUT [--reanalyze] "
                + "[--skip-in-progress] [--max-depth N] [--task-bytes N] [--timeout-seconds N]");
          }
          positional.add(a);
        }
      }
    }
    if (positional.size() != 2) {
      throw new InvalidRequestException("expected the event logs' root and the output location, got "
          + positional.size() + " arguments; usage: ROOT OUTPUT [options]");
    }
    return b.root(positional.get(0)).output(positional.get(1));
  }

  private static long number(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new InvalidRequestException(option + " needs a number");
    }
    try {
      return Long.parseLong(args[i]);
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(option + " needs a whole number, not '" + args[i] + "'");
    }
  }

  /** Builds a {@link FleetJob}. */
  public static final class Builder extends FleetOptions<Builder> {
    private String root;
    private String output;
    private long taskBytes = DEFAULT_TASK_BYTES;
    private Duration timeout = Duration.ofMinutes(10);

    private Builder() {}

    /** Where the event logs are: a directory or prefix in any Hadoop file system, or a plain path. */
    public Builder root(String root) {
      this.root = Objects.requireNonNull(root, "root");
      return this;
    }

    /** Where the rows, the index and the summary go. */
    public Builder output(String output) {
      this.output = Objects.requireNonNull(output, "output");
      return this;
    }

    /** About how many bytes of logs one task reads (default 64 MiB); a larger log is a task alone. */
    public Builder taskBytes(long bytes) {
      if (bytes <= 0) {
        throw new InvalidRequestException("the bytes per task must be positive, not " + bytes);
      }
      this.taskBytes = bytes;
      return this;
    }

    /** How long reading one log may take before it is an error row (default 10 minutes). */
    public Builder timeout(Duration timeout) {
      FleetAnalysis.builder().timeout(timeout); // the executors' analysis takes it: same rules, checked now
      this.timeout = timeout;
      return this;
    }

    @Override
    protected Builder self() {
      return this;
    }

    /** @throws InvalidRequestException when the root or the output is missing */
    public FleetJob build() {
      if (root == null || root.isBlank()) {
        throw new InvalidRequestException("no fleet root given: name a directory or prefix of event logs");
      }
      if (output == null || output.isBlank()) {
        throw new InvalidRequestException("no output location given: name a directory or prefix to write rows to");
      }
      return new FleetJob(this, chosen());
    }
  }
}
