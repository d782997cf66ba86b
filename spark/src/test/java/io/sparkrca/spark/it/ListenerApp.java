package io.sparkrca.spark.it;

import org.apache.spark.sql.SparkSession;

/**
 * The applications of RcaListenerIT, run in forked JVMs with {@code spark.extraListeners} set on
 * the command line: {@code healthy} counts a small range and stops; {@code failing} runs a job
 * whose every task throws and lets the exception end {@code main}, as a broken job does (Spark's
 * shutdown hook then stops the context).
 */
public final class ListenerApp {
  private ListenerApp() {}

  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sparkrca listener " + args[0])
        .config("spark.ui.enabled", "false")
        .getOrCreate();
    if (args[0].equals("healthy")) {
      long n = spark.range(0, 100_000, 1, 4).selectExpr("id % 7 as k").groupBy("k").count().count();
      System.out.println("groups: " + n);
      spark.stop();
    } else {
      spark.range(0, 1000, 1, 2).javaRDD().map(x -> {
        if (x >= 0) {
          throw new IllegalStateException("bad record " + x + ": the input is malformed");
        }
        return x;
      }).count();
    }
  }
}
