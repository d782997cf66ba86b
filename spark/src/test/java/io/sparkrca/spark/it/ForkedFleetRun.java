package io.sparkrca.spark.it;

import io.sparkrca.spark.FleetJob;
import io.sparkrca.spark.internal.RowSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark side of FleetJobIT, run in a forked JVM holding Spark's own class path and the shaded
 * jar: runs the job the way {@code spark-submit} would (one session, {@code local[2]}), then reads
 * the Parquet table back with Spark and writes each row as FleetRow JSON, sorted by path, for the
 * test to compare with {@code scan}'s rows.
 *
 * <p>Arguments: {@code WORK ROOT [ROOT_AS_URI]}. Writes {@code WORK/<run>.jsonl} and {@code
 * WORK/results.txt} (one line per run: name, analysed, reused, rows, errors, tasks). With ROOT_AS_URI,
 * a third run reads the same logs through Hadoop's file system into another output. Then Spark reads
 * back the Parquet files {@code scan} wrote into {@code WORK/scan-parquet}, if any.
 */
public final class ForkedFleetRun {
  private ForkedFleetRun() {}

  public static void main(String[] args) throws IOException {
    Path work = Path.of(args[0]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sparkrca FleetJobIT")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate();
    List<String> results = new ArrayList<>();
    try {
      String out = work.resolve("out-plain").toString();
      results.add(run(spark, "first", args[1], out, false, work));
      // Nothing changed: every row comes from the index table.
      results.add(run(spark, "again", args[1], out, false, work));
      if (args.length > 2) {
        results.add(run(spark, "uri", args[2], work.resolve("out-uri").toUri().toString(), false, work));
      }
      readScanParquet(spark, work);
    } finally {
      spark.stop();
    }
    Files.write(work.resolve("results.txt"), results, StandardCharsets.UTF_8);
  }

  /**
   * Each file of {@code WORK/scan-parquet} ({@code scan --format parquet}'s writer) read by Spark
   * with the schema the file declares: {@code WORK/scan-parquet/<file>.jsonl} holds its rows, {@code
   * <file>.txt} whether that schema has the job's table's names and types, the row groups parquet-mr
   * finds in the footer, and the schemas.
   */
  private static void readScanParquet(SparkSession spark, Path work) throws IOException {
    Path dir = work.resolve("scan-parquet");
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> files;
    try (var list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
    for (Path file : files) {
      Dataset<Row> df = spark.read().parquet(file.toString());
      List<String> lines = new ArrayList<>();
      for (Row row : df.selectExpr(RowSchema.columns()).orderBy("path").collectAsList()) {
        lines.add(RowSchema.fromRow(row).toJson());
      }
      Files.write(Path.of(file + ".jsonl"), lines, StandardCharsets.UTF_8);
      int groups;
      String fileSchema;
      try (ParquetFileReader footer = ParquetFileReader.open(
          HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
        groups = footer.getRowGroups().size();
        fileSchema = footer.getFileMetaData().getSchema().toString();
      }
      // Spark reads every file column as nullable; the catalog string compares names and types.
      Files.write(Path.of(file + ".txt"), List.of(
          "schema-is-the-table-schema=" + df.schema().catalogString().equals(RowSchema.ROWS.catalogString()),
          "row-groups=" + groups, df.schema().catalogString(), RowSchema.ROWS.catalogString(), fileSchema),
          StandardCharsets.UTF_8);
    }
  }

  private static String run(SparkSession spark, String name, String root, String out, boolean reanalyze, Path work)
      throws IOException {
    FleetJob.Result r = FleetJob.builder().root(root).output(out).reanalyze(reanalyze).build().run(spark);
    List<String> lines = new ArrayList<>();
    for (Row row : spark.read().schema(RowSchema.ROWS).parquet(r.rowsTable())
        .selectExpr(RowSchema.columns()).orderBy("path").collectAsList()) {
      lines.add(RowSchema.fromRow(row).toJson());
    }
    Files.write(work.resolve(name + ".jsonl"), lines, StandardCharsets.UTF_8);
    return name + " analysed=" + r.analysed() + " reused=" + r.reused() + " rows=" + r.rows() + " errors="
        + r.errors() + " tasks=" + r.tasks();
  }
}
