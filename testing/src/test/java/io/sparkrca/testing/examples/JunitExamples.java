package io.sparkrca.testing.examples;

import static io.sparkrca.testing.SparkAssertions.assertThat;
import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sparkrca.testing.junit.Healthy;
import io.sparkrca.testing.junit.NoExecutorLoss;
import io.sparkrca.testing.junit.NoFailedJobs;
import io.sparkrca.testing.junit.NoFailedStages;
import io.sparkrca.testing.junit.NoTaskFailures;
import io.sparkrca.testing.junit.SessionScope;
import io.sparkrca.testing.junit.SkewBelow;
import io.sparkrca.testing.junit.SparkRcaExtension;
import io.sparkrca.testing.junit.SparkRun;
import io.sparkrca.testing.junit.SparkTest;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Javadoc examples of {@code io.sparkrca.testing.junit}, compiled (see {@link
 * JavadocExamplesTest}). Each example test is an inner (non-static) class, which JUnit never
 * discovers: they only need to compile, and running them would need Spark.
 */
class JunitExamples {
  /** The job the example of {@code SparkTest} tests. */
  static final class WordCount {
    static Dataset<Row> count(SparkSession spark, String text) {
      return spark.emptyDataFrame();
    }
  }

  /** The example of {@code Healthy}. */
  class HealthyExample {
    @SparkTest
    @Healthy
    class NightlyJobTest { }
  }

  /** The example of {@code NoExecutorLoss}. */
  class NoExecutorLossExample {
    @SparkTest
    @NoExecutorLoss
    class NightlyJobTest { }
  }

  /** The example of {@code NoFailedJobs}. */
  class NoFailedJobsExample {
    @SparkTest
    @NoFailedJobs
    class NightlyJobTest { }
  }

  /** The example of {@code NoFailedStages}. */
  class NoFailedStagesExample {
    @SparkTest
    @NoFailedStages
    class NightlyJobTest { }
  }

  /** The example of {@code NoTaskFailures}. */
  class NoTaskFailuresExample {
    @SparkTest
    @NoTaskFailures
    class NightlyJobTest { }
  }

  /** The example of {@code SessionScope}. */
  class SessionScopeExample {
    @SparkTest(session = SessionScope.PER_METHOD)
    class ColdStartTest { }
  }

  /** The example of {@code SkewBelow}. */
  class SkewBelowExample {
    @Test
    @SkewBelow(4.0)
    void aggregatesEvenly(SparkSession spark) { spark.range(100).count(); }
  }

  /** The example of {@code SparkRcaExtension}. */
  class SparkRcaExtensionExample {
    @RegisterExtension
    static SparkRcaExtension spark = SparkRcaExtension.builder()
        .master("local[2,2]")
        .conf("spark.sql.adaptive.enabled", "false")
        .configure(SparkSession.Builder.class, b -> b.enableHiveSupport())
        .build();
  }

  /** The example of {@code SparkRcaExtension.Builder}. */
  void sparkRcaExtensionBuilder() {
    SparkRcaExtension.builder().master("local[2]").conf("spark.sql.shuffle.partitions", "8").build();
  }

  /** The example of {@code SparkRun}. */
  class SparkRunExample {
    @Test
    void aggregates(SparkSession spark, SparkRun run) {
      spark.range(1000).groupBy(col("id").mod(10)).count().collect();
      assertThat(run.application()).hasNoFailedStages().stages().hasSkewBelow(5.0);
    }
  }

  /** The example of {@code SparkTest}. */
  class SparkTestExample {
    @SparkTest(conf = "spark.sql.shuffle.partitions=8")
    @NoFailedStages
    class WordCountTest {
      @Test
      void countsWords(SparkSession spark, SparkRun run) {
        assertEquals(3, WordCount.count(spark, "a b a c").count());
        assertThat(run.application()).hasNoTaskFailures().stages().hasSkewBelow(5.0);
      }
    }
  }
}
