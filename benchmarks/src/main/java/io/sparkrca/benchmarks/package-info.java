/**
 * Benchmarks (JMH and side-by-side harnesses) for event-log replay, log search, rule evaluation
 * and class inspection. Results and the commands that reproduce them are in
 * {@code benchmarks/RESULTS.md}.
 */
package io.sparkrca.benchmarks;
