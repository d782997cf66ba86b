/**
 * The programs the testkit runs as real Spark applications, one forked driver JVM per run.
 *
 * <p>This source folder is compiled twice, once against Spark 3.5 and once against Spark 4.0 (by
 * the {@code spark-3.5} and {@code spark-4.0} modules), so it uses only the Java API both versions
 * share. Each workload injects at most one fault, named in its Javadoc; the generator verifies in
 * the resulting event log that the fault really happened.
 */
package io.sparkrca.testkit.scenarios;
