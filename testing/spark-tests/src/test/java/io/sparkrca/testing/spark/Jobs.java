package io.sparkrca.testing.spark;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The small real Spark jobs the tests run: a healthy aggregation, a parse that fails on a bad
 * record, and a shuffle where one key holds most of the data. The tests quote the call sites
 * ({@code reduce at Jobs.java:33}), so keep the lines of the actions where they are.
 */
final class Jobs {
  /** The records of the hot key in {@link #skewed}: 30 of every 36; the slow part sleeps per record. */
  static final int HOT_RECORDS = 30_000;

  private Jobs() {}

  /** 20,000 ids counted by their last digit: two stages, four tasks each, nothing wrong. */
  static List<Row> healthyAggregation(SparkSession spark) {
    return spark.range(0, 20_000, 1, 4).groupBy(col("id").mod(10)).count().collectAsList();
  }

  /** Sums the numbers; a value that is not one fails its task (partition = position, one per task). */
  static long parseAll(SparkSession spark, List<String> values) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    return jsc.parallelize(values, values.size()).map(Long::parseLong).reduce(Long::sum);
  }

  /**
   * 36,000 records over 8 reducers where key 0 holds 30,000: its reducer (partition 0) reads 30
   * times the others' records and, at 1 ms per 10 records, runs about 3 s while the others take 0.1 s.
   */
  static List<Integer> skewed(SparkSession spark) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < HOT_RECORDS + 6_000; i++) {
      ids.add(i);
    }
    return jsc.parallelize(ids, 4)
        .mapToPair(i -> new Tuple2<>(i < HOT_RECORDS ? 0 : 1 + i % 7, i))
        .partitionBy(new HashPartitioner(8))
        .mapPartitions(Jobs::slowly)
        .collect();
  }

  private static Iterator<Integer> slowly(Iterator<Tuple2<Integer, Integer>> records) throws InterruptedException {
    int n = 0;
    while (records.hasNext()) {
      records.next();
      if (++n % 10 == 0) {
        Thread.sleep(1);
      }
    }
    return List.of(n).iterator();
  }
}
