package io.sparkrca.spark.internal;

import io.sparkrca.core.report.ApplicationRef;
import io.sparkrca.core.report.Confidence;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.core.report.Verdict;
import io.sparkrca.fleet.FleetRow;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark table of {@link FleetRow}s: one column per {@link FleetRow#COLUMNS} entry, the root
 * cause one struct, absent values null; and the conversions both ways, so that a row read back from
 * Parquet is the row that was analysed.
 */
public final class RowSchema {
  /** The root cause's struct. */
  public static final StructType CAUSE = new StructType(new StructField[] {
      field("kind", DataTypes.StringType, false),
      field("confidence", DataTypes.StringType, false),
      field("title", DataTypes.StringType, false),
      field("culpritStages", DataTypes.createArrayType(DataTypes.IntegerType, false), false)});

  /** The rows table. */
  public static final StructType ROWS = new StructType(new StructField[] {
      field("path", DataTypes.StringType, false),
      field("sizeBytes", DataTypes.LongType, false),
      field("modifiedTime", DataTypes.TimestampType, true),
      field("inProgress", DataTypes.BooleanType, false),
      field("date", DataTypes.StringType, false),
      field("appId", DataTypes.StringType, true),
      field("attemptId", DataTypes.StringType, true),
      field("name", DataTypes.StringType, true),
      field("user", DataTypes.StringType, true),
      field("sparkVersion", DataTypes.StringType, true),
      field("startTime", DataTypes.TimestampType, true),
      field("endTime", DataTypes.TimestampType, true),
      field("durationMs", DataTypes.LongType, true),
      field("outcome", DataTypes.StringType, true),
      field("verdict", DataTypes.StringType, true),
      field("rootCause", CAUSE, true),
      field("wastedMs", DataTypes.LongType, false),
      field("wastedCoreHours", DataTypes.DoubleType, false),
      field("coreHours", DataTypes.DoubleType, false),
      field("topRecommendation", DataTypes.StringType, true),
      field("error", DataTypes.StringType, true)});

  /** The index table: what identifies a log's state, and the row analysed from it (JSON). */
  public static final StructType INDEX = new StructType(new StructField[] {
      field("path", DataTypes.StringType, false),
      field("sizeBytes", DataTypes.LongType, false),
      field("modifiedMillis", DataTypes.LongType, true),
      field("inProgress", DataTypes.BooleanType, false),
      field("row", DataTypes.StringType, false)});

  private RowSchema() {}

  private static StructField field(String name, org.apache.spark.sql.types.DataType type, boolean nullable) {
    return DataTypes.createStructField(name, type, nullable);
  }

  /** The table row of {@code r}, in {@link #ROWS}' column order. */
  public static Row toRow(FleetRow r) {
    Object cause = r.rootCause().map(c -> RowFactory.create(c.kind().name(), c.confidence().name(), c.title(),
        c.culpritStages().toArray(new Integer[0]))).orElse(null);
    return RowFactory.create(r.path(), r.sizeBytes(), ts(r.modifiedTime()), r.inProgress(), r.date(),
        r.appId().orElse(null), r.attemptId().orElse(null), r.name().orElse(null), r.user().orElse(null),
        r.sparkVersion().orElse(null), ts(r.startTime()), ts(r.endTime()), r.durationMs().orElse(null),
        r.outcome().map(Enum::name).orElse(null), r.verdict().map(Enum::name).orElse(null), cause, r.wastedMs(),
        r.wastedCoreHours(), r.coreHours(), r.topRecommendation().orElse(null), r.error().orElse(null));
  }

  /** The index row of {@code r}. */
  public static Row toIndexRow(FleetRow r) {
    return RowFactory.create(r.path(), r.sizeBytes(), r.modifiedTime().map(Instant::toEpochMilli).orElse(null),
        r.inProgress(), r.toJson());
  }

  /** The names of {@link #ROWS}' columns, in order (select them so to read a table back). */
  public static String[] columns() {
    return ROWS.fieldNames();
  }

  /**
   * The {@link FleetRow} of a table row whose columns are in {@link #ROWS}' order (a table read back
   * moves the partition column {@code date} last: select {@link #columns()} first).
   */
  public static FleetRow fromRow(Row row) {
    Optional<FleetRow.Cause> cause = Optional.empty();
    if (!row.isNullAt(15)) {
      Row c = row.getStruct(15);
      List<Integer> stages = integers(c.get(3));
      cause = Optional.of(new FleetRow.Cause(RootCauseKind.valueOf(c.getString(0)), Confidence.valueOf(c.getString(1)),
          c.getString(2), stages));
    }
    return new FleetRow(row.getString(0), row.getLong(1), instant(row, 2), row.getBoolean(3), row.getString(4),
        str(row, 5), str(row, 6), str(row, 7), str(row, 8), str(row, 9), instant(row, 10), instant(row, 11),
        row.isNullAt(12) ? Optional.empty() : Optional.of(row.getLong(12)),
        str(row, 13).map(ApplicationRef.Outcome::valueOf), str(row, 14).map(Verdict::valueOf), cause,
        row.getLong(16), row.getDouble(17), row.getDouble(18), str(row, 19), str(row, 20));
  }

  /** An array column's value: a Scala sequence when read from a table, a Java list when just built. */
  private static List<Integer> integers(Object v) {
    List<Integer> out = new ArrayList<>();
    if (v instanceof scala.collection.Iterable<?> seq) {
      scala.collection.Iterator<?> it = seq.iterator();
      while (it.hasNext()) {
        out.add((Integer) it.next());
      }
    } else if (v instanceof Iterable<?> list) {
      list.forEach(x -> out.add((Integer) x));
    } else if (v instanceof Object[] array) {
      for (Object x : array) {
        out.add((Integer) x);
      }
    }
    return out;
  }

  private static Timestamp ts(Optional<Instant> t) {
    return t.map(Timestamp::from).orElse(null);
  }

  private static Optional<String> str(Row row, int i) {
    return row.isNullAt(i) ? Optional.empty() : Optional.of(row.getString(i));
  }

  private static Optional<Instant> instant(Row row, int i) {
    if (row.isNullAt(i)) {
      return Optional.empty();
    }
    Object v = row.get(i);
    return Optional.of(v instanceof Instant in ? in : ((Timestamp) v).toInstant());
  }
}
