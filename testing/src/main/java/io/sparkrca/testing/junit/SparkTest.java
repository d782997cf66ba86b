package io.sparkrca.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test class whose tests get a local SparkSession with its event log written to a
 * temporary directory, and whose runs are replayed into {@link io.sparkrca.core.app.SparkApplication}s
 * for sparkrca's assertions: in the test through {@link SparkRun#application()}, in an
 * {@code @AfterEach} method that takes a {@code SparkApplication}, or by the declared checks
 * ({@link NoFailedStages}, {@link NoFailedJobs}, {@link NoTaskFailures}, {@link NoExecutorLoss},
 * {@link Healthy}, {@link SkewBelow}) after the test body.
 *
 * <pre>{@code
 * @SparkTest(conf = "spark.sql.shuffle.partitions=8")
 * @NoFailedStages
 * class WordCountTest {
 *   @Test
 *   void countsWords(SparkSession spark, SparkRun run) {
 *     assertEquals(3, WordCount.count(spark, "a b a c").count());
 *     assertThat(run.application()).hasNoTaskFailures().stages().hasSkewBelow(5.0);
 *   }
 * }
 * }</pre>
 *
 * <p>Spark itself comes from the test class path (3.5 or 4.0, in {@code test} or {@code provided}
 * scope); the extension builds the session by reflection. Unless {@link #conf()} says otherwise
 * it sets {@code spark.ui.enabled=false}, {@code spark.sql.shuffle.partitions=4}, the driver's host
 * and bind address to {@code 127.0.0.1}, and the warehouse and local directories into the
 * temporary directory, which is deleted after the class (kept with {@code
 * -Dsparkrca.testing.keepEventLogs=true}). Use {@link SparkRcaExtension#builder()} with
 * {@code @RegisterExtension} instead to configure the session builder in code.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(SparkRcaExtension.class)
public @interface SparkTest {
  /** The master URL, e.g. {@code local[2]}, or {@code local[2,3]} to allow task retries. */
  String master() default "local[2]";

  /** The application name; the test class's simple name when empty. */
  String appName() default "";

  /** Spark properties as {@code key=value}, applied after the extension's defaults. */
  String[] conf() default {};

  /** Whose session the tests run on. */
  SessionScope session() default SessionScope.PER_CLASS;
}
