package io.sparkrca.inspector;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A string literal found in a class, classified and scored by how much it tells about what the
 * job touches: SQL text first, then tables, paths and URIs, then configuration keys. Secrets
 * inside literals (passwords in JDBC URLs, tokens) are redacted.
 *
 * <pre>{@code
 * classView.classes().get(0).strings().stream()
 *     .filter(s -> s.kind() == StringConstant.Kind.PATH)
 *     .forEach(s -> System.out.println(s.value() + " line " + s.line().orElse(0)));
 * }</pre>
 *
 * @param value the literal, redacted
 * @param kind what it looks like
 * @param score higher is more interesting; below 10 is noise
 * @param method the method that loads it first ({@code <field>} for a constant field)
 * @param line the source line of that first use
 * @param usedBy the call it is passed to when that tells its meaning, e.g.
 *     {@code SparkSession.sql} or {@code DataFrameReader.parquet}
 * @param occurrences how many times the class loads it
 */
public record StringConstant(
    String value,
    Kind kind,
    int score,
    String method,
    OptionalInt line,
    Optional<String> usedBy,
    int occurrences) {

  /** Checks that no component is null. */
  public StringConstant {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(line, "line");
    Objects.requireNonNull(usedBy, "usedBy");
  }

  /**
   * What a literal looks like, from most to least interesting.
   *
   * <pre>{@code
   * if (constant.kind() == StringConstant.Kind.SQL) { ... }
   * }</pre>
   */
  public enum Kind {
    /** SQL text: SELECT ... FROM, INSERT INTO, CREATE TABLE, MERGE INTO. */
    SQL,
    /** A table or view name, e.g. {@code sales.orders}. */
    TABLE,
    /** A path or URI: {@code gs://}, {@code s3a://}, {@code hdfs://}, {@code jdbc:}, a file. */
    PATH,
    /** A configuration key such as {@code spark.sql.shuffle.partitions}. */
    CONFIG_KEY,
    /** A data source format or save mode: {@code parquet}, {@code overwrite}. */
    FORMAT,
    /** Human-readable text: log and error messages. */
    MESSAGE,
    /** Anything else. */
    OTHER
  }
}
