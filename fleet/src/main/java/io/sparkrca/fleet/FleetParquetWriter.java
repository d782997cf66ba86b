package io.sparkrca.fleet;

import io.sparkrca.core.error.InvalidRequestException;
import io.sparkrca.core.error.SparkRcaException;
import io.sparkrca.fleet.internal.ParquetTableWriter;
import io.sparkrca.fleet.internal.ParquetTableWriter.Codec;
import io.sparkrca.fleet.internal.ParquetTableWriter.Column;
import io.sparkrca.fleet.internal.ParquetTableWriter.Logical;
import io.sparkrca.fleet.internal.ParquetTableWriter.Node;
import io.sparkrca.fleet.internal.ParquetTableWriter.Primitive;
import io.sparkrca.fleet.internal.ParquetTableWriter.Repetition;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Writes {@link FleetRow}s as one Parquet file, the table {@code sparkrca scan --format parquet}
 * writes and the {@code sparkrca-spark} job's {@code rows} table holds: the same columns, types and
 * nullability (one column per {@link FleetRow#COLUMNS} entry, the root cause one struct with its
 * culprit stages a list of ints, times as UTC timestamps in microseconds), so Spark, DuckDB or
 * BigQuery read scan's file and the job's table alike. Rows are buffered up to a bound and written
 * as row groups, so memory stays bounded whatever the fleet's size; no Hadoop is needed. Not
 * thread-safe: write from one thread ({@link FleetScan} calls its sink from one).
 *
 * <pre>{@code
 * try (FleetParquetWriter parquet = FleetParquetWriter.builder().open(Files.newOutputStream(Path.of("fleet.parquet")))) {
 *   FleetScan.builder().build().run("/tmp/spark-events", parquet::write);
 * }
 * // spark.read().parquet("fleet.parquet").groupBy("rootCause.kind").count().show()
 * }</pre>
 */
public final class FleetParquetWriter implements Closeable {
  /** Buffered bytes past which a row group is written, unless set: about 15,000 typical rows. */
  public static final long DEFAULT_ROW_GROUP_BYTES = 8L << 20;

  /** How pages are compressed. */
  public enum Compression {
    /** GZIP, which every Parquet reader has. */
    GZIP,
    /** None. */
    NONE
  }

  private static final List<Node> SCHEMA = List.of(
      string("path", Repetition.REQUIRED),
      Node.leaf("sizeBytes", Repetition.REQUIRED, Primitive.INT64, Logical.NONE),
      timestamp("modifiedTime"),
      Node.leaf("inProgress", Repetition.REQUIRED, Primitive.BOOLEAN, Logical.NONE),
      string("date", Repetition.REQUIRED),
      string("appId", Repetition.OPTIONAL),
      string("attemptId", Repetition.OPTIONAL),
      string("name", Repetition.OPTIONAL),
      string("user", Repetition.OPTIONAL),
      string("sparkVersion", Repetition.OPTIONAL),
      timestamp("startTime"),
      timestamp("endTime"),
      Node.leaf("durationMs", Repetition.OPTIONAL, Primitive.INT64, Logical.NONE),
      string("outcome", Repetition.OPTIONAL),
      string("verdict", Repetition.OPTIONAL),
      Node.group("rootCause", Repetition.OPTIONAL, Logical.NONE,
          string("kind", Repetition.REQUIRED),
          string("confidence", Repetition.REQUIRED),
          string("title", Repetition.REQUIRED),
          // The standard three-level list: Spark writes array<int> (elements not null) so.
          Node.group("culpritStages", Repetition.REQUIRED, Logical.LIST,
              Node.group("list", Repetition.REPEATED, Logical.NONE,
                  Node.leaf("element", Repetition.REQUIRED, Primitive.INT32, Logical.NONE)))),
      Node.leaf("wastedMs", Repetition.REQUIRED, Primitive.INT64, Logical.NONE),
      Node.leaf("wastedCoreHours", Repetition.REQUIRED, Primitive.DOUBLE, Logical.NONE),
      Node.leaf("coreHours", Repetition.REQUIRED, Primitive.DOUBLE, Logical.NONE),
      string("topRecommendation", Repetition.OPTIONAL),
      string("error", Repetition.OPTIONAL));

  private final ParquetTableWriter table;
  private final List<Column> c;
  private boolean closed;

  private FleetParquetWriter(ParquetTableWriter table) {
    this.table = table;
    this.c = table.columns();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Adds one row (a sink for {@link FleetScan#run(String, java.util.function.Consumer)}).
   *
   * @throws SparkRcaException when the stream fails while a row group is written
   * @throws InvalidRequestException after {@link #close()}
   */
  public void write(FleetRow r) {
    Objects.requireNonNull(r, "row");
    if (closed) {
      throw new InvalidRequestException("the Parquet writer is closed: write every row before close()");
    }
    c.get(0).string(0, r.path());
    c.get(1).int64(0, r.sizeBytes());
    timestamp(c.get(2), r.modifiedTime());
    c.get(3).bool(0, r.inProgress());
    c.get(4).string(0, r.date());
    optional(c.get(5), r.appId());
    optional(c.get(6), r.attemptId());
    optional(c.get(7), r.name());
    optional(c.get(8), r.user());
    optional(c.get(9), r.sparkVersion());
    timestamp(c.get(10), r.startTime());
    timestamp(c.get(11), r.endTime());
    if (r.durationMs().isPresent()) {
      c.get(12).int64(0, r.durationMs().get());
    } else {
      c.get(12).absent(0, 0);
    }
    optional(c.get(13), r.outcome().map(Enum::name));
    optional(c.get(14), r.verdict().map(Enum::name));
    cause(r.rootCause());
    c.get(19).int64(0, r.wastedMs());
    c.get(20).float64(0, r.wastedCoreHours());
    c.get(21).float64(0, r.coreHours());
    optional(c.get(22), r.topRecommendation());
    optional(c.get(23), r.error());
    try {
      table.endRecord();
    } catch (IOException e) {
      throw new SparkRcaException("could not write a row group of the Parquet file: " + e.getMessage()
          + "; check that the disk is not full and the file is writable", e);
    }
  }

  /** The rows written so far. */
  public long rows() {
    return table.records();
  }

  /** The row groups written so far (the last one is written by {@link #close()}). */
  public int rowGroups() {
    return table.rowGroups();
  }

  /** The leaf columns' dotted paths, in file order. */
  List<String> leafPaths() {
    return c.stream().map(col -> String.join(".", col.path())).toList();
  }

  /** Writes the last row group and the footer, and closes the stream. */
  @Override
  public void close() throws IOException {
    closed = true;
    table.close();
  }

  /**
   * Closes the stream without writing the rows still buffered or the footer, for an output that is
   * given up (a scan that failed midway deletes its file): what was written is not a Parquet file.
   * A later {@link #close()} does nothing.
   */
  public void abort() throws IOException {
    closed = true;
    table.abort();
  }

  /**
   * The root cause's leaves: kind, confidence and title are defined at level 1 when it is present;
   * each culprit stage is at level 2 (the list's repeated group adds one), the first at repetition
   * level 0 and the rest at 1; an empty list is one entry at level 1, no cause one at level 0.
   */
  private void cause(Optional<FleetRow.Cause> cause) {
    if (cause.isEmpty()) {
      for (int i = 15; i <= 18; i++) {
        c.get(i).absent(0, 0);
      }
      return;
    }
    FleetRow.Cause k = cause.get();
    c.get(15).string(0, k.kind().name());
    c.get(16).string(0, k.confidence().name());
    c.get(17).string(0, k.title());
    List<Integer> stages = k.culpritStages();
    if (stages.isEmpty()) {
      c.get(18).absent(0, 1);
    }
    for (int i = 0; i < stages.size(); i++) {
      c.get(18).int32(i == 0 ? 0 : 1, stages.get(i));
    }
  }

  private static void optional(Column col, Optional<String> v) {
    if (v.isPresent()) {
      col.string(0, v.get());
    } else {
      col.absent(0, 0);
    }
  }

  private static void timestamp(Column col, Optional<Instant> t) {
    if (t.isPresent()) {
      Instant i = t.get();
      col.int64(0, Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000));
    } else {
      col.absent(0, 0);
    }
  }

  private static Node string(String name, Repetition repetition) {
    return Node.leaf(name, repetition, Primitive.BYTE_ARRAY, Logical.STRING);
  }

  private static Node timestamp(String name) {
    return Node.leaf(name, Repetition.OPTIONAL, Primitive.INT64, Logical.TIMESTAMP_MICROS);
  }

  /** Settings of a {@link FleetParquetWriter}. */
  public static final class Builder {
    private long rowGroupBytes = DEFAULT_ROW_GROUP_BYTES;
    private Compression compression = Compression.GZIP;

    private Builder() {}

    /** Buffered bytes past which a row group is written (default {@value #DEFAULT_ROW_GROUP_BYTES}, at most 1 GiB). */
    public Builder rowGroupBytes(long bytes) {
      if (bytes < 1 || bytes > (1L << 30)) {
        throw new InvalidRequestException("rowGroupBytes must be between 1 and 1 GiB, not " + bytes);
      }
      this.rowGroupBytes = bytes;
      return this;
    }

    /** Page compression (default GZIP). */
    public Builder compression(Compression compression) {
      this.compression = Objects.requireNonNull(compression, "compression");
      return this;
    }

    /** A writer onto {@code out}, which it closes; the file's magic number is written at once. */
    public FleetParquetWriter open(OutputStream out) throws IOException {
      String version = Optional.ofNullable(FleetParquetWriter.class.getPackage().getImplementationVersion())
          .orElse("development");
      return new FleetParquetWriter(new ParquetTableWriter(out, SCHEMA,
          compression == Compression.GZIP ? Codec.GZIP : Codec.UNCOMPRESSED, rowGroupBytes,
          "sparkrca version " + version));
    }
  }
}
