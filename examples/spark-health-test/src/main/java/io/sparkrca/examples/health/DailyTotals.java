package io.sparkrca.examples.health;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.sum;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The small Spark job the health test checks: orders (day, amount) summed per day.
 *
 * <pre>{@code
 * Dataset<Row> totals = DailyTotals.compute(spark.read().parquet("orders/"));
 * }</pre>
 */
public final class DailyTotals {
  private DailyTotals() {}

  /** One row per day: the day, its number of orders and their total amount. */
  public static Dataset<Row> compute(Dataset<Row> orders) {
    return orders.groupBy(col("day")).agg(count("*").as("orders"), sum(col("amount")).as("total")).orderBy(col("day"));
  }

  /** {@code n} generated orders over 7 days, amount = id % 100, in 4 partitions. */
  public static Dataset<Row> sampleOrders(SparkSession spark, long n) {
    return spark.range(0, n, 1, 4).selectExpr("id % 7 AS day", "id % 100 AS amount");
  }
}
