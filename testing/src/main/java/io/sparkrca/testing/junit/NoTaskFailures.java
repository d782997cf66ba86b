package io.sparkrca.testing.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A declared check of a {@link SparkTest}: after the test body, fails the test when a task attempt of its run failed, even one a retry recovered from ({@code hasNoTaskFailures()}). On a class, it applies to
 * every test of the class. A test whose body already failed is not checked again.
 *
 * <pre>{@code
 * @SparkTest
 * @NoTaskFailures
 * class NightlyJobTest { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface NoTaskFailures {}
