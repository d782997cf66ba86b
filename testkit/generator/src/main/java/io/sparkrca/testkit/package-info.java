/**
 * Real Spark runs with injected faults. The generator forks one JVM per scenario with a real
 * Spark 3.5 or 4.0 classpath and records the event log, the driver log and the answers of a real
 * History Server; the results are committed as fixtures that other modules read without Spark.
 */
package io.sparkrca.testkit;
