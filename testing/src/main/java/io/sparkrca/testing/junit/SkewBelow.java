package io.sparkrca.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A declared check of a {@link SparkTest}: after the test body, fails the test when a stage of its
 * run has skew (slowest successful task duration / median) of {@link #value()} or more ({@code
 * stages().hasSkewBelow(value)}). On a class, it applies to every test of the class; a method's
 * own value wins.
 *
 * <pre>{@code
 * @Test
 * @SkewBelow(4.0)
 * void aggregatesEvenly(SparkSession spark) { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface SkewBelow {
  /** The ratio every stage must stay below. */
  double value();
}
