package io.sparkrca.inspector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each anti-pattern in Python, Scala, Java and SQL sources, found with its line and a fix. */
class SourceAntiPatternTest {
  @TempDir Path dir;

  static final String PYTHON = """
      from pyspark.sql import SparkSession, functions as F
      from pyspark.sql.functions import udf, pandas_udf
      import pandas as pd

      spark = SparkSession.builder.getOrCreate()
      orders = spark.read.parquet("gs://bucket/orders")

      rows = orders.collect()  # COLLECT
      pdf = orders.toPandas()  # TOPANDAS
      few = orders.limit(10).collect()
      small = orders.groupBy("day").count().toPandas()
      sample_pdf = pdf.head(5)

      for day in ["2024-01-01", "2024-01-02"]:
          n = orders.filter(F.col("day") == day).count()  # LOOP
          print(n)

      df = orders
      for c in ["a", "b", "c"]:
          df = df.withColumn(c, F.lit(1))  # LINEAGE

      @udf("string")  # UDF
      def shout(s):
          return s.upper() if s else None

      @pandas_udf("string")
      def shout_vec(s: pd.Series) -> pd.Series:
          return s.str.upper()

      clean = F.udf(lambda x: x.strip())  # LAMBDA_UDF
      df2 = df.withColumn("u", shout("name")).withColumn("v", shout_vec("name"))

      orders.repartition(1).write.parquet("gs://bucket/out")  # REPARTITION

      lookup = spark.table("dim.customers").collect()  # COLLECT2
      bc = spark.sparkContext.broadcast(lookup)  # BROADCAST

      cached = orders.filter("total > 0").cache()  # CACHE
      cached.count()

      reused = orders.cache()
      reused.count()
      reused.show()
      """;

  static final String SCALA = """
      import org.apache.spark.sql.SparkSession
      import org.apache.spark.sql.functions._

      object Job {
        def main(args: Array[String]): Unit = {
          val spark = SparkSession.builder().getOrCreate()
          import spark.implicits._
          val orders = spark.read.parquet("gs://bucket/orders")
          val all = orders.collect() // COLLECT
          val some = orders.limit(5).collect()
          val evens = Seq(1, 2, 3).collect { case x if x % 2 == 0 => x }
          val days = Seq("2024-01-01", "2024-01-02")
          days.foreach { d =>
            println(orders.filter($"day" === d).count) // LOOP
          }
          orders.foreach(r => println(r))
          var df = orders
          for (c <- Seq("a", "b")) {
            df = df.withColumn(c, lit(1)) // LINEAGE
          }
          val renamed = Seq("x", "y").foldLeft(orders)((acc, c) => acc.withColumnRenamed(c, c + "_1")) // FOLD
          orders.repartition(10).write.mode("overwrite").parquet("gs://bucket/out") // REPARTITION
          val lookup = spark.table("dim.customers").collect().map(r => r.getString(0) -> r.getString(1)).toMap
          val bc = spark.sparkContext.broadcast(lookup) // BROADCAST
          val cached = orders.filter($"total" > 0).cache() // CACHE
          cached.count()
        }
      }
      """;

  static final String JAVA = """
      import org.apache.spark.sql.*;
      import java.util.List;

      public class Job {
        public static void main(String[] args) {
          SparkSession spark = SparkSession.builder().getOrCreate();
          Dataset<Row> orders = spark.read().parquet("gs://bucket/orders");
          List<Row> rows = orders.collectAsList(); // COLLECT
          for (String t : List.of("a", "b")) {
            spark.table(t).write().mode("append").saveAsTable("all_tables"); // LOOP
          }
          Dataset<Row> df = orders;
          for (String c : List.of("a", "b"))
            df = df.withColumn(c, functions.lit(1)); // LINEAGE
          Dataset<Row> cached = orders.persist(); // CACHE
          System.out.println(cached.count());
        }
      }
      """;

  static final String SQL = """
      -- nightly rollup
      CACHE TABLE hot AS SELECT * FROM sales.orders WHERE day = '2024-01-01'; -- CACHE
      INSERT OVERWRITE TABLE sales.daily
      SELECT /*+ REPARTITION(1) */ day, count(*) FROM hot GROUP BY day; -- REPARTITION
      CACHE TABLE warm AS SELECT * FROM sales.orders;
      SELECT count(*) FROM warm;
      SELECT max(total) FROM warm;
      """;

  private List<Finding> findings(String name, String source) throws Exception {
    Path file = TestJars.write(dir, name, source.getBytes());
    return ClassInspector.create().inspect(file.toString()).findings();
  }

  private static int line(String source, String marker) {
    String[] lines = source.split("\n");
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].matches(".*(#|//|--) " + marker + "$")) {
        return i + 1;
      }
    }
    throw new IllegalArgumentException(marker);
  }

  private static void assertFound(List<Finding> all, AntiPattern p, String source, String marker) {
    int line = line(source, marker);
    assertThat(all).as("%s at line %d (%s) among %s", p, line, marker, all)
        .anySatisfy(f -> {
          assertThat(f.pattern()).isEqualTo(p);
          assertThat(f.line()).hasValue(line);
        });
  }

  @Test
  void pythonPatternsAreFoundAtTheirLines() throws Exception {
    List<Finding> f = findings("job.py", PYTHON);

    assertFound(f, AntiPattern.COLLECT_UNBOUNDED, PYTHON, "COLLECT");
    assertFound(f, AntiPattern.COLLECT_UNBOUNDED, PYTHON, "TOPANDAS");
    assertFound(f, AntiPattern.ACTION_IN_LOOP, PYTHON, "LOOP");
    assertFound(f, AntiPattern.LINEAGE_IN_LOOP, PYTHON, "LINEAGE");
    assertFound(f, AntiPattern.ROW_WISE_PYTHON_UDF, PYTHON, "UDF");
    assertFound(f, AntiPattern.ROW_WISE_PYTHON_UDF, PYTHON, "LAMBDA_UDF");
    assertFound(f, AntiPattern.REPARTITION_WHERE_COALESCE_FITS, PYTHON, "REPARTITION");
    assertFound(f, AntiPattern.BROADCAST_DRIVER_COLLECTION, PYTHON, "BROADCAST");
    assertFound(f, AntiPattern.CACHE_WITHOUT_REUSE, PYTHON, "CACHE");
    // Bounded collects, the pandas UDF, pandas head() and the reused cache are not findings.
    assertThat(f).hasSize(10);
  }

  @Test
  void aPythonUdfRemediationNamesTheBuiltInsItsBodyMapsTo() throws Exception {
    List<Finding> f = findings("job.py", PYTHON);

    Finding udf = f.stream().filter(x -> x.line().orElse(0) == line(PYTHON, "UDF")).findFirst().orElseThrow();
    Finding lambda = f.stream().filter(x -> x.line().orElse(0) == line(PYTHON, "LAMBDA_UDF")).findFirst().orElseThrow();
    assertThat(udf.remediation()).contains("F.upper").contains("F.when").contains("pandas_udf");
    assertThat(udf.evidence()).contains("shout");
    assertThat(lambda.remediation()).contains("F.trim");
  }

  @Test
  void findingsNameTheEnclosingFunction() throws Exception {
    String src = """
        def report(spark, days):
            df = spark.table("t")
            for d in days:
                df.filter(df.day == d).show()
        """;
    Finding f = findings("r.py", src).get(0);

    assertThat(f.method()).contains("report");
    assertThat(f.line()).hasValue(4);
    assertThat(f.evidence()).contains(".show()").contains("`df.filter(df.day == d).show()`");
  }

  @Test
  void scalaPatternsAreFoundAtTheirLines() throws Exception {
    List<Finding> f = findings("Job.scala", SCALA);

    assertFound(f, AntiPattern.COLLECT_UNBOUNDED, SCALA, "COLLECT");
    assertFound(f, AntiPattern.ACTION_IN_LOOP, SCALA, "LOOP");
    assertFound(f, AntiPattern.LINEAGE_IN_LOOP, SCALA, "LINEAGE");
    assertFound(f, AntiPattern.LINEAGE_IN_LOOP, SCALA, "FOLD");
    assertFound(f, AntiPattern.REPARTITION_WHERE_COALESCE_FITS, SCALA, "REPARTITION");
    assertFound(f, AntiPattern.BROADCAST_DRIVER_COLLECTION, SCALA, "BROADCAST");
    assertFound(f, AntiPattern.CACHE_WITHOUT_REUSE, SCALA, "CACHE");
    // collect { case ... } on a Seq, the bounded collect and Dataset.foreach are not findings;
    // the collect feeding the broadcast is one.
    assertThat(f).filteredOn(x -> x.pattern() == AntiPattern.COLLECT_UNBOUNDED).hasSize(2);
    assertThat(f).hasSize(8);
  }

  @Test
  void javaPatternsAreFoundAtTheirLines() throws Exception {
    List<Finding> f = findings("Job.java", JAVA);

    assertFound(f, AntiPattern.COLLECT_UNBOUNDED, JAVA, "COLLECT");
    assertFound(f, AntiPattern.ACTION_IN_LOOP, JAVA, "LOOP");
    assertFound(f, AntiPattern.LINEAGE_IN_LOOP, JAVA, "LINEAGE");
    assertFound(f, AntiPattern.CACHE_WITHOUT_REUSE, JAVA, "CACHE");
    assertThat(f).hasSize(4);
    assertThat(f.get(0).method()).contains("main");
  }

  @Test
  void sqlPatternsAreFoundAtTheirLines() throws Exception {
    List<Finding> f = findings("rollup.sql", SQL);

    assertFound(f, AntiPattern.CACHE_WITHOUT_REUSE, SQL, "CACHE");
    assertThat(f).anySatisfy(x -> {
      assertThat(x.pattern()).isEqualTo(AntiPattern.REPARTITION_WHERE_COALESCE_FITS);
      assertThat(x.line()).hasValue(3); // the INSERT statement starts there
      assertThat(x.remediation()).contains("COALESCE(1)");
    });
    assertThat(f).hasSize(2); // "warm" is read twice: no finding
  }

  @Test
  void commentsAndStringsDoNotTriggerFindings() throws Exception {
    String src = """
        # for d in days: df.count()
        msg = "call .collect() only on small data"
        note = '''
        for x in y:
            df.count()
        '''
        """;
    assertThat(findings("notes.py", src)).isEmpty();
  }
}
