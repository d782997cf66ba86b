/**
 * AssertJ assertions and a JUnit 5 extension for asserting, in a test suite, that a Spark job
 * stayed healthy: no failed stages, bounded skew, spill and GC, no regression against a baseline.
 */
package io.sparkrca.testing;
